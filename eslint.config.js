import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist', 'dist/', '.builds/', 'dist.*.link', 'node_modules/', 'coverage/', 'tmp/'] },
  js.configs.recommended,
  // Type-aware rules: promises that nobody awaits or that land where a void callback is expected,
  // `any` leaking through JSON.parse and casts, assertions that assert nothing.
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly' },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // Async functions without an await are how the synchronous SQLite store and the test fakes
      // implement async interfaces; the rule would only add noise there.
      '@typescript-eslint/require-await': 'off',
      // A wrapper that passes another promise's rejection through unchanged may reject with
      // whatever that promise did.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      'no-console': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      // Full zod carries its JSON Schema generator into whichever chunk imports it, and every
      // config command would load it (test/e2e/cli-frame.test.ts); zod/mini has the same schemas.
      // (The MCP SDK's fake server in test/fakes speaks the SDK's full-zod schemas.)
      'no-restricted-imports': ['error', { paths: [{ name: 'zod', message: "import * as z from 'zod/mini' (full zod drags the JSON Schema generator into the CLI's start-up)" }] }],
    },
  },
  {
    // Plain JavaScript (build and helper scripts, this file): no type information to check with.
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
