// Builds the Models page to static files in dist/dashboard/, which `iris dashboard` serves: `/`
// is index.html and `/assets/*` the hashed scripts and styles. scripts/build.mjs runs this after
// the CLI bundle; it must not empty dist/ itself.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  logLevel: 'warn',
  // No public/ folder: everything the page needs is imported by main.tsx.
  publicDir: false,
  build: {
    outDir: fileURLToPath(new URL('../../../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // The page runs in the browser the user opens it in; Vite's default targets current ones.
    sourcemap: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 400,
  },
});
