// `npm run test:hostile`: the hostile-input run on its own (it is not part of `npm test`). It
// starts bin/iris, which runs dist/: build first (`npm run build`; `npm test` builds too).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['test/hostile/**/*.hostile.ts'],
    testTimeout: 110_000,
    hookTimeout: 20_000,
  },
});
