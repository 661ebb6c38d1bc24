#!/usr/bin/env node
// Runs a TypeScript entry (a benchmark, the demo) on plain Node 20: bundles it with esbuild into
// a temporary module (dependencies stay external) and imports it, passing the arguments on.
//   node scripts/run-ts.mjs bench/stream.ts [args…]
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const [entry, ...rest] = process.argv.slice(2);
if (!entry) {
  process.stderr.write('usage: node scripts/run-ts.mjs <file.ts> [args…]\n');
  process.exit(2);
}
// Inside the project, so that the bundle's bare imports resolve from node_modules.
const cache = resolve('node_modules', '.cache', 'iris-run-ts');
mkdirSync(cache, { recursive: true });
const dir = mkdtempSync(join(cache, 'run-'));
const outfile = join(dir, 'entry.mjs');
try {
  await build({
    entryPoints: [resolve(entry)],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    packages: 'external',
    logLevel: 'warning',
  });
  process.argv = [process.argv[0], resolve(entry), ...rest];
  await import(pathToFileURL(outfile).href);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
