// Running the real `bin/iris` as a subprocess against a temporary IRIS_HOME.
import { execFile } from 'node:child_process';
import type { Readable } from 'node:stream';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const IRIS_BIN = join(REPO_ROOT, 'bin', 'iris');

export type RunResult = { code: number; stdout: string; stderr: string };

export async function makeTempDir(prefix = 'iris-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** The environment a test run gets: no inherited provider keys, so results do not depend on the machine. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of ['PATH', 'HOME', 'LANG', 'TMPDIR']) {
    if (process.env[key] !== undefined) env[key] = process.env[key];
  }
  return { ...env, ...extra };
}

/**
 * How a finished child ends a test run. A normal exit resolves with its code. A run killed by the
 * timeout, or by a signal, rejects: a hang must never pass as "exit 1" (execFile reports both with
 * a non-numeric code, which used to be read as 1).
 */
function settle(
  argv: readonly string[],
  timeoutMs: number,
  resolve: (result: RunResult) => void,
  reject: (err: Error) => void,
): (error: (Error & { code?: unknown; killed?: boolean; signal?: NodeJS.Signals | null }) | null, stdout: string, stderr: string) => void {
  return (error, stdout, stderr) => {
    if (!error) return resolve({ code: 0, stdout, stderr });
    if (typeof error.code === 'number') return resolve({ code: error.code, stdout, stderr });
    const why = error.killed && error.signal === 'SIGTERM' ? `timed out after ${timeoutMs} ms` : error.signal ? `was killed by ${error.signal}` : `failed to run (${typeof error.code === 'string' ? error.code : error.message})`;
    reject(new Error(`bin/iris ${argv.join(' ')} ${why}\nstdout: ${stdout}\nstderr: ${stderr}`));
  };
}

export function runIris(
  args: readonly string[],
  options: { home: string; env?: Record<string, string>; nodeArgs?: readonly string[]; timeoutMs?: number },
): Promise<RunResult> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...(options.nodeArgs ?? []), IRIS_BIN, ...args],
      { env: cleanEnv({ IRIS_HOME: options.home, ...options.env }), timeout: timeoutMs },
      settle(args, timeoutMs, resolve, reject),
    );
  });
}

/** Runs bin/iris with `input` piped to its standard input (then closed). */
export function runIrisWithInput(
  args: readonly string[],
  input: string,
  options: { home: string; env?: Record<string, string>; cwd?: string; timeoutMs?: number },
): Promise<RunResult> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [IRIS_BIN, ...args],
      { env: cleanEnv({ IRIS_HOME: options.home, ...options.env }), timeout: timeoutMs, ...(options.cwd ? { cwd: options.cwd } : {}) },
      settle(args, timeoutMs, resolve, reject),
    );
    child.stdin?.end(input);
  });
}

/**
 * Resolves with everything `stream` has carried once it includes `text`; rejects with what it did
 * carry if that takes longer than `timeoutMs` or the stream ends first.
 */
export function waitForOutput(stream: Readable, text: string, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      stream.off('data', onData);
      stream.off('end', onEnd);
      settle();
    };
    const onData = (chunk: Buffer | string) => {
      seen += chunk.toString();
      if (seen.includes(text)) finish(() => resolve(seen));
    };
    const onEnd = () => finish(() => reject(new Error(`the output ended without ${JSON.stringify(text)}; it was: ${JSON.stringify(seen)}`)));
    const timer = setTimeout(() => finish(() => reject(new Error(`no ${JSON.stringify(text)} in the output within ${timeoutMs} ms; it was: ${JSON.stringify(seen)}`))), timeoutMs);
    stream.on('data', onData);
    stream.on('end', onEnd);
  });
}
