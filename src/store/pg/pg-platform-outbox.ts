// The platform outbox on PostgreSQL (platform-types.ts says what each method promises), shared by
// every process: a row being sent is held by one worker under a lease. A chat's messages still go
// out in order across processes: only the oldest unsent message of a chat is due, and none while
// an older one of that chat is `sending` anywhere.
import type { NewOutboxMessage, PlatformStore } from '../platform-types.js';
import { toOutbox, type OutboxRow } from '../platform-state.js';
import type { PgContext } from './pg-context.js';
import { inTransaction, type Queryable } from './pg-pool.js';
import { mayRecoverOutbox, type Reclaimer } from './pg-reclaim.js';
import { notifySql } from './pg-wakeups.js';
import { parseWorkerId } from './pg-worker-id.js';

type OutboxMethods = Pick<
  PlatformStore,
  'enqueue' | 'claimDueOutbox' | 'markSent' | 'scheduleRetry' | 'markFailed' | 'getOutbox' | 'recoverOutbox' | 'nextOutboxAttempt' | 'outboxDepth' | 'outboxFailedSince'
>;

type OutboxRowOnPg = OutboxRow & { worker: string | null; lease_until: number | null };

const FIND_ORIGIN = 'SELECT id FROM platform_outbox WHERE origin = $1 AND part = $2';
const INSERT = `INSERT INTO platform_outbox (platform, chat_id, thread_id, text, origin, part, state, next_attempt_at, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, 'queued', $7, $7, $7)`;

/**
 * Adds `messages` (due at `at`), each (origin, part) once: looked up first, so a repeat takes no
 * id from the sequence; a concurrent insert of the same one is caught by the unique index.
 * Runs on the caller's transaction; the caller wakes the drains.
 */
export async function insertOutbox(db: Queryable, messages: readonly NewOutboxMessage[], at: number): Promise<number[]> {
  const ids: number[] = [];
  for (const m of messages) {
    const values = [m.platform, m.chatId, m.threadId, m.text, m.origin, m.part, at];
    if (m.origin === null) {
      ids.push((await db.query<{ id: number }>(`${INSERT} RETURNING id`, values)).rows[0]!.id);
      continue;
    }
    const found = (await db.query<{ id: number }>(FIND_ORIGIN, [m.origin, m.part])).rows[0];
    if (found) {
      ids.push(found.id);
      continue;
    }
    const inserted = (await db.query<{ id: number }>(`${INSERT} ON CONFLICT (origin, part) WHERE origin IS NOT NULL DO NOTHING RETURNING id`, values)).rows[0];
    ids.push(inserted?.id ?? (await db.query<{ id: number }>(FIND_ORIGIN, [m.origin, m.part])).rows[0]!.id);
  }
  return ids;
}

// Due: queued and its time has come, or sending under a lease that lapsed (its worker died
// mid-send: sent again, at least once). Either way the head of its chat. SKIP LOCKED: a row
// another process is claiming right now is left to it.
// claimed_by is kept when a row goes back to queued (a retry, a recovery): a row claimed again
// comes out with tried_before, for a sender that looks before posting again (Slack).
const CLAIM = `WITH picked AS (
    SELECT id, claimed_by IS NOT NULL AS tried_before FROM platform_outbox AS o
    WHERE platform = $1
      AND ((state = 'queued' AND next_attempt_at <= $2) OR (state = 'sending' AND (lease_until IS NULL OR lease_until < $7)))
      AND NOT EXISTS (
        SELECT 1 FROM platform_outbox AS earlier
        WHERE earlier.platform = o.platform AND earlier.chat_id = o.chat_id AND earlier.state IN ('queued', 'sending') AND earlier.id < o.id)
    ORDER BY id LIMIT $3
    FOR UPDATE SKIP LOCKED)
  UPDATE platform_outbox AS t SET state = 'sending', claimed_by = $4, worker = $5, lease_until = $6, updated_at = $7
  FROM picked WHERE t.id = picked.id
  RETURNING t.*, picked.tried_before`;

/** The row is `sending` and held by the worker in parameter `$n`. */
const heldBy = (n: number): string => `state = 'sending' AND worker = $${n}`;

