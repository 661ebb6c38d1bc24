// Who holds a lease: `host:pid:start`. The host and pid let a restarted process on the same host
// take back at once what its dead predecessor held (the pid is gone); the start time tells a new
// process that reuses an old pid apart from it. Elsewhere the lease runs out.
import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

export type WorkerId = { readonly host: string; readonly pid: number; readonly startedAt: number };

export function formatWorkerId(id: WorkerId): string {
  return `${id.host}:${id.pid}:${id.startedAt}`;
}

/** Undefined for a string that is not a worker id (written by something else). */
export function parseWorkerId(text: string): WorkerId | undefined {
  const match = /^(.+):(\d+):(\d+)$/.exec(text);
  if (!match) return undefined;
  return { host: match[1]!, pid: Number(match[2]), startedAt: Number(match[3]) };
}

/**
 * This process. The start is the process's own (not the store's opening), so every store a process
 * opens is the same worker: none of them mistakes another's claims for a dead predecessor's.
 */
export function thisWorker(startedAt: number = Math.round(performance.timeOrigin)): WorkerId {
  return { host: `${hostname()}${pidNamespaceSuffix()}`, pid: process.pid, startedAt };
}

/**
 * The process-id namespace, as part of the host: two containers with one host name (host network,
 * or a `hostname:` in compose) each have their own pid 1, and one must not take the other's pids
 * for its own dead ones. Empty where /proc does not tell.
 */
function pidNamespaceSuffix(): string {
  try {
    const match = /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'));
    return match ? `#${match[1]}` : '';
  } catch {
    return '';
  }
}

/**
 * Whether a row held by `holder` can be taken back before its lease runs out: it was held by a
 * process on this host that is gone (not `isAlive`), or by an earlier process with this pid.
 */
export function heldByDeadLocalProcess(holder: string, self: WorkerId, isAlive: (pid: number) => boolean): boolean {
  const id = parseWorkerId(holder);
  if (!id || id.host !== self.host) return false;
  if (id.pid === self.pid) return id.startedAt !== self.startedAt;
  return !isAlive(id.pid);
}
