// Whether a worker may take over a row another worker claimed (a run to put back, a delivery to
// finish): only when nobody alive holds it. A pure decision, so that every case has a test; the
// process check is passed in.
import { heldByDeadLocalProcess, parseWorkerId } from './pg-worker-id.js';

export type LeaseHold = {
  /** Who claimed the row (`host:pid:start`), or null for nobody. */
  readonly worker: string | null;
  /** Epoch ms; null when the row was never leased (e.g. copied over from SQLite). */
  readonly leaseUntil: number | null;
};

/**
 * True when the row is free for `self`: unheld, its lease lapsed (its holder's host died or
 * stopped renewing), held by `self` already, or held by a dead process on this host (or an
 * earlier process with this pid), which can be known at once instead of waiting out the lease.
 */
export function mayTakeOver(hold: LeaseHold, now: number, self: string, isAlive: (pid: number) => boolean): boolean {
  if (hold.worker === null || hold.leaseUntil === null || hold.leaseUntil < now) return true;
  if (hold.worker === self) return true;
  const selfId = parseWorkerId(self);
  return selfId !== undefined && heldByDeadLocalProcess(hold.worker, selfId, isAlive);
}

/** Whether a process with this pid exists (on this host); EPERM means it does, just not ours. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
