// `npm run test:faults`: the faults a server meets, against the real gateway (bin/iris, which runs
// dist/: build first). They change the machine for everything running beside them — PostgreSQL is
// restarted, a tmpfs is mounted and filled — so they run alone, one file at a time, after the main
// suite (never beside it: a PostgreSQL restart breaks every test using it at that moment).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['test/faults/**/*.fault.ts'],
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 30_000,
  },
});
