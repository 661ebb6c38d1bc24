// The doctor's probes of this machine: the GitHub CLI (two short runs through gh-binary's runGh —
// execFile, no shell, a timeout) and whether the webhook address can be bound (listen, then close).
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import type { Env } from '../config/home.js';
import { buildGhEnv, ghBinary, runGh } from '../delivery/gh-binary.js';
import { GH_TIMEOUT_MS, type GhFacts } from './checks/gh.js';
import type { BindResult } from './checks/webhook.js';

export async function readGhFacts(env: Env): Promise<GhFacts> {
  const bin = ghBinary(env);
  const run = (args: string[]) => runGh({ bin, args, stdin: '', env: buildGhEnv(env), timeoutMs: GH_TIMEOUT_MS });
  const version = await run(['--version']);
  if (version.kind !== 'exited' || version.exitCode !== 0) return { bin, version };
  return { bin, version, auth: await run(['auth', 'status']) };
}

export function tryBind(host: string, port: number): Promise<BindResult> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) => resolve({ ok: false, code: err.code ?? 'UNKNOWN', message: err.message }));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve({ ok: true })));
  });
}

/** One trial of bwrap with the namespaces the sandbox uses, around /bin/true (5 s at most). */
export function tryBwrap(bwrap: string): Promise<{ ok: true } | { ok: false; message: string }> {
  const args = ['--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net', '--die-with-parent', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', 'true'];
  return new Promise((resolve) => {
    execFile(bwrap, args, { timeout: 5_000 }, (error, _stdout, stderr) => {
      if (!error) return resolve({ ok: true });
      resolve({ ok: false, message: (stderr.trim().split('\n').pop() ?? '') || error.message });
    });
  });
}
