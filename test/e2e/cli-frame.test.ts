import { execFile } from 'node:child_process';
import { chmod, copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanEnv, makeTempDir, REPO_ROOT, removeDir, runIris } from '../helpers/iris.js';

const execFileAsync = promisify(execFile);

let dir: string;
let home: string;
beforeEach(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
});
afterEach(() => removeDir(dir));

const pkg = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };

describe('iris CLI frame', () => {
  it('prints the package version for --version, -V and version', async () => {
    for (const args of [['--version'], ['-V'], ['version']]) {
      expect(await runIris(args, { home })).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    }
    const json = await runIris(['version', '--json'], { home });
    expect(JSON.parse(json.stdout)).toEqual({ version: pkg.version, node: process.versions.node });
  });

  it('prints help for --help, no arguments, and each command', async () => {
    const help = await runIris(['--help'], { home });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: iris [options] [command]');
    expect(help.stdout).toContain('config');
    expect((await runIris([], { home })).stdout).toBe(help.stdout);
    const setHelp = await runIris(['config', 'set', '--help'], { home });
    expect(setHelp.code).toBe(0);
    expect(setHelp.stdout).toContain('Usage: iris config set [options] <key> <value>');
  });

  it.each([
    [['frobnicate'], "iris: error: unknown command 'frobnicate' (see iris --help)\n"],
    [['config', 'show', '--bogus'], "iris: error: unknown option '--bogus' (see iris config show --help)\n"],
    [['config', 'get'], "iris: error: missing required argument 'key' (see iris config get --help)\n"],
    [['config', 'set', 'a', 'b', 'c'], 'iris: error: too many arguments for \'set\'. Expected 2 arguments but got 3. (see iris config set --help)\n'],
    [['stauts'], "iris: error: unknown command 'stauts' (Did you mean status?) (see iris --help)\n"],
    [['docter'], "iris: error: unknown command 'docter' (Did you mean doctor?) (see iris --help)\n"],
    [['config', 'sho'], "iris: error: unknown command 'sho' (Did you mean show?) (see iris config --help)\n"],
    [['config', 'show', '--jsn'], "iris: error: unknown option '--jsn' (Did you mean --json?) (see iris config show --help)\n"],
    [['sessions', 'lst'], "iris: error: unknown command 'lst' (Did you mean list?) (see iris sessions --help)\n"],
  ])('rejects %j with one line on stderr and exit code 2', async (args, stderr) => {
    expect(await runIris(args, { home })).toEqual({ code: 2, stdout: '', stderr });
  });

  it('exits 0 for iris help and iris help <command>', async () => {
    const help = await runIris(['help'], { home });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: iris [options] [command]');
    const configHelp = await runIris(['help', 'config'], { home });
    expect(configHelp.code).toBe(0);
    expect(configHelp.stdout).toContain('Usage: iris config [options] [command]');
  });

  it('prints a group\'s help on stdout and exits 0 when it is called without a subcommand, as gh pr does', async () => {
    for (const group of ['config', 'kanban']) {
      const result = await runIris(['-p', 'default', group], { home });
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toContain(`Usage: iris ${group} [options] [command]`);
    }
    // A group with an action of its own still runs it; an unknown subcommand is still a usage error.
    expect((await runIris(['auth'], { home })).stdout).toContain('No provider is in use yet');
    const unknown = await runIris(['kanban', 'lsit'], { home });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'lsit'");
  });

  // A copy of the install with its launcher damaged or its bundles gone: one line, exit 1.
  it('names a broken build in one line and exits 1', async () => {
    const install = join(dir, 'install');
    await mkdir(join(install, 'bin'), { recursive: true });
    await mkdir(join(install, 'dist'));
    for (const file of ['bin/iris', 'bin/package.json', 'package.json']) await copyFile(join(REPO_ROOT, file), join(install, file));
    await chmod(join(install, 'bin/iris'), 0o755);
    const run = (args: string[]) => execFileAsync(process.execPath, [join(install, 'bin/iris'), ...args], { env: cleanEnv({ IRIS_HOME: home }) }).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
    );
    await writeFile(join(install, 'dist/launch.cjs'), 'module.exports = (');
    expect(await run(['status'])).toEqual({ code: 1, stderr: `iris: error: the CLI build in ${join(install, 'dist')} does not load (Unexpected end of input); run \`npm run build\` in ${install}\n` });
    await copyFile(join(REPO_ROOT, 'dist/launch.cjs'), join(install, 'dist/launch.cjs'));
    expect(await run(['status'])).toEqual({ code: 1, stderr: `iris: error: the CLI build has no groups/status.cjs; run \`npm run build\` in ${install}\n` });
  });

  it('does not create the home for --version or --help', async () => {
    await runIris(['--version'], { home });
    await runIris(['--help'], { home });
    await expect(readFile(join(home, 'config.yaml'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(import('node:fs/promises').then((fs) => fs.stat(home))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('lazy loading', () => {
  type Metafile = { outputs: Record<string, { inputs: Record<string, unknown>; imports: Array<{ path: string; kind: string; external?: boolean }> }> };
  const metafile = async () => JSON.parse(await readFile(join(REPO_ROOT, 'dist/metafile.json'), 'utf8')) as Metafile;

  /**
   * What a run loaded: every module and built-in (traced), and the source files of the bundles it
   * compiled (the launcher's vm.Script files, mapped through the build's metafile).
   */
  async function loadedSources(args: string[], exitCode = 0): Promise<{ modules: string[]; bundles: string[]; sources: string[] }> {
    const trace = join(dir, `trace-${args.join('-')}.txt`);
    const result = await runIris(args, {
      home,
      env: { IRIS_TRACE_FILE: trace },
      nodeArgs: ['--import', join(REPO_ROOT, 'test/helpers/trace-imports.mjs')],
    });
    expect(result.code).toBe(exitCode);
    const modules = (await readFile(trace, 'utf8')).trim().split('\n');
    const meta = await metafile();
    const bundles = modules.filter((url) => url.endsWith('.cjs') && url.includes('/dist/cli/')).map((url) => `dist/${url.split('/dist/')[1]}`);
    const sources = bundles.flatMap((bundle) => Object.keys(meta.outputs[bundle]?.inputs ?? {}));
    return { modules, bundles, sources };
  }

  const HEAVY_MODULES = [/^node:(http|https|http2|net|tls|worker_threads)$/, /pino/];
  // Built-ins a config command has no use for; commander's child_process is required on first use
  // only (scripts/build.mjs), and temporary file names need no crypto.
  const CONFIG_UNUSED_BUILTINS = [/^node:(child_process|crypto|dgram)$/];
  const HEAVY_SOURCES = [/^src\/(providers\/|gateway\/|dashboard\/|webhook\/)/, /^src\/log\/logger\.ts$/, /node_modules\/(undici|pino|@azure|eventsource-parser|prom-client|pg|pg-[a-z-]+)\//, /^src\/store\/pg\//];

  it.each([[['config', 'show']], [['config', 'get', 'model']], [['config', 'set', 'a.b', '1', '--force']]])(
    '%j loads the config group alone: no server, dashboard, logger or model client',
    async (args) => {
      const { modules, bundles, sources } = await loadedSources(args);
      expect(bundles).toEqual(['dist/cli/groups/config.cjs']);
      expect(sources).toContain('src/config/store.ts');
      expect(sources.filter((path) => path.startsWith('src/cli/commands/') && path !== 'src/cli/commands/config.ts')).toEqual([]);
      expect(modules.filter((url) => HEAVY_MODULES.some((re) => re.test(url)))).toEqual([]);
      expect(modules.filter((url) => CONFIG_UNUSED_BUILTINS.some((re) => re.test(url)))).toEqual([]);
      expect(sources.filter((path) => HEAVY_SOURCES.some((re) => re.test(path)))).toEqual([]);
    },
  );

  // The patterns above can match: the gateway's bundle holds what config's must not, and a
  // gateway command loads pino (required from node_modules, outside the bundle).
  it('the gateway group bundle holds the server, the logger and the model client; gateway status loads pino', async () => {
    const inputs = Object.keys((await metafile()).outputs['dist/cli/groups/gateway.cjs']!.inputs);
    expect(HEAVY_SOURCES.map((re) => inputs.some((path) => re.test(path)))).toEqual([true, true, true, true]);
    const { modules, bundles } = await loadedSources(['gateway', 'status'], 1); // not running: exit 1
    expect(bundles).toEqual(['dist/cli/groups/gateway.cjs']);
    expect(modules.filter((url) => HEAVY_MODULES[1]!.test(url)).length).toBeGreaterThan(0);
    expect(modules.filter((url) => url.endsWith('/dist/launch.cjs'))).toHaveLength(1);
  });

  // status resolves routes, so it loads the pure provider modules (catalog, credentials, URL
  // rules), but never a model client, the identity chain, the logger or an HTTP stack.
  const STATUS_HEAVY_SOURCES = [
    // The gateway's pid file reader is status's own business; the gateway itself is not.
    /^src\/(gateway\/(?!pid-file\.ts$)|dashboard\/|webhook\/)/,
    /^src\/log\/logger\.ts$/,
    /node_modules\/(undici|pino|@azure|eventsource-parser|prom-client|pg|pg-[a-z-]+)\//, /^src\/store\/pg\//,
    /^src\/providers\/(provider-client|list-models)\.ts$/,
    /^src\/providers\/(wire|identity)\/(?!types\.ts$)/,
  ];
  const statusLoadsNothingHeavy = async (args: string[]) => {
    const { modules, bundles, sources } = await loadedSources(args);
    expect(bundles).toEqual(['dist/cli/groups/status.cjs']);
    expect(sources).toContain('src/routing/resolve.ts');
    expect(modules.filter((url) => HEAVY_MODULES.some((re) => re.test(url)))).toEqual([]);
    expect(sources.filter((path) => STATUS_HEAVY_SOURCES.some((re) => re.test(path)))).toEqual([]);
  };
  it.each([[['status']], [['status', '--deep']]])('%j loads no model client, identity chain, logger or HTTP stack', statusLoadsNothingHeavy);

  // The ES module build was strict throughout; the bundles keep that (scripts/build.mjs banner).
  it('every bundle and the launcher start strict', async () => {
    const files = [...Object.keys((await metafile()).outputs).filter((name) => name.endsWith('.cjs')), 'dist/launch.cjs'];
    expect(files.length).toBeGreaterThan(20);
    const heads = await Promise.all(files.map(async (file) => [file, (await readFile(join(REPO_ROOT, file), 'utf8')).slice(0, 13)]));
    expect(heads.filter(([, head]) => head !== "'use strict';")).toEqual([]);
  });

  it('--version does not even load the CLI bundle', async () => {
    const { modules, bundles } = await loadedSources(['--version']);
    expect(modules.length).toBeGreaterThan(0);
    expect(modules.filter((url) => url.includes('/dist/'))).toEqual([]);
    expect(bundles).toEqual([]);
  });

  // Help declares every group, but holds no command's code: a command runs from its group's bundle.
  it('--help and an unknown command load the help bundle, which holds no command code', async () => {
    expect((await loadedSources(['--help'])).bundles).toEqual(['dist/cli/help.cjs']);
    const inputs = Object.keys((await metafile()).outputs['dist/cli/help.cjs']!.inputs);
    expect(inputs).toContain('src/cli/groups/gateway.ts');
    expect(inputs.filter((path) => path.startsWith('src/cli/commands/') || HEAVY_SOURCES.some((re) => re.test(path)))).toEqual([]);
    const unknown = await runIris(['frobnicate'], { home });
    expect(unknown.code).toBe(2);
  });

  // The HTML libraries (a web_extract call) and prom-client (a gateway with metrics on) stay in
  // node_modules, outside every bundle. The build turns their import() into require() (a script
  // has no import(), scripts/build.mjs), each one inside a promise callback, so it still runs only
  // when the import() would have.
  it.each(['linkedom', '@mozilla/readability', 'turndown', 'prom-client'])('%s is in no bundle, and required only where it was imported dynamically', async (pkg) => {
    const outputs = Object.entries((await metafile()).outputs);
    expect(outputs.filter(([, out]) => Object.keys(out.inputs).some((path) => path.includes(`node_modules/${pkg}/`))).map(([name]) => name)).toEqual([]);
    const importers = outputs.filter(([, out]) => out.imports.some((i) => i.path === pkg)).map(([name]) => name);
    expect(importers.length).toBeGreaterThan(0);
    for (const bundle of importers) {
      const code = await readFile(join(REPO_ROOT, bundle), 'utf8');
      const requires = code.split(`require(${JSON.stringify(pkg)})`).length - 1;
      const deferred = code.match(new RegExp(`Promise\\.resolve\\(\\)\\.then\\(\\(\\)\\s*=>\\s*[\\w$]*\\(require\\(${JSON.stringify(pkg).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\)`, 'g')) ?? [];
      expect({ bundle, requires }).toEqual({ bundle, requires: deferred.length });
      expect(requires).toBeGreaterThan(0);
    }
  });
});
