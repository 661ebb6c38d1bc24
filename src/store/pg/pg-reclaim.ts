// Which claimed rows a process may take back from their holder: the decisions behind
// recoverInbound and recoverOutbox on PostgreSQL, kept apart from the SQL so that every case is
// testable without a database. Another live worker's rows are never taken: only a lapsed lease
// (its host stopped renewing), a dead process on this host, or what this process holds itself.
import { heldByDeadLocalProcess, type WorkerId } from './pg-worker-id.js';

/** A claimed row as the recovery sees it. */
export type HeldRow = {
  /** `host:pid:start` of the claiming store; null for a row no PostgreSQL worker claimed (copied from SQLite). */
  readonly worker: string | null;
  /** Epoch ms; null when no lease was ever set. */
  readonly leaseUntil: number | null;
};

export type Reclaimer = {
  /** This process: its formatted id and its parts. */
  readonly worker: string;
  readonly self: WorkerId;
  readonly now: number;
  readonly isAlive: (pid: number) => boolean;
};

/** Nobody renews it any more (or nobody ever held it under a lease). */
export function leaseLapsed(row: HeldRow, now: number): boolean {
  return row.leaseUntil === null || row.leaseUntil < now;
}

/**
 * A running chat message may go back to `queued`: its lease lapsed, its holder is a dead process
 * on this host, or this process holds it (recoverInbound runs when this process starts its
 * conversations, so nothing it holds is running: as on SQLite, the caller's own runs count as over).
 */
export function mayRecoverInbound(row: HeldRow, by: Reclaimer): boolean {
  if (leaseLapsed(row, by.now) || row.worker === null) return true;
  return row.worker === by.worker || heldByDeadLocalProcess(row.worker, by.self, by.isAlive);
}

/**
 * A `sending` outbox row may go back to `queued`: its lease lapsed, its holder is a dead process on
 * this host, or this process claimed it for a claimer pid (`claimDueOutbox`'s `claimer`) that is
 * not alive, as SQLite decides on the claimer alone. The drain runs this every few seconds, so a
 * row this process is sending now (its claimer alive) must stay.
 */
export function mayRecoverOutbox(row: HeldRow & { readonly claimedBy: number | null }, by: Reclaimer): boolean {
  if (leaseLapsed(row, by.now) || row.worker === null) return true;
  if (row.worker === by.worker) return row.claimedBy === null || !by.isAlive(row.claimedBy);
  return heldByDeadLocalProcess(row.worker, by.self, by.isAlive);
}
