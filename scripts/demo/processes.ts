// The subprocesses of the demo: `bin/iris gateway run` in the foreground (its output shown line by
// line and kept for a failure report), and one-shot `bin/iris` commands.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { DemoFailure } from './out.js';

export type GatewayProcess = {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Every line it printed so far, `out| ` or `err| ` first. */
  readonly lines: string[];
  /** Resolves with the exit code (or the signal's name) when it has exited. */
  readonly exited: Promise<number | string>;
  hasExited(): boolean;
};

export function spawnGateway(options: {
  readonly irisBin: string;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly onLine: (line: string, stream: 'out' | 'err') => void;
}): GatewayProcess {
  // Its own process group: Ctrl-C in the terminal reaches the demo only, and the demo stops the
  // gateway with one SIGTERM (a second signal would make it exit without waiting for runs).
  const child = spawn(process.execPath, [options.irisBin, 'gateway', 'run'], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const lines: string[] = [];
  let done = false;
  const exited = new Promise<number | string>((resolve) => {
    child.once('error', (err) => {
      done = true;
      resolve(`not started: ${err.message}`);
    });
    child.once('close', (code, signal) => {
      done = true;
      resolve(code ?? signal ?? 'unknown');
    });
  });
  for (const stream of ['out', 'err'] as const) {
    let pending = '';
    const source = stream === 'out' ? child.stdout : child.stderr;
    source?.setEncoding('utf8');
    source?.on('data', (chunk: string) => {
      pending += chunk;
      let at: number;
      while ((at = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, at);
        pending = pending.slice(at + 1);
        lines.push(`${stream}| ${line}`);
        options.onLine(line, stream);
      }
    });
    source?.on('end', () => {
      if (pending === '') return;
      lines.push(`${stream}| ${pending}`);
      options.onLine(pending, stream);
      pending = '';
    });
  }
  return { child, pid: child.pid ?? -1, lines, exited, hasExited: () => done };
}

/** Waits for `gateway listening on <host>:<port> (pid …)` and returns the port. */
export async function waitForListening(gateway: GatewayProcess, timeoutMs: number, signal: AbortSignal): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    signal.throwIfAborted();
    for (const line of gateway.lines) {
      const port = /^out\| gateway listening on \S+:(\d+) \(pid \d+\)/.exec(line)?.[1];
      if (port !== undefined) return Number(port);
    }
    if (gateway.hasExited()) throw new DemoFailure(`the gateway exited before it listened (exit ${await gateway.exited})`);
    await sleep(50, undefined, { signal });
  }
  throw new DemoFailure(`the gateway printed no "gateway listening on …" line within ${timeoutMs / 1000} s`);
}

/** SIGTERM, then waits; SIGKILL if it has not exited after `graceMs`. */
export async function stopGateway(gateway: GatewayProcess, graceMs: number): Promise<{ exit: number | string; killed: boolean }> {
  if (!gateway.hasExited()) gateway.child.kill('SIGTERM');
  const waiting = new AbortController();
  const timer = sleep(graceMs, 'timeout' as const, { signal: waiting.signal }).catch(() => 'exited' as const);
  const first = await Promise.race([gateway.exited, timer]);
  waiting.abort(); // no timer left behind to hold the process open
  if (first !== 'timeout') return { exit: await gateway.exited, killed: false };
  gateway.child.kill('SIGKILL');
  return { exit: await gateway.exited, killed: true };
}

export type IrisRun = { readonly code: number; readonly stdout: string; readonly stderr: string };

export function runIris(irisBin: string, args: readonly string[], env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<IrisRun> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [irisBin, ...args], { env, signal, timeout: 15_000 }, (error, stdout, stderr) => {
      if (signal.aborted) return reject(signal.reason as Error);
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
