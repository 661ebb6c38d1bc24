// The webhook inbox on PostgreSQL (see ../webhook-types.ts for the life of an event), shared by
// every gateway process on the database. The states, rows and messages are SQLite's
// (../webhook-inbox.ts); what sharing adds is who holds an event. A claimed run and its delivery
// carry the worker's id and a lease (renewed by pg-leases.ts while the worker lives): the accept
// path is in pg-webhook-accept.ts, the claim in pg-webhook-claim.ts, and taking over what a dead
// worker held is decided by pg-takeover.ts.
//
// Where one process's rules had to become several's: recoverInterrupted and pendingDeliveries take
// only what nobody alive holds (and what this worker holds itself: at a start it holds nothing, so
// this is SQLite's "every one" for a single gateway); releaseRun puts back only this worker's own
// run; and a released or recovered run wakes the other processes' workers.
import { toRecord } from '../webhook-inbox.js';
import { redeliverRefusal, rerunRefusal, stateCondition } from '../webhook-operator.js';
import type { WebhookInbox, WebhookPendingState } from '../webhook-types.js';
import type { PgContext } from './pg-context.js';
import { inTransaction } from './pg-pool.js';
import { isProcessAlive, mayTakeOver } from './pg-takeover.js';
import { notifySql } from './pg-wakeups.js';
import { parseWorkerId } from './pg-worker-id.js';
import { createPgAcceptQueue } from './pg-webhook-accept.js';
import { createPgClaimNextRun, type PgEventRow } from './pg-webhook-claim.js';

