// Replaced at build time (scripts/build.mjs) and in tests (vitest.config.ts) from package.json.
declare const __IRIS_VERSION__: string;

export const VERSION: string = __IRIS_VERSION__;