export function createPgOutbox(ctx: PgContext): OutboxMethods {
  const { pool, guarded, now } = ctx;
  const self = parseWorkerId(ctx.worker)!;
  const wake = notifySql('outbox', ctx.schema);
  const run = (sql: string, values: unknown[]) => guarded(async () => void (await pool.query(sql, values)));

  return {
    enqueue: (messages) =>
      guarded(() =>
        inTransaction(pool, async (client) => {
          const ids = await insertOutbox(client, messages, now());
          if (messages.length > 0) await client.query(wake);
          return ids;
        }),
      ),
    claimDueOutbox: (platform, at, limit, claimer = process.pid) =>
      guarded(async () => {
        const stamp = now();
        const result = await pool.query<OutboxRowOnPg>(CLAIM, [platform, at, limit, claimer, ctx.worker, stamp + ctx.leaseMs, stamp]);
        return result.rows.sort((a, b) => a.id - b.id).map(toOutbox);
      }),
    // Each only while this worker holds the row (it claimed it, and the lease has not passed to
    // another worker that took it over): a late write of a worker whose lease lapsed must not undo
    // another's send (a `sent` row put back to `queued` is sent twice), as the inbox's writes.
    markSent: (id, sentMessageId) =>
      run(`UPDATE platform_outbox SET state = 'sent', attempts = attempts + 1, sent_message_id = $1, last_error = NULL, updated_at = $2 WHERE id = $3 AND ${heldBy(4)}`, [
        sentMessageId,
        now(),
        id,
        ctx.worker,
      ]),
    scheduleRetry: (id, nextAttemptAt, error) =>
      run(
        `UPDATE platform_outbox SET state = 'queued', attempts = attempts + 1, next_attempt_at = $1, last_error = $2, worker = NULL, lease_until = NULL, updated_at = $3
         WHERE id = $4 AND ${heldBy(5)}`,
        [nextAttemptAt, error, now(), id, ctx.worker],
      ),
    markFailed: (id, error) =>
      run(
        `UPDATE platform_outbox SET state = 'failed', attempts = attempts + 1, last_error = $1, worker = NULL, lease_until = NULL, updated_at = $2 WHERE id = $3 AND ${heldBy(4)}`,
        [error, now(), id, ctx.worker],
      ),
    getOutbox: (id) =>
      guarded(async () => {
        const row = (await pool.query<OutboxRowOnPg>('SELECT * FROM platform_outbox WHERE id = $1', [id])).rows[0];
        return row && toOutbox(row);
      }),
    recoverOutbox: (alive = () => false) =>
      guarded(() =>
        inTransaction(pool, async (client) => {
          const stamp = now();
          const by: Reclaimer = { worker: ctx.worker, self, now: stamp, isAlive: alive };
          // Rows locked elsewhere are being claimed or renewed right now: not abandoned.
          const held = await client.query<{ id: number; worker: string | null; lease_until: number | null; claimed_by: number | null }>(
            "SELECT id, worker, lease_until, claimed_by FROM platform_outbox WHERE state = 'sending' FOR UPDATE SKIP LOCKED",
          );
          const ids = held.rows.filter((row) => mayRecoverOutbox({ worker: row.worker, leaseUntil: row.lease_until, claimedBy: row.claimed_by }, by)).map((row) => row.id);
          if (ids.length === 0) return 0;
          const result = await client.query(
            // claimed_by stays: the next claim knows a try was cut off (it may have gone out).
            "UPDATE platform_outbox SET state = 'queued', worker = NULL, lease_until = NULL, updated_at = $1 WHERE id = ANY($2::bigint[]) AND state = 'sending'",
            [stamp, ids],
          );
          await client.query(wake);
          return result.rowCount ?? 0;
        }),
      ),
    nextOutboxAttempt: () =>
      guarded(async () => (await pool.query<{ at: number | null }>("SELECT min(next_attempt_at) AS at FROM platform_outbox WHERE state = 'queued'")).rows[0]!.at ?? undefined),
    outboxDepth: () => guarded(async () => (await pool.query<{ n: number }>("SELECT count(*) AS n FROM platform_outbox WHERE state IN ('queued', 'sending')")).rows[0]!.n),
    outboxFailedSince: (since) =>
      guarded(async () => (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM platform_outbox WHERE state = 'failed' AND updated_at >= $1", [since])).rows[0]!.n),
  };
}
