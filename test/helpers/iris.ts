// Running the real `bin/iris` as a subprocess against a temporary IRIS_HOME.
import { execFile } from 'node:child_process';
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

export function runIris(
  args: readonly string[],
  options: { home: string; env?: Record<string, string>; nodeArgs?: readonly string[] },
): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...(options.nodeArgs ?? []), IRIS_BIN, ...args],
      { env: cleanEnv({ IRIS_HOME: options.home, ...options.env }), timeout: 15_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Runs bin/iris with `input` piped to its standard input (then closed). */
export function runIrisWithInput(
  args: readonly string[],
  input: string,
  options: { home: string; env?: Record<string, string>; cwd?: string },
): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [IRIS_BIN, ...args],
      { env: cleanEnv({ IRIS_HOME: options.home, ...options.env }), timeout: 20_000, ...(options.cwd ? { cwd: options.cwd } : {}) },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end(input);
  });
}
