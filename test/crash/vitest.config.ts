// `npm run test:crash`: the kill -9 trials on their own (not part of `npm test`). They start
// bin/iris, which runs dist/: build first (`npm run build`; `npm test` builds too).
// IRIS_CRASH_TRIALS sets the number of trials (default 20, what CI runs).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['test/crash/**/*.crash.ts'],
    testTimeout: 600_000,
    hookTimeout: 20_000,
  },
});
