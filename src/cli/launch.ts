// What bin/iris runs (as dist/launch.cjs) for every command but --version: picks the command
// group's bundle from the arguments, compiles it with V8's code cache, and runs the CLI.
//
// Compiling is most of a command's start-up, and Node 20 caches compiled code for nobody: a
// bundle compiled through vm.Script can hand V8 the data of an earlier compile. The cache of a
// bundle is written once, after a run without a usable one, beside the bundle (dist/cli/cache/),
// under a name that says which build of the bundle, which Node and which V8 flags it is for. V8
// checks a cache against its own version and flags and the source's length, and one it rejects
// (a cut-short file, say) is written again. Where dist/ is read-only the CLI runs the same, only
// compiling each time.
//
// V8 does not check a code cache's checksum in release builds, and a cache damaged on disk after
// it was written would crash every run of its command: the write is made safe against torn files
// (writeCache), and `rm -r dist/cli/cache` is the remedy for a disk that damages files (docs). Not
// checked here on purpose: node:v8 (to turn the check on) costs 3-4 ms of every start, a checksum
// in JavaScript over the ~400 KB about 2.5 ms, and node:zlib's crc32 3 ms to load.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { commandWord } from './command-word.js';

// Each bundle's content hash, written into dist/launch.cjs by scripts/build.mjs.
declare const __IRIS_BUNDLE_HASHES__: Readonly<Record<string, string>> | undefined;
const BUNDLE_HASHES: Readonly<Record<string, string>> = typeof __IRIS_BUNDLE_HASHES__ === 'undefined' ? {} : __IRIS_BUNDLE_HASHES__;

type Cli = { main(argv: readonly string[]): Promise<number> };

/** The bundle for a run, relative to dist/cli/: its group's, or help's for no or an unknown command. */
export function bundleFor(argv: readonly string[], groupExists: (group: string) => boolean): string {
  const word = commandWord(argv);
  // A word is only ever a file name here when it could be a group's: no dots, no slashes.
  return word !== undefined && /^[a-z][a-z0-9-]*$/.test(word) && groupExists(word) ? `groups/${word}.cjs` : 'help.cjs';
}

/** A short hash of a string (FNV-1a, 32 bits, base 36): names, not security. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

/**
 * Where a bundle's code cache lives. Per build of the bundle (its content hash): V8 compares a
 * cache with the source's length only, and a changed bundle compiled with another build's cache
 * would run the old code. Per Node version and architecture, and per V8 flags (a cache made under
 * other flags is refused), so that two kinds of run do not take turns rewriting one file.
 */
export function cacheFileFor(cliDir: string, bundle: string, buildHash: string, runtime: { nodeVersion: string; arch: string; flags: string }): string {
  const name = bundle.replace(/\//g, '-').replace(/\.cjs$/, '');
  return join(cliDir, 'cache', `${name}-${buildHash}-${runtime.nodeVersion}-${runtime.arch}-${shortHash(runtime.flags)}.v8`);
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined; // none yet (or unreadable): compile without
  }
}

/**
 * Written whole or not at all: into a file of this process's own (two containers sharing an
 * install can both be pid 1), flushed to disk, then renamed over the cache, so a reader, a crash or
 * a power cut sees the old cache or the new one. Where the folder cannot be written, the cache is
 * not even made.
 */
function writeCache(file: string, make: () => Buffer): void {
  let temporary: string | undefined;
  let fd: number | undefined;
  try {
    mkdirSync(dirname(file), { recursive: true });
    temporary = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`;
    fd = openSync(temporary, 'wx', 0o644);
    const data = make();
    for (let at = 0; at < data.length; ) at += writeSync(fd, data, at);
    fsyncSync(fd);
    const written = fd;
    fd = undefined;
    closeSync(written);
    renameSync(temporary, file);
    temporary = undefined;
  } catch {
    // A read-only install or a full disk: every run compiles, as without the cache.
  } finally {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // closed already (a close that failed above still frees the descriptor)
      }
    }
    if (temporary !== undefined) {
      try {
        unlinkSync(temporary);
      } catch {
        // never created
      }
    }
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
  if (cache !== 'used') atExit(() => writeCache(cacheFile, () => script.createCachedData()));
  const module = { exports: {} as Cli };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return { cli: module.exports, cache };
}

/** Runs the CLI from dist/ (the folder of dist/launch.cjs) and returns the exit code. */
export async function launch(
  argv: readonly string[],
  distDir: string,
  hashes: Readonly<Record<string, string>> = BUNDLE_HASHES,
  atExit?: (write: () => void) => void,
): Promise<number> {
  const cliDir = join(distDir, 'cli');
  const bundle = bundleFor(argv, (group) => Object.hasOwn(hashes, `groups/${group}.cjs`));
  const buildHash = hashes[bundle];
  const incomplete = () => new Error(`the CLI build has no ${bundle}; run \`npm run build\` in ${dirname(distDir)}`);
  if (buildHash === undefined) throw incomplete();
  const runtime = { nodeVersion: process.version, arch: process.arch, flags: `${process.execArgv.join(' ')}\n${process.env.NODE_OPTIONS ?? ''}` };
  let cli: Cli;
  try {
    ({ cli } = loadBundle(join(cliDir, bundle), cacheFileFor(cliDir, bundle, buildHash, runtime), atExit));
  } catch (err) {
    throw (err as NodeJS.ErrnoException).code === 'ENOENT' ? incomplete() : err;
  }
  return cli.main(argv);
}
