// Claiming the next webhook run on PostgreSQL, when several workers (of several processes) claim
// from one inbox. The oldest runnable event is locked with FOR UPDATE SKIP LOCKED, so two workers
// never get the same event and never wait on each other's rows. Runnable: accepted, its wait over,
// its lane free — or running under a lease that lapsed (its worker died), which counts the attempt.
//
// A lane must stay one-at-a-time under concurrency, which a snapshot alone cannot promise: two
// claimers may each see the other's event still accepted, or an event committed after a newer one
// of its lane. So a lane's candidate is re-checked under a transaction-scoped advisory lock on the
// lane, with a fresh snapshot that sees every committed claim. Each candidate is examined in its
// own transaction, holding at most one lane lock, so lane locks never deadlock; in the common case
// (the first candidate is claimed) that is one transaction.
import type { WebhookEventRecord } from '../webhook-types.js';
import { toRecord, type EventRow } from '../webhook-inbox.js';
import type { PgContext } from './pg-context.js';
import { inTransaction, type PgClient } from './pg-pool.js';

/** A row of webhook_events on PostgreSQL: the shared row plus its lease. */
export type PgEventRow = EventRow & { worker: string | null; lease_until: number | null };

// No older event of the lane still on its way, and no other event of it in flight (running or
// awaiting delivery): on SQLite the first implies the second, here ids can commit out of order.
const LANE_FREE = `(e.lane IS NULL OR NOT EXISTS (
    SELECT 1 FROM webhook_events o WHERE o.lane = e.lane AND o.id <> e.id AND o.state IN ('accepted', 'running', 'done')
      AND (o.id < e.id OR o.state <> 'accepted')))`;

const CANDIDATE_SQL = `
  SELECT * FROM webhook_events e
  WHERE ((e.state = 'accepted' AND (e.run_after IS NULL OR e.run_after <= $1) AND ${LANE_FREE})
      OR (e.state = 'running' AND (e.lease_until IS NULL OR e.lease_until < $1)))
    AND NOT (e.id = ANY($2::bigint[]))
  ORDER BY e.id LIMIT 1
  FOR UPDATE SKIP LOCKED`;

const LANE_LOCK_SQL = "SELECT pg_advisory_xact_lock(hashtextextended('iris:lane:' || current_schema() || ':' || $1, 0))";
const LANE_STILL_FREE_SQL = `SELECT ${LANE_FREE} AS free FROM webhook_events e WHERE e.id = $1`;

const NEWER_PUSH_SQL =
  "SELECT id FROM webhook_events WHERE lane = $1 AND id > $2 AND state = 'accepted' AND run_after IS NOT NULL ORDER BY id DESC LIMIT 1";

type Examined =
  | { readonly kind: 'none' }
  | { readonly kind: 'claimed'; readonly row: PgEventRow }
  /** Failed as poison or skipped as superseded: look again. */
  | { readonly kind: 'settled' }
  /** Its lane turned out busy: look again without it. */
  | { readonly kind: 'blocked'; readonly id: number };

async function examineNext(client: PgClient, ctx: PgContext, maxRunAttempts: number, passedOver: readonly number[]): Promise<Examined> {
  const at = ctx.now();
  const found = await client.query<PgEventRow>(CANDIDATE_SQL, [at, passedOver]);
  const row = found.rows[0];
  if (!row) return { kind: 'none' };
  if (row.lane !== null) {
    await client.query(LANE_LOCK_SQL, [row.lane]);
    if (row.state === 'accepted') {
      const check = await client.query<{ free: boolean }>(LANE_STILL_FREE_SQL, [row.id]);
      if (check.rows[0]?.free !== true) return { kind: 'blocked', id: row.id };
    }
  }
  if (row.run_attempts >= maxRunAttempts) {
    // A poison event (one whose run keeps killing its worker) must not block the queue.
    await client.query(
      "UPDATE webhook_events SET state = 'failed', error = $1, worker = NULL, lease_until = NULL, updated_at = $2 WHERE id = $3",
      [`gave up after ${row.run_attempts} interrupted runs`, at, row.id],
    );
    return { kind: 'settled' };
  }
  if (row.lane !== null && row.run_after !== null) {
    // A push overtaken by a newer push to the same PR: only the newest head is reviewed.
    const newer = await client.query<{ id: number }>(NEWER_PUSH_SQL, [row.lane, row.id]);
    if (newer.rows[0]) {
      await client.query(
        "UPDATE webhook_events SET state = 'delivered', skipped = $1, output = NULL, worker = NULL, lease_until = NULL, updated_at = $2 WHERE id = $3",
        [`superseded by a newer push (event ${newer.rows[0].id})`, at, row.id],
      );
      return { kind: 'settled' };
    }
  }
  const claimed = await client.query<PgEventRow>(
    `UPDATE webhook_events SET state = 'running', run_attempts = run_attempts + 1, worker = $1, lease_until = $2, updated_at = $3
     WHERE id = $4 RETURNING *`,
    [ctx.worker, at + ctx.leaseMs, at, row.id],
  );
  return { kind: 'claimed', row: claimed.rows[0]! };
}

/** The inbox's `claimNextRun`. */
export function createPgClaimNextRun(ctx: PgContext): (maxRunAttempts: number) => Promise<WebhookEventRecord | undefined> {
  return (maxRunAttempts) =>
    ctx.guarded(async () => {
      const passedOver: number[] = [];
      for (;;) {
        const examined = await inTransaction(ctx.pool, (client) => examineNext(client, ctx, maxRunAttempts, passedOver));
        if (examined.kind === 'none') return undefined;
        if (examined.kind === 'claimed') return toRecord(examined.row);
        if (examined.kind === 'blocked') passedOver.push(examined.id);
      }
    });
}
