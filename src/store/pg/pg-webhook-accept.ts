// Accepting webhook events on PostgreSQL, with group commit: the accepts that arrive while one
// batch's transaction is in flight are written together in the next one (one BEGIN/COMMIT per
// batch, whatever its size), and each caller hears back after its batch's commit. Alone, an event
// waits for nothing but its own transaction.
//
// Dedup is the webhook_dedup primary key, as on SQLite: an upsert that writes a new delivery, or
// one last seen before the caller's window, and leaves one seen within it alone (not returned: a
// duplicate). Two processes accepting one delivery at once are serialised by that key: the second
// waits for the first's commit, then finds the fresh record and hears `duplicate`.
import type { AcceptOutcome, NewWebhookEvent } from '../webhook-types.js';
import type { PgContext } from './pg-context.js';
import { inRetried, inRetriedTransaction, isPgUnreachable, type PgClient } from './pg-pool.js';
import { channelName, notifySql } from './pg-wakeups.js';

type PendingAccept = {
  readonly event: NewWebhookEvent;
  readonly dedupSince: number;
  readonly resolve: (outcome: AcceptOutcome) => void;
  readonly reject: (err: unknown) => void;
};

/** A transaction this large still commits in milliseconds; a longer queue waits for the next. */
const MAX_BATCH = 1_000;

// One statement per round for the whole batch, each row with its own window. The rows go in key
// order, so two batches that share deliveries lock them in the same order and never deadlock.
const REMEMBER_SQL = `
  WITH batch AS (SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[]) AS b(route, delivery_id, seen_at, since))
  INSERT INTO webhook_dedup AS d (route, delivery_id, seen_at)
  SELECT route, delivery_id, seen_at FROM batch ORDER BY route, delivery_id
  ON CONFLICT (route, delivery_id) DO UPDATE SET seen_at = excluded.seen_at
  WHERE d.seen_at < (SELECT b.since FROM batch b WHERE b.route = excluded.route AND b.delivery_id = excluded.delivery_id)
  RETURNING route, delivery_id`;

// Rows are numbered in batch order, so the ids (taken row by row) rise in that order.
const INSERT_SQL = `
  INSERT INTO webhook_events (route, delivery_id, event, payload, route_snapshot, state, received_at, updated_at, lane, run_after)
  SELECT route, delivery_id, event, payload, route_snapshot, 'accepted', received_at, received_at, lane, run_after
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[], $8::bigint[])
    WITH ORDINALITY AS e(route, delivery_id, event, payload, route_snapshot, received_at, lane, run_after, n)
  ORDER BY n
  RETURNING id`;

// The usual batch (no delivery twice in it) in one statement, so one round trip and one commit:
// remember the deliveries, insert the events whose delivery is new (or not deduplicated), and
// wake the workers when any was. The same rules as the two statements above; the statement is
// prepared once per connection.
const ACCEPT_ONE_ROUND_SQL = `
  WITH batch AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[], $8::bigint[], $9::boolean[], $10::bigint[])
      WITH ORDINALITY AS b(route, delivery_id, event, payload, route_snapshot, received_at, lane, run_after, dedup, since, n)
  ),
  remembered AS (
    INSERT INTO webhook_dedup AS d (route, delivery_id, seen_at)
    SELECT route, delivery_id, received_at FROM batch WHERE dedup ORDER BY route, delivery_id
    ON CONFLICT (route, delivery_id) DO UPDATE SET seen_at = excluded.seen_at
    WHERE d.seen_at < (SELECT b.since FROM batch b WHERE b.route = excluded.route AND b.delivery_id = excluded.delivery_id)
    RETURNING route, delivery_id
  ),
  inserted AS (
    INSERT INTO webhook_events (route, delivery_id, event, payload, route_snapshot, state, received_at, updated_at, lane, run_after)
    SELECT route, delivery_id, event, payload, route_snapshot, 'accepted', received_at, received_at, lane, run_after FROM batch b
    WHERE NOT b.dedup OR EXISTS (SELECT 1 FROM remembered r WHERE r.route = b.route AND r.delivery_id = b.delivery_id)
    ORDER BY n
    RETURNING id
  ),
  woken AS (SELECT pg_notify($11, '') FROM (SELECT 1 FROM inserted LIMIT 1) AS any_inserted)
  SELECT (SELECT array_agg(id ORDER BY id) FROM inserted) AS ids,
         (SELECT array_agg(route || chr(1) || delivery_id) FROM remembered) AS fresh,
         (SELECT count(*) FROM woken) AS woken`;

const dedupKey = (route: string, deliveryId: string): string => JSON.stringify([route, deliveryId]);

/** A batch in one statement; undefined when a delivery appears twice in it (the rounds path decides those). */
async function writeBatchInOneRound(pool: PgContext['pool'], batch: readonly PendingAccept[], schema: string | undefined): Promise<AcceptOutcome[] | undefined> {
  if (dedupRounds(batch.map((p) => p.event)).length > 1) return undefined;
  const events = batch.map((p) => p.event);
  const result = await pool.query<{ ids: number[] | null; fresh: string[] | null }>({
    name: 'iris_accept_batch',
    text: ACCEPT_ONE_ROUND_SQL,
    values: [
      events.map((e) => e.route),
      events.map((e) => e.deliveryId),
      events.map((e) => e.event),
      events.map((e) => e.payload),
      events.map((e) => e.routeSnapshot),
      events.map((e) => e.receivedAt),
      events.map((e) => e.lane ?? null),
      events.map((e) => e.runAfter ?? null),
      events.map((e) => e.deduplicate),
      batch.map((p) => p.dedupSince),
      channelName('inbox', schema),
    ],
  });
  const row = result.rows[0];
  const fresh = new Set(row?.fresh ?? []);
  // The ids were taken in batch order (ORDER BY n), so sorted they line up with the accepted events.
  const ids = (row?.ids ?? []).map(Number);
  let next = 0;
  return events.map((e): AcceptOutcome => (!e.deduplicate || fresh.has(`${e.route}\u0001${e.deliveryId}`) ? { status: 'accepted', id: ids[next++]! } : { status: 'duplicate' }));
}

