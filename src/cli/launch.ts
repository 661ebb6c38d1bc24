// What bin/iris runs (as dist/launch.cjs) for every command but --version: picks the command
// group's bundle from the arguments, compiles it with V8's code cache, and runs the CLI.
//
// Compiling is most of a command's start-up, and Node 20 caches compiled code for nobody: a
// bundle compiled through vm.Script can hand V8 the data of an earlier compile. The cache of a
// bundle is written once, after a run without a usable one, beside the bundle (dist/cli/cache/);
// V8 checks it against the source and its own version and flags, and one it rejects is written
// again. Where dist/ is read-only the CLI runs the same, only compiling each time.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { commandWord } from './command-word.js';

type Cli = { main(argv: readonly string[]): Promise<number> };

/** The bundle for a run, relative to dist/cli/: its group's, or help's for no or an unknown command. */
export function bundleFor(argv: readonly string[], groupExists: (group: string) => boolean): string {
  const word = commandWord(argv);
  // A word is only ever a file name here when it could be a group's: no dots, no slashes.
  return word !== undefined && /^[a-z][a-z0-9-]*$/.test(word) && groupExists(word) ? `groups/${word}.cjs` : 'help.cjs';
}

/**
 * Where a bundle's code cache lives. Per Node version, so that two Node versions do not take turns
 * rewriting it; per build of the bundle (its size and modification time), because V8 checks a
 * cache against the source's length only, and compiling a changed bundle with the cache of
 * another would run the old code's functions.
 */
export function cacheFileFor(cliDir: string, bundle: string, build: { size: number; mtimeMs: number }, nodeVersion: string, arch: string): string {
  const name = bundle.replace(/\//g, '-').replace(/\.cjs$/, '');
  return join(cliDir, 'cache', `${name}-${build.size}-${Math.trunc(build.mtimeMs)}-${nodeVersion}-${arch}.v8`);
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined; // none yet (or unreadable): compile without
  }
}

/** Written whole or not at all: a run that reads it while another writes sees the old or the new. */
function writeCache(file: string, data: Buffer): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, data);
    renameSync(temporary, file);
  } catch {
    // A read-only install: every run compiles, as without the cache.
  }
}

/** What became of a bundle's code cache: V8 took it, there was none, or V8 refused it (another build or Node). */
export type CacheUse = 'used' | 'none' | 'rejected';

/**
 * Loads a CommonJS bundle as require() would, but compiled with (and for) the code cache. The
 * cache is made when the process exits (atExit), after the command ran: it then holds the
 * functions the command compiled on its way too.
 */
export function loadBundle(file: string, cacheFile: string, atExit: (write: () => void) => void = (write) => process.once('exit', write)): { cli: Cli; cache: CacheUse } {
  const source = readFileSync(file, 'utf8');
  const cachedData = readCache(cacheFile);
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
    // No import() in it: the build turns each into require() (scripts/build.mjs).
  });
  const cache: CacheUse = cachedData === undefined ? 'none' : script.cachedDataRejected === true ? 'rejected' : 'used';
  if (cache !== 'used') atExit(() => writeCache(cacheFile, script.createCachedData()));
  const module = { exports: {} as Cli };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return { cli: module.exports, cache };
}

/** Runs the CLI from dist/ (the folder of dist/launch.cjs) and returns the exit code. */
export async function launch(argv: readonly string[], distDir: string): Promise<number> {
  const cliDir = join(distDir, 'cli');
  const bundle = bundleFor(argv, (group) => existsSync(join(cliDir, 'groups', `${group}.cjs`)));
  const file = join(cliDir, bundle);
  const { cli } = loadBundle(file, cacheFileFor(cliDir, bundle, statSync(file), process.version, process.arch));
  return cli.main(argv);
}
