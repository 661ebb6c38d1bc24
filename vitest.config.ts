import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export default defineConfig({
  define: { __IRIS_VERSION__: JSON.stringify(pkg.version) },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The store tests run on PostgreSQL too: stop at once, with the command that starts it, when it does not answer.
    globalSetup: ['test/setup/postgres.ts'],
    // e2e tests spawn bin/iris; the pretest script builds dist/ first.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // `npm test -- --coverage` (what .ci/run does). Only code that runs inside vitest's workers is
    // measured: the e2e tests' bin/iris subprocesses are not, so these figures are the unit tests'.
    coverage: {
      provider: 'v8',
      include: ['src/**/*.{ts,tsx}'],
      // The dashboard's React components run in the browser: the chromium tests
      // (test/e2e/dashboard-*.test.ts) exercise them, and v8 in vitest's workers never sees them.
      // The page's pure modules (web/*.ts: formats, ranges, addresses, stream parsing) stay counted.
      exclude: ['src/**/*.test.ts', 'src/**/*.d.ts', 'src/dashboard/web/**/*.tsx'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
      // Today's figures rounded down (2026-11-29, fresh clone: 72.22 / 67.33 / 72.42 / 74.17 %;
      // lines kept half a point below): coverage may rise, never fall. Raise them when it rises.
      thresholds: { statements: 72, branches: 67, functions: 72, lines: 73.5 },
    },
  },
});