/**
 * Which events of a batch go through dedup in which round: round k holds the k-th occurrence of
 * each delivery, so no upsert touches one key twice (PostgreSQL refuses that) and a delivery
 * repeated inside a batch is decided after its first occurrence, as one at a time would be.
 */
export function dedupRounds(events: readonly NewWebhookEvent[]): number[][] {
  const rounds: number[][] = [];
  const seen = new Map<string, number>();
  events.forEach((event, index) => {
    if (!event.deduplicate) return;
    const key = dedupKey(event.route, event.deliveryId);
    const round = seen.get(key) ?? 0;
    seen.set(key, round + 1);
    (rounds[round] ??= []).push(index);
  });
  return rounds;
}

async function writeBatch(client: PgClient, batch: readonly PendingAccept[], schema: string | undefined): Promise<AcceptOutcome[]> {
  const accepted = batch.map((p) => !p.event.deduplicate);
  for (const round of dedupRounds(batch.map((p) => p.event))) {
    const rows = round.map((i) => batch[i]!);
    const remembered = await client.query<{ route: string; delivery_id: string }>(REMEMBER_SQL, [
      rows.map((p) => p.event.route),
      rows.map((p) => p.event.deliveryId),
      rows.map((p) => p.event.receivedAt),
      rows.map((p) => p.dedupSince),
    ]);
    const fresh = new Set(remembered.rows.map((row) => dedupKey(row.route, row.delivery_id)));
    for (const i of round) accepted[i] = fresh.has(dedupKey(batch[i]!.event.route, batch[i]!.event.deliveryId));
  }
  const toInsert = batch.filter((_p, i) => accepted[i]).map((p) => p.event);
  const outcomes: AcceptOutcome[] = batch.map(() => ({ status: 'duplicate' }));
  if (toInsert.length === 0) return outcomes;
  const inserted = await client.query<{ id: number }>(INSERT_SQL, [
    toInsert.map((e) => e.route),
    toInsert.map((e) => e.deliveryId),
    toInsert.map((e) => e.event),
    toInsert.map((e) => e.payload),
    toInsert.map((e) => e.routeSnapshot),
    toInsert.map((e) => e.receivedAt),
    toInsert.map((e) => e.lane ?? null),
    toInsert.map((e) => e.runAfter ?? null),
  ]);
  // RETURNING promises no order; the ids were taken in batch order, so sorted they line up.
  const ids = inserted.rows.map((row) => row.id).sort((a, b) => a - b);
  let next = 0;
  batch.forEach((_p, i) => {
    if (accepted[i]) outcomes[i] = { status: 'accepted', id: ids[next++]! };
  });
  // Delivered at the commit: a worker of any process listening on the inbox wakes for it.
  await client.query(notifySql('inbox', schema));
  return outcomes;
}

/** The inbox's `accept`: queues the event for the next batch and resolves after that batch commits. */
export function createPgAcceptQueue(ctx: PgContext): (event: NewWebhookEvent, dedupSince: number) => Promise<AcceptOutcome> {
  let queue: PendingAccept[] = [];
  let busy = false;

  // A batch that lost a deadlock (to a dedup prune, say) is written again rather than failing
  // every request in it with a 503.
  const write = (batch: readonly PendingAccept[]) =>
    ctx.guarded(async () => (await inRetried(() => writeBatchInOneRound(ctx.pool, batch, ctx.schema))) ?? (await inRetriedTransaction(ctx.pool, (client) => writeBatch(client, batch, ctx.schema))));

  /**
   * Writes a batch and answers each of its callers. A batch refused for one of its events (a value
   * PostgreSQL will not take) is written again one event at a time, in order, so that event alone
   * fails and its neighbours are accepted (DECISIONS "Text on both stores"). A database that cannot
   * be reached fails them all at once: one by one would only wait longer for the same answer.
   */
  const settle = async (batch: readonly PendingAccept[]): Promise<void> => {
    try {
      const outcomes = await write(batch);
      batch.forEach((p, i) => p.resolve(outcomes[i]!));
      return;
    } catch (err) {
      if (batch.length === 1 || isPgUnreachable(err)) {
        for (const p of batch) p.reject(err);
        return;
      }
    }
    for (const p of batch) {
      try {
        p.resolve((await write([p]))[0]!);
      } catch (err) {
        p.reject(err);
      }
    }
  };

  const flush = () => {
    const batch = queue.slice(0, MAX_BATCH);
    queue = queue.slice(batch.length);
    void settle(batch).finally(() => {
      busy = queue.length > 0;
      if (busy) flush();
    });
  };

  return (event, dedupSince) =>
    new Promise<AcceptOutcome>((resolve, reject) => {
      queue.push({ event, dedupSince, resolve, reject });
      if (busy) return;
      busy = true;
      // The accepts of this turn of the event loop join this one's batch.
      setImmediate(flush);
    });
}
