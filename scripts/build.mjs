// Bundles the CLI into dist/ with esbuild. One bundle with code splitting: the command frame is
// small, and each command's dependencies load only when that command runs. Then builds the
// dashboard's Models page with Vite into dist/dashboard/, which `iris dashboard` serves.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { build as buildPage } from 'vite';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// commander requires node:child_process when it loads, for executable subcommands, which Iris
// does not have; child_process brings net, dgram and the stream modules with it, milliseconds of
// every command's start-up. Here it is required when first used instead. The build fails if
// commander's line changes, so the patch cannot silently stop applying.
const COMMANDER_EAGER = "const childProcess = require('node:child_process');";
const COMMANDER_LAZY = "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };";
const lazyChildProcess = {
  name: 'commander-lazy-child-process',
  setup(build) {
    build.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes(COMMANDER_EAGER)) throw new Error(`${args.path}: commander no longer has the line this build makes lazy (scripts/build.mjs)`);
      if (/childProcess\.(?!spawn\()/.test(source)) throw new Error(`${args.path}: commander uses more of child_process than spawn (scripts/build.mjs)`);
      return { contents: source.replace(COMMANDER_EAGER, COMMANDER_LAZY), loader: 'js' };
    });
  },
};
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

const result = await build({
  entryPoints: { cli: 'src/cli/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  // Full minification: start-up time is dominated by parsing and compiling the bundle.
  minify: process.env.IRIS_NO_MINIFY !== "1",
  keepNames: false,
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  // pino loads its transports by file name at run time; it stays a normal dependency. The MCP SDK
  // stays one too: bundled, its full zod would share chunks with the config's zod/mini and pull
  // zod's JSON Schema generator into every command's start-up (test/e2e/cli-frame.test.ts).
  external: ['pino', '@modelcontextprotocol/sdk', 'ws'],
  // yaml's ESM build: esbuild hoists it into the chunk instead of wrapping CommonJS, which
  // saves several milliseconds of start-up on every command that reads the config.
  alias: { yaml: './node_modules/yaml/browser/index.js' },
  define: { __IRIS_VERSION__: JSON.stringify(pkg.version) },
  // CommonJS dependencies (yaml) call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __irisCreateRequire } from 'node:module'; const require = __irisCreateRequire(import.meta.url);",
  },
  // Which source files each output chunk holds: the lazy-loading test reads it.
  metafile: true,
  logLevel: 'warning',
  plugins: [lazyChildProcess],
});
writeFileSync(new URL('../dist/metafile.json', import.meta.url), JSON.stringify(result.metafile));

// The page's own config (src/dashboard/web/vite.config.ts) writes dist/dashboard/ only.
await buildPage({
  configFile: fileURLToPath(new URL('../src/dashboard/web/vite.config.ts', import.meta.url)),
  logLevel: 'warn',
});
