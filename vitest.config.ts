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
      exclude: ['src/**/*.test.ts', 'src/**/*.d.ts'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
      // Today's figures rounded down (2026-11-27: 72.29 / 66.98 / 72.35 / 74.06 %): coverage may
      // rise, never fall. Raise them when it rises.
      thresholds: { statements: 71, branches: 66, functions: 71, lines: 73 },
    },
  },
});
