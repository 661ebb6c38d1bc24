// Bundles the CLI into dist/cli/ with esbuild, then builds the dashboard's Models page with Vite
// into dist/dashboard/, which `iris dashboard` serves.
//
// One CommonJS bundle per command group (dist/cli/groups/<group>.cjs): a run loads the frame, its
// own group and that group's commands, and nothing of the others. The launcher (dist/launch.cjs,
// from src/cli/launch.ts) picks the bundle from the arguments and compiles it with V8's code
// cache, which only scripts have (not ES modules): start-up is dominated by compiling, and the
// cache turns it into a read. dist/cli/help.cjs declares every group, for help and unknown
// commands; no command's code runs there.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { build as buildPage } from 'vite';
import { abandonBuild, currentInputsHash, finishBuild, inputsHash, startBuild } from './dist-swap.mjs';

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

// A build writes a folder of its own and swaps it in for dist/ at the end (scripts/dist-swap.mjs):
// a command run meanwhile uses the last build. Unchanged inputs skip the build; --force does not.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const inputs = inputsHash(ROOT);
if (!process.argv.includes('--force') && currentInputsHash(ROOT) === inputs) {
  process.stdout.write('dist/ is up to date (the sources have not changed; --force builds anyway)\n');
  process.exit(0);
}
const target = startBuild(ROOT);
const OUT = relative(ROOT, target.outDir).split(sep).join('/');
process.on('exit', (code) => code !== 0 && abandonBuild(target));

// The command groups: one file each in src/cli/groups/ (all.ts lists them for help).
const GROUPS = readdirSync(new URL('../src/cli/groups/', import.meta.url))
  .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && name !== 'all.ts')
  .map((name) => name.slice(0, -'.ts'.length));
const groupExport = (group) => `register${group.split('-').map((part) => part[0].toUpperCase() + part.slice(1)).join('')}`;
/** Each bundle's entry, written here: the frame's main() with the groups that bundle declares. */
const entrySource = (bundle) =>
  bundle === 'help'
    ? "import { main as runMain } from './main.ts'; import { GROUPS } from './groups/all.ts'; export const main = (argv) => runMain(argv, GROUPS);"
    : `import { main as runMain } from './main.ts'; import { ${groupExport(bundle)} as register } from './groups/${bundle}.ts'; export const main = (argv) => runMain(argv, [[${JSON.stringify(bundle)}, register]]);`;
const virtualEntries = {
  name: 'iris-cli-entries',
  setup(build) {
    build.onResolve({ filter: /^iris-entry:/ }, (args) => ({ path: args.path.slice('iris-entry:'.length), namespace: 'iris-entry' }));
    build.onLoad({ filter: /.*/, namespace: 'iris-entry' }, (args) => ({ contents: entrySource(args.path), loader: 'ts', resolveDir: fileURLToPath(new URL('../src/cli/', import.meta.url)) }));
  },
};

// Loaded from node_modules by a dynamic import(), outside every bundle: the HTML libraries for a
// web_extract call and prom-client for a gateway with metrics on. In a bundle they would sit in
// every chat's and gateway's compile (test/e2e/cli-frame.test.ts).
const RUN_TIME_PACKAGES = ['linkedom', '@mozilla/readability', 'turndown', 'prom-client'];

const common = {
  bundle: true,
  outdir: OUT,
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  platform: 'node',
  target: 'node20.19',
  // A bundle is compiled as a script (vm.Script, src/cli/launch.ts), where import() needs a loader
  // callback that Node 20 only offers as an experimental feature: the packages left outside the
  // bundles load by require() instead (each has a CommonJS build), still only when first used.
  supported: { 'dynamic-import': false },
  // Full minification: a first run (before the code cache exists) is dominated by compiling.
  minify: process.env.IRIS_NO_MINIFY !== '1',
  keepNames: false,
  sourcemap: 'linked',
  // pino loads its transports by file name at run time; it stays a normal dependency. The MCP SDK
  // stays one too: bundled, its full zod would sit beside the config's zod/mini.
  external: ['pino', '@modelcontextprotocol/sdk', 'ws', ...RUN_TIME_PACKAGES],
  // yaml's ESM build: esbuild hoists it instead of wrapping CommonJS, less to run at start-up.
  alias: { yaml: './node_modules/yaml/browser/index.js' },
  // import.meta.url in CommonJS: the bundle's own file, as the ES module build had it.
  define: { __IRIS_VERSION__: JSON.stringify(pkg.version), 'import.meta.url': '__irisModuleUrl' },
  // Strict, as the ES module build was: the banner comes first, so its directive covers the bundle.
  banner: { js: "'use strict';var __irisModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  // Which source files each bundle holds: the lazy-loading tests read it.
  metafile: true,
  logLevel: 'warning',
};
// help.cjs runs no command: the launcher gives a command's run its group's bundle, so here the
// groups' lazy imports of command code resolve to a module that fails loudly if that ever breaks.
// Without it help would hold every command's code (2.7 MB) and start at twice the time.
const helpRunsNoCommand = {
  name: 'iris-help-runs-no-command',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/commands\// }, (args) => (args.importer.includes(`${sep}src${sep}cli${sep}groups${sep}`) ? { path: args.path, namespace: 'iris-help-no-command' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'iris-help-no-command' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`internal: the help bundle was asked to run a command (${args.path}); src/cli/launch.ts loads a command's own group bundle`)});`,
      loader: 'js',
    }));
  },
};
const groups = await build({
  ...common,
  entryPoints: Object.fromEntries(GROUPS.map((group) => [`cli/groups/${group}`, `iris-entry:${group}`])),
  plugins: [lazyChildProcess, virtualEntries],
});
const help = await build({
  ...common,
  entryPoints: { 'cli/help': 'iris-entry:help' },
  plugins: [lazyChildProcess, virtualEntries, helpRunsNoCommand],
});
// Outputs named as they are read, dist/…, not by the folder they were built in.
const asDist = (outputs) => Object.fromEntries(Object.entries(outputs).map(([name, output]) => [name.startsWith(`${OUT}/`) ? `dist/${name.slice(OUT.length + 1)}` : name, output]));
const result = { metafile: { inputs: { ...groups.metafile.inputs, ...help.metafile.inputs }, outputs: asDist({ ...groups.metafile.outputs, ...help.metafile.outputs }) } };
// The launcher: small, loaded by bin/iris with require() on every run but --version. It knows each
// bundle by its content hash, which names the bundle's code cache (src/cli/launch.ts).
const bundleHashes = Object.fromEntries(
  Object.keys(result.metafile.outputs)
    .filter((output) => output.endsWith('.cjs'))
    .map((output) => [output.slice('dist/cli/'.length), createHash('sha256').update(readFileSync(join(target.outDir, output.slice('dist/'.length)))).digest('hex').slice(0, 16)]),
);
await build({
  ...common,
  entryPoints: { launch: 'src/cli/launch.ts' },
  define: { ...common.define, __IRIS_BUNDLE_HASHES__: JSON.stringify(bundleHashes) },
  metafile: false,
  sourcemap: false,
});
writeFileSync(join(target.outDir, 'metafile.json'), JSON.stringify(result.metafile));

// The page's own config (src/dashboard/web/vite.config.ts), writing into this build's dashboard/.
await buildPage({
  configFile: fileURLToPath(new URL('../src/dashboard/web/vite.config.ts', import.meta.url)),
  logLevel: 'warn',
  build: { outDir: join(target.outDir, 'dashboard') },
});

finishBuild(ROOT, target, inputs);
