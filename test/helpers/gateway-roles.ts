// Gateway processes by role (`iris gateway run --role listener|worker`) for the scale-out tests:
// each with a home of its own, as on separate hosts, sharing one store.
import { spawn, type ChildProcess } from 'node:child_process';
import { cleanEnv, IRIS_BIN } from './iris.js';

export type RoleProcess = {
  readonly role: 'listener' | 'worker' | 'all';
  readonly home: string;
  readonly child: ChildProcess;
  /** The listener's URL (undefined for a worker). */
  readonly url: string | undefined;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
};

const READY = {
  listener: /gateway listening on \S+:(\d+) \(pid \d+\)/,
  all: /gateway listening on \S+:(\d+) \(pid \d+\)/,
  worker: /gateway worker running \(pid \d+\)/,
} as const;

/** Starts one role process and resolves once it says it is ready (rejects with its output otherwise). */
export function startRole(role: RoleProcess['role'], home: string, env: Record<string, string>, timeoutMs = 20_000): Promise<RoleProcess> {
  const child = spawn(process.execPath, [IRIS_BIN, 'gateway', 'run', '--role', role], { env: cleanEnv({ IRIS_HOME: home, ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${role} did not start in ${timeoutMs} ms:\n${text}`));
    }, timeoutMs);
    const onData = () => {
      const match = READY[role].exec(text);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      resolve({
        role,
        home,
        child,
        url: match[1] === undefined ? undefined : `http://127.0.0.1:${match[1]}`,
        output: () => text,
        kill: async (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          await exited;
        },
      });
    };
    child.stdout.on('data', onData);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${role} exited before it was ready:\n${text}`));
    });
  });
}
