// Running one model-written command line. The house rule is execFile and never a shell; this is
// the one deliberate exception: the terminal tool's whole job is to run a shell command line
// (pipes, globs, `&&`, redirects) exactly as the model wrote it, so it runs `<shell> -c <command>`
// with the line as a single argument. What keeps that safe is around it, not in it: approval
// before the run, a cwd inside the workspace, an environment without secrets, a timeout, and
// output caps.
//
// The shell starts detached, as the leader of its own process group, so that a timeout or a
// cancel can stop everything it started (`make` and its compilers, `sleep` in the background) with
// one `kill(-pid)`, instead of leaving grandchildren running with our pipes open.
import { spawn } from 'node:child_process';
import { createOutputCap } from './output-cap.js';

export type ShellRunRequest = {
  /** What is started: `<shell> -c <line>`, or bwrap with the same at its end (src/sandbox). */
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Per stream. */
  readonly maxOutputBytes: number;
  /** Between SIGTERM and SIGKILL when stopping the group. */
  readonly killGraceMs: number;
  /** How long the output may stay open after the shell exited (held by background jobs). */
  readonly lingerMs: number;
};

export type ShellRun =
  | {
      readonly kind: 'finished';
      /** `null` when the shell was ended by a signal. */
      readonly exitCode: number | null;
      readonly exitSignal: NodeJS.Signals | null;
      /** Why Iris stopped the command, if it did. */
      readonly stopped: 'timeout' | 'cancelled' | undefined;
      /** Background processes kept stdout/stderr open after the shell exited, and were stopped. */
      readonly stoppedLingering: boolean;
      readonly stdout: string;
      readonly stderr: string;
    }
  | { readonly kind: 'not_started'; readonly message: string };

export function runShell(request: ShellRunRequest): Promise<ShellRun> {
  if (request.signal?.aborted) {
    return Promise.resolve({ kind: 'not_started', message: 'the run was cancelled' });
  }
  const child = spawn(request.file, request.args, {
    cwd: request.cwd,
    env: request.env,
    detached: true,
    // No stdin: a command that waits for input reads end-of-file instead of hanging until the timeout.
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
  const stdout = createOutputCap(request.maxOutputBytes);
  const stderr = createOutputCap(request.maxOutputBytes);
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));

  return new Promise((resolve) => {
    let stopped: 'timeout' | 'cancelled' | undefined;
    let stoppedLingering = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    const timers: NodeJS.Timeout[] = [];
    let settled = false;

    const signalGroup = (signal: NodeJS.Signals): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // ESRCH: the whole group is already gone.
      }
    };
    const stop = (why: 'timeout' | 'cancelled'): void => {
      if (stopped || settled) return;
      stopped = why;
      signalGroup('SIGTERM');
      timers.push(setTimeout(() => signalGroup('SIGKILL'), request.killGraceMs));
    };
    const onAbort = (): void => stop('cancelled');

    const settle = (run: ShellRun): void => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      resolve(run);
    };
    const finish = (): void => {
      settle({
        kind: 'finished',
        exitCode: exit?.code ?? null,
        exitSignal: exit?.signal ?? null,
        stopped,
        stoppedLingering,
        stdout: stdout.text(),
        stderr: stderr.text(),
      });
    };

    child.on('error', (err) => {
      signalGroup('SIGKILL');
      settle({ kind: 'not_started', message: err.message });
    });
    const timeout = setTimeout(() => stop('timeout'), request.timeoutMs);
    timers.push(timeout);
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // The command itself is done: what is left is only the wait for its output, bounded below.
      clearTimeout(timeout);
      // A background job (`server &`) can hold the pipes open forever; stop what is left of the
      // group, and stop waiting even for a process that left the group (setsid).
      timers.push(
        setTimeout(() => {
          stoppedLingering = stopped === undefined;
          signalGroup('SIGKILL');
          child.stdout.destroy();
          child.stderr.destroy();
          finish();
        }, request.lingerMs),
      );
    });
    child.on('close', finish);
    request.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