/** `isAlive` decides whether a local process is still there (injectable for tests). */
export function createPgWebhookInbox(ctx: PgContext, isAlive: (pid: number) => boolean = isProcessAlive): WebhookInbox {
  const { pool, now, guarded } = ctx;
  const run = async (sql: string, values: unknown[]): Promise<number> => (await pool.query(sql, values)).rowCount ?? 0;
  const free = (row: PgEventRow, at: number) => mayTakeOver({ worker: row.worker, leaseUntil: row.lease_until }, at, ctx.worker, isAlive);

  return {
    isDuplicate: (route, deliveryId, since) =>
      guarded(async () => (await run('SELECT 1 FROM webhook_dedup WHERE route = $1 AND delivery_id = $2 AND seen_at >= $3', [route, deliveryId, since])) > 0),
    accept: createPgAcceptQueue(ctx),
    claimNextRun: createPgClaimNextRun(ctx),
    setSession: (id, sessionId) => guarded(async () => void (await run('UPDATE webhook_events SET session_id = $1, updated_at = $2 WHERE id = $3', [sessionId, now(), id]))),
    finishRun: (id, output, deliverAs) =>
      guarded(async () => {
        const at = now();
        // The worker that ran it delivers it, under the same lease; a run whose lease lapsed (another
        // worker took the event over meanwhile) is not this worker's to record any more.
        const changed = await run(
          `UPDATE webhook_events SET state = 'done', output = $1, deliver_as = $2, error = NULL, lease_until = $4, updated_at = $5
           WHERE id = $6 AND state = 'running' AND worker = $3`,
          [output, deliverAs ?? null, ctx.worker, at + ctx.leaseMs, at, id],
        );
        return changed === 1;
      }),
    skip: (id, reason) =>
      guarded(async () => {
        await run(
          `UPDATE webhook_events SET state = 'delivered', skipped = $1, output = NULL, worker = NULL, lease_until = NULL, updated_at = $2
           WHERE id = $3 AND (state = 'accepted' OR (state = 'running' AND worker = $4))`,
          [reason, now(), id, ctx.worker],
        );
      }),
    nextRunAfter: (after) =>
      guarded(async () => {
        // Also the moment another worker's run becomes claimable should its lease lapse (the lease
        // is renewed while that worker lives, so this wakes a worker once a lease period at most):
        // nothing else wakes the workers of a quiet inbox when a host dies mid-run.
        const result = await pool.query<{ at: number | null }>(
          `SELECT least(
             (SELECT min(run_after) FROM webhook_events WHERE state = 'accepted' AND run_after > $1),
             (SELECT min(lease_until) + 1 FROM webhook_events WHERE state = 'running' AND lease_until >= $1 AND worker IS DISTINCT FROM $2)) AS at`,
          [after, ctx.worker],
        );
        return result.rows[0]?.at ?? undefined;
      }),
    fail: (id, reason) =>
      guarded(
        async () =>
          // A run that another worker has taken over (this one's lease lapsed) is not this one's to fail.
          void (await run(
            "UPDATE webhook_events SET state = 'failed', error = $1, worker = NULL, lease_until = NULL, updated_at = $2 WHERE id = $3 AND (state <> 'running' OR worker = $4)",
            [reason, now(), id, ctx.worker],
          )),
      ),
    releaseRun: (id) =>
      guarded(() =>
        inTransaction(pool, async (client) => {
          // Only this worker's own run: one taken over by another worker meanwhile is theirs now.
          const released = await client.query(
            `UPDATE webhook_events SET state = 'accepted', run_attempts = greatest(run_attempts - 1, 0), worker = NULL, lease_until = NULL, updated_at = $1
             WHERE id = $2 AND state = 'running' AND worker = $3`,
            [now(), id, ctx.worker],
          );
          // A worker stopping hands its runs to the others at once, not at the next arrival.
          if ((released.rowCount ?? 0) > 0) await client.query(notifySql('inbox', ctx.schema));
        }),
      ),
    recoverInterrupted: () =>
      guarded(() =>
        inTransaction(pool, async (client) => {
          // Never another live worker's run: only those nobody alive holds (see pg-takeover.ts).
          const at = now();
          const running = await client.query<PgEventRow>("SELECT * FROM webhook_events WHERE state = 'running' ORDER BY id FOR UPDATE SKIP LOCKED");
          const ids = running.rows.filter((row) => free(row, at)).map((row) => row.id);
          if (ids.length === 0) return 0;
          const recovered = await client.query("UPDATE webhook_events SET state = 'accepted', worker = NULL, lease_until = NULL, updated_at = $1 WHERE id = ANY($2::bigint[])", [
            at,
            ids,
          ]);
          await client.query(notifySql('inbox', ctx.schema));
          return recovered.rowCount ?? 0;
        }),
      ),
    pendingDeliveries: (options = {}) =>
      guarded(() =>
        inTransaction(pool, async (client) => {
          // Claimed for this worker in the same transaction, so two workers starting at once never
          // both deliver one event: rows another is claiming are skipped, rows it claimed are its.
          const at = now();
          const done = await client.query<PgEventRow>("SELECT * FROM webhook_events WHERE state = 'done' ORDER BY id FOR UPDATE SKIP LOCKED");
          const mine = done.rows.filter((row) => free(row, at) && !(options.othersOnly && row.worker === ctx.worker && row.lease_until !== null && row.lease_until >= at));
          if (mine.length > 0) {
            await client.query('UPDATE webhook_events SET worker = $1, lease_until = $2 WHERE id = ANY($3::bigint[])', [
              ctx.worker,
              at + ctx.leaseMs,
              mine.map((row) => row.id),
            ]);
          }
          // A delivery's gh pid is a process on the host that started it: one left by another
          // host is nothing to reap here (a pid here may be a live gh of this host's own).
          const selfHost = parseWorkerId(ctx.worker)?.host;
          const foreign = mine.filter((row) => row.delivery_pid !== null && row.worker !== null && parseWorkerId(row.worker)?.host !== selfHost);
          if (foreign.length > 0) await client.query('UPDATE webhook_events SET delivery_pid = NULL WHERE id = ANY($1::bigint[])', [foreign.map((row) => row.id)]);
          const foreignIds = new Set(foreign.map((row) => row.id));
          return mine.map((row) => toRecord(foreignIds.has(row.id) ? { ...row, delivery_pid: null } : row));
        }),
      ),
    markDelivering: (id) =>
      guarded(async () => {
        const at = now();
        await run("UPDATE webhook_events SET delivery_started_at = $1, delivery_pid = NULL, updated_at = $1 WHERE id = $2 AND state = 'done'", [at, id]);
      }),
    setDeliveryPid: (id, pid) => guarded(async () => void (await run("UPDATE webhook_events SET delivery_pid = $1 WHERE id = $2 AND state = 'done'", [pid, id]))),
    markDelivered: (id, attempts) =>
      guarded(async () => {
        await run(
          `UPDATE webhook_events SET state = 'delivered', delivery_attempts = $1, error = NULL, worker = NULL, lease_until = NULL, updated_at = $2
           WHERE id = $3 AND state = 'done'`,
          [attempts, now(), id],
        );
      }),
    markDeliveryFailed: (id, attempts, reason) =>
      guarded(async () => {
        await run(
          `UPDATE webhook_events SET state = 'failed', delivery_attempts = $1, error = $2, worker = NULL, lease_until = NULL, updated_at = $3
           WHERE id = $4 AND state = 'done'`,
          [attempts, reason, now(), id],
        );
      }),
    get: (id) =>
      guarded(async () => {
        const row = (await pool.query<PgEventRow>('SELECT * FROM webhook_events WHERE id = $1', [id])).rows[0];
        return row && toRecord(row);
      }),
    list: (options = {}) =>
      guarded(async () => {
        // LIMIT NULL is no limit.
        const values: unknown[] = [options.limit ?? null];
        const conditions: string[] = [];
        if (options.route !== undefined) conditions.push(`route = $${values.push(options.route)}`);
        if (options.state !== undefined) conditions.push(stateCondition(options.state));
        const where = conditions.length === 0 ? '' : `WHERE ${conditions.map((c) => `(${c})`).join(' AND ')}`;
        const result = await pool.query<PgEventRow>(`SELECT * FROM webhook_events ${where} ORDER BY id DESC LIMIT $1`, values);
        return result.rows.map(toRecord);
      }),
    requeueDelivery: (id) =>
      guarded(() =>
        inTransaction(pool, async (client) => {
          const row = (await client.query<PgEventRow>('SELECT * FROM webhook_events WHERE id = $1 FOR UPDATE', [id])).rows[0];
          const refusal = redeliverRefusal(row && toRecord(row));
          if (refusal !== undefined) return { ok: false, reason: refusal } as const;
          // Held by nobody: the first worker to look for deliveries no live worker holds takes it
          // (worker-pool.ts adoptDeliveries), as it would a dead worker's.
          const requeued = await client.query<PgEventRow>(
            `UPDATE webhook_events SET state = 'done', delivery_started_at = NULL, delivery_pid = NULL, error = NULL, worker = NULL, lease_until = NULL, updated_at = $1
             WHERE id = $2 RETURNING *`,
            [now(), id],
          );
          return { ok: true, record: toRecord(requeued.rows[0]!) } as const;
        }),
      ),
    rerun: (id, deliveryId) =>
      guarded(() =>
        inTransaction(pool, async (client) => {
          const row = (await client.query<PgEventRow>('SELECT * FROM webhook_events WHERE id = $1 FOR UPDATE', [id])).rows[0];
          const refusal = rerunRefusal(row && toRecord(row));
          if (refusal !== undefined) return { ok: false, reason: refusal } as const;
          const at = now();
          const inserted = await client.query<{ id: number }>(
            `INSERT INTO webhook_events (route, delivery_id, event, payload, route_snapshot, state, received_at, updated_at, lane, run_after)
             SELECT route, $1, event, payload, route_snapshot, 'accepted', $2, $2, lane, NULL FROM webhook_events WHERE id = $3 RETURNING id`,
            [deliveryId, at, id],
          );
          // Every process's workers hear of it, as of an accepted event.
          await client.query(notifySql('inbox', ctx.schema));
          return { ok: true, id: Number(inserted.rows[0]!.id) } as const;
        }),
      ),
    pruneDedup: (before) => guarded(() => run('DELETE FROM webhook_dedup WHERE seen_at < $1', [before])),
    pruneFinished: (before) => guarded(() => run("DELETE FROM webhook_events WHERE state IN ('delivered', 'failed') AND updated_at < $1", [before])),
    depth: () =>
      guarded(async () => {
        const result = await pool.query<{ state: string; delivering: boolean; n: number }>(
          `SELECT state, delivery_started_at IS NOT NULL AND state = 'done' AS delivering, count(*) AS n
           FROM webhook_events WHERE state IN ('accepted', 'running', 'done') GROUP BY 1, 2`,
        );
        const counts: Record<WebhookPendingState, number> = { accepted: 0, running: 0, done: 0, delivering: 0 };
        // `delivering` is stored as `done` with a delivery start (see migration 3).
        for (const row of result.rows) counts[row.delivering ? 'delivering' : (row.state as WebhookPendingState)] += row.n;
        return counts;
      }),
    failedSince: (since) =>
      guarded(async () => (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM webhook_events WHERE state = 'failed' AND updated_at >= $1", [since])).rows[0]!.n),
  };
}
