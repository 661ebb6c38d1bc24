// Finding and running the GitHub CLI: spawn, never a shell, always with a timeout, the body on
// stdin (never in argv, where `ps` would show it), output capped, and an environment that keeps
// what gh needs to sign in while dropping every other credential of the service.
//
// This file reports what happened to the process; what that means for a delivery is decided in
// forge-comment.ts.
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import type { Env } from '../config/home.js';
import { buildChildEnv } from '../agent/tools/terminal/child-env.js';

/** Per stream. `gh pr comment` prints one URL; anything near this is not gh behaving as expected. */
export const GH_OUTPUT_CAP_BYTES = 64 * 1024;

/** How long after the kill we still wait for the pipes to close before giving up on them. */
const PIPE_GRACE_MS = 2_000;

/** gh's own credentials and settings, secret-named or not, which the generic policy would strip. */
const GH_AUTH_NAMES = ['GH_TOKEN', 'GITHUB_TOKEN', 'GH_ENTERPRISE_TOKEN', 'GITHUB_ENTERPRISE_TOKEN'] as const;

/** Debug switches make gh print every request, which would overflow the cap and fill our logs. */
const GH_DROPPED_NAMES = ['GH_DEBUG', 'DEBUG'] as const;

/** A daemon has nobody to answer a prompt, and the update check is a network call per run. */
const GH_FIXED_ENV = { GH_PROMPT_DISABLED: '1', GH_NO_UPDATE_NOTIFIER: '1' } as const;

export function ghBinary(env: Env): string {
  return env.IRIS_GH_BIN?.trim() || 'gh';
}

export function buildGhEnv(env: Env): NodeJS.ProcessEnv {
  const out = buildChildEnv(env);
  for (const name of GH_AUTH_NAMES) {
    const value = env[name];
    if (value !== undefined && value !== '') out[name] = value;
  }
  for (const name of GH_DROPPED_NAMES) delete out[name];
  return { ...out, ...GH_FIXED_ENV };
}

export type GhRunRequest = {
  readonly bin: string;
  readonly args: readonly string[];
  readonly stdin: string;
  /** The child's whole environment (see `buildGhEnv`); its PATH is where a bare `gh` is looked up. */
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Default: the temp directory, so no checkout's files are in reach of the run. */
  readonly cwd?: string;
  /** Called with the child's pid (its process group's id) once it is started. */
  readonly onSpawn?: (pid: number) => void;
  /** Per stream; default GH_OUTPUT_CAP_BYTES. Reads of a PR's files print far more than a comment's URL. */
  readonly outputCapBytes?: number;
};

export type GhRun =
  | { readonly kind: 'exited'; readonly exitCode: number; readonly stdout: string; readonly stderr: string }
  /** The binary could not be started (ENOENT, EACCES, …). */
  | { readonly kind: 'not_started'; readonly errno: string; readonly message: string }
  | { readonly kind: 'timeout'; readonly stderr: string }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'output_overflow'; readonly stderr: string }
  /** Ended by a signal Iris did not send. */
  | { readonly kind: 'killed'; readonly signal: string; readonly stderr: string };

export function runGh(request: GhRunRequest): Promise<GhRun> {
  if (request.signal?.aborted) return Promise.resolve({ kind: 'cancelled' });
  return new Promise((resolve) => {
    let timedOut = false;
    let overflowed = false;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    const onAbort = () => killProcessGroup(child.pid);
    const settle = (run: GhRun): void => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      resolve(run);
    };

    // Its own process group (`detached`): a timeout or a shutdown kills gh and whatever it
    // started (a wrapper script's gh), not only the process we spawned; execFile cannot do this.
    const child = spawn(request.bin, [...request.args], {
      env: request.env,
      cwd: request.cwd ?? tmpdir(),
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const cap = request.outputCapBytes ?? GH_OUTPUT_CAP_BYTES;
    const stdout = cappedText(cap, () => {
      overflowed = true;
      killProcessGroup(child.pid);
    });
    const stderr = cappedText(cap, () => {
      overflowed = true;
      killProcessGroup(child.pid);
    });
    child.stdout.on('data', stdout.add);
    child.stderr.on('data', stderr.add);
    child.once('error', (err: NodeJS.ErrnoException) => settle({ kind: 'not_started', errno: err.code ?? 'unknown', message: err.message }));
    child.once('close', (exitCode, signal) => {
      const err = stderr.text();
      if (request.signal?.aborted) settle({ kind: 'cancelled' });
      else if (timedOut) settle({ kind: 'timeout', stderr: err });
      else if (overflowed) settle({ kind: 'output_overflow', stderr: err });
      else if (exitCode !== null) settle({ kind: 'exited', exitCode, stdout: stdout.text(), stderr: err });
      else settle({ kind: 'killed', signal: signal ?? 'unknown', stderr: err });
    });
    if (child.pid !== undefined) request.onSpawn?.(child.pid);
    request.signal?.addEventListener('abort', onAbort, { once: true });
    // gh exits before reading stdin when it is not signed in; the write then fails with EPIPE,
    // which is not the failure worth reporting (the exit code is).
    child.stdin.on('error', () => undefined);
    child.stdin.end(request.stdin);

    // gh keeps no state worth a graceful exit, so a stuck run is killed outright.
    const timeoutMs = Math.max(1, request.timeoutMs);
    timers.push(
      setTimeout(() => {
        timedOut = true;
        killProcessGroup(child.pid);
      }, timeoutMs),
    );
    // Something outside the group (a daemonised grandchild) may still hold our pipes; stop
    // waiting for them rather than outlive the timeout.
    timers.push(
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        settle({ kind: 'timeout', stderr: stderr.text() });
      }, timeoutMs + PIPE_GRACE_MS),
    );
  });
}

/** A stream's text, kept up to `cap` bytes; `onOverflow` is called once past it. */
function cappedText(cap: number, onOverflow: () => void): { add: (chunk: Buffer) => void; text: () => string } {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let over = false;
  return {
    add: (chunk) => {
      if (over) return;
      if (bytes + chunk.length > cap) {
        over = true;
        onOverflow();
        return;
      }
      chunks.push(chunk);
      bytes += chunk.length;
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
  };
}

/** SIGKILL to the whole group led by `pid`; a group that is gone already is not an error. */
export function killProcessGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: every member has exited.
  }
}
