import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export default defineConfig({
  define: { __IRIS_VERSION__: JSON.stringify(pkg.version) },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // e2e tests spawn bin/iris; the pretest script builds dist/ first.
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
