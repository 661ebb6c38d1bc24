// The servers under test run as child processes, so their CPU time can be read from
// /proc/<pid>/stat around each phase and their memory from /proc/<pid>/status. This module starts
// them, waits for their "listening" line, reads those files, and stops them.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export type Server = {
  readonly name: string;
  readonly pid: number;
  readonly origin: string;
  /** The last output lines, for error messages. */
  output(): string;
  stop(graceMs?: number): Promise<void>;
};

const TAIL_CHARS = 4_000;

export function clockTicksPerSecond(): number {
  try {
    const value = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isInteger(value) && value > 0 ? value : 100;
  } catch {
    return 100;
  }
}

/** utime + stime of a process, in clock ticks. */
export function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; fields 14 and 15 count from after its ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** Resident set size in kB (VmRSS), or undefined once the process is gone. */
export function rssKb(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/**
 * Starts `node <argv>` and resolves once a stdout line matches `ready` (its first group is the
 * port). Rejects with the child's output if it exits or stays silent for `timeoutMs`.
 */
export function startServer(name: string, argv: readonly string[], env: NodeJS.ProcessEnv, ready: RegExp, timeoutMs = 20_000): Promise<Server> {
  // stdin stays an open pipe: the bench's own helpers exit when it closes (this process died).
  const child = spawn(process.execPath, argv, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-TAIL_CHARS);
  };
  child.stderr.on('data', keep);
  const server: Omit<Server, 'origin'> = {
    name,
    pid: child.pid ?? -1,
    output: () => tail.trim(),
    async stop(graceMs = 20_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited(child);
      clearTimeout(timer);
    },
  };
  return new Promise((resolve, reject) => {
    let lines = '';
    let listening = false;
    const timer = setTimeout(() => {
      void server.stop(1_000);
      reject(new Error(`${name} did not start within ${timeoutMs / 1000} s:\n${server.output()}`));
    }, timeoutMs);
    const onExit = (code: number | null, signal: string | null) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${signal ?? `code ${code}`}) before listening:\n${server.output()}`));
    };
    child.once('exit', onExit);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`${name} could not be started: ${err.message}`));
    });
    child.stdout.on('data', (chunk: Buffer) => {
      keep(chunk);
      if (listening) return;
      lines += chunk.toString('utf8');
      const port = ready.exec(lines)?.[1];
      if (port === undefined) return;
      listening = true;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve({ ...server, origin: `http://127.0.0.1:${port}` });
    });
  });
}

/** A helper process that is not a server (no ready line). */
export function startHelper(argv: readonly string[]): { pid: number; stop(): Promise<void> } {
  const child = spawn(process.execPath, argv, { stdio: ['pipe', 'ignore', 'inherit'] });
  return {
    pid: child.pid ?? -1,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited(child);
      clearTimeout(timer);
    },
  };
}
