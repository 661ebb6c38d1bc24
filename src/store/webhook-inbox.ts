// The webhook inbox on SQLite (see webhook-types.ts for the life of an event). Every state change
// is one statement or one IMMEDIATE transaction, so a crash at any point leaves each event in
// exactly one state.
import type BetterSqlite3 from 'better-sqlite3';
import type { AcceptOutcome, DeliverAs, NewWebhookEvent, RequeueOutcome, RerunOutcome, WebhookEventRecord, WebhookEventState, WebhookInbox, WebhookPendingState } from './webhook-types.js';
import { redeliverRefusal, rerunRefusal, stateCondition } from './webhook-operator.js';

type Db = BetterSqlite3.Database;

type PendingAccept = {
  readonly event: NewWebhookEvent;
  readonly dedupSince: number;
  readonly resolve: (outcome: AcceptOutcome) => void;
  readonly reject: (err: unknown) => void;
};

/** A webhook_events row as both stores read it (PostgreSQL's has its lease columns besides). */
export type EventRow = {
  id: number;
  route: string;
  delivery_id: string;
  event: string;
  payload: string;
  route_snapshot: string;
  state: string;
  run_attempts: number;
  delivery_attempts: number;
  session_id: string | null;
  delivery_started_at: number | null;
  delivery_pid: number | null;
  output: string | null;
  error: string | null;
  received_at: number;
  updated_at: number;
  lane: string | null;
  run_after: number | null;
  skipped: string | null;
  deliver_as: DeliverAs | null;
};

export function stateOf(row: EventRow): WebhookEventState {
  // `delivering` is stored as `done` with a delivery start (migration 3), `skipped` as
  // `delivered` with a reason (migration 7).
  if (row.state === 'done' && row.delivery_started_at !== null) return 'delivering';
  if (row.state === 'delivered' && row.skipped !== null) return 'skipped';
  return row.state as WebhookEventState;
}

export function toRecord(row: EventRow): WebhookEventRecord {
  return {
    id: row.id,
    route: row.route,
    deliveryId: row.delivery_id,
    event: row.event,
    payload: row.payload,
    routeSnapshot: row.route_snapshot,
    state: stateOf(row),
    runAttempts: row.run_attempts,
    deliveryAttempts: row.delivery_attempts,
    sessionId: row.session_id,
    deliveryPid: row.delivery_pid,
    output: row.output,
    error: row.error,
    receivedAt: row.received_at,
    updatedAt: row.updated_at,
    lane: row.lane,
    runAfter: row.run_after,
    skipReason: row.skipped,
    deliverAs: row.deliver_as,
  };
}

/**
 * The accept path's SQL, shared with the accept writer's thread (accept-writer.ts), which runs the
 * same statements on its own connection.
 */
export const ACCEPT_SQL = {
  seen: 'SELECT 1 AS one FROM webhook_dedup WHERE route = ? AND delivery_id = ? AND seen_at >= ?',
  // One statement decides and records: a new delivery, or one last seen before the window, is
  // written (1 change); one seen within the window is left alone (0 changes), a duplicate.
  remember: `INSERT INTO webhook_dedup (route, delivery_id, seen_at) VALUES (?, ?, ?)
       ON CONFLICT (route, delivery_id) DO UPDATE SET seen_at = excluded.seen_at WHERE webhook_dedup.seen_at < ?`,
  insert: `INSERT INTO webhook_events (route, delivery_id, event, payload, route_snapshot, state, received_at, updated_at, lane, run_after)
       VALUES (@route, @deliveryId, @event, @payload, @routeSnapshot, 'accepted', @receivedAt, @receivedAt, @lane, @runAfter)`,
} as const;

/** Writes accepted events somewhere other than this connection (the gateway's writer thread). */
export type AcceptPath = (event: NewWebhookEvent, dedupSince: number) => Promise<AcceptOutcome>;

/**
 * `guarded` runs a driver call and turns its failure into a StoreError naming the file;
 * `asStoreError` does the same for a failure caught elsewhere (sqlite-store.ts has both).
 */
export function createSqliteWebhookInbox(
  db: Db,
  now: () => number,
  guarded: <T>(work: () => T) => Promise<T>,
  asStoreError: (err: unknown) => Error,
  acceptPath?: AcceptPath,
): WebhookInbox {
  const statements = {
    seen: db.prepare<[string, string, number], { one: number }>(ACCEPT_SQL.seen),
    remember: db.prepare<[string, string, number, number]>(ACCEPT_SQL.remember),
    insert: db.prepare(ACCEPT_SQL.insert),
    // The oldest event free to run: its wait is over, and no older event of its lane is still on
    // its way (waiting, running, or run and not yet delivered), so a PR's events go in order.
    oldestRunnable: db.prepare<[number], EventRow>(
      `SELECT * FROM webhook_events e WHERE state = 'accepted' AND (run_after IS NULL OR run_after <= ?)
         AND (lane IS NULL OR NOT EXISTS (SELECT 1 FROM webhook_events o WHERE o.lane = e.lane AND o.id < e.id AND o.state IN ('accepted', 'running', 'done')))
       ORDER BY id LIMIT 1`,
    ),
    newerPush: db.prepare<[string, number], { id: number }>(
      // The first state term is the lane index's own condition, so that index (not the state one) is read.
      "SELECT id FROM webhook_events WHERE lane = ? AND id > ? AND state IN ('accepted', 'running', 'done') AND state = 'accepted' AND run_after IS NOT NULL ORDER BY id DESC LIMIT 1",
    ),
    skip: db.prepare<[string, number, number]>(
      "UPDATE webhook_events SET state = 'delivered', skipped = ?, output = NULL, updated_at = ? WHERE id = ? AND state IN ('accepted', 'running')",
    ),
    nextRunAfter: db.prepare<[number], { at: number | null }>("SELECT min(run_after) AS at FROM webhook_events WHERE state = 'accepted' AND run_after > ?"),
    claim: db.prepare<[number, number]>(
      "UPDATE webhook_events SET state = 'running', run_attempts = run_attempts + 1, updated_at = ? WHERE id = ? AND state = 'accepted'",
    ),
    get: db.prepare<[number], EventRow>('SELECT * FROM webhook_events WHERE id = ?'),
    setSession: db.prepare<[string, number, number]>('UPDATE webhook_events SET session_id = ?, updated_at = ? WHERE id = ?'),
    finish: db.prepare<[string, DeliverAs | null, number, number]>(
      "UPDATE webhook_events SET state = 'done', output = ?, deliver_as = ?, error = NULL, updated_at = ? WHERE id = ? AND state = 'running'",
    ),
    fail: db.prepare<[string, number, number]>("UPDATE webhook_events SET state = 'failed', error = ?, updated_at = ? WHERE id = ?"),
    release: db.prepare<[number, number]>(
      "UPDATE webhook_events SET state = 'accepted', run_attempts = max(run_attempts - 1, 0), updated_at = ? WHERE id = ? AND state = 'running'",
    ),
    recover: db.prepare<[number]>("UPDATE webhook_events SET state = 'accepted', updated_at = ? WHERE state = 'running'"),
    pending: db.prepare<[], EventRow>("SELECT * FROM webhook_events WHERE state = 'done' ORDER BY id"),
    delivering: db.prepare<[number, number, number]>(
      "UPDATE webhook_events SET delivery_started_at = ?, delivery_pid = NULL, updated_at = ? WHERE id = ? AND state = 'done'",
    ),
    deliveryPid: db.prepare<[number, number]>("UPDATE webhook_events SET delivery_pid = ? WHERE id = ? AND state = 'done'"),
    delivered: db.prepare<[number, number, number]>(
      "UPDATE webhook_events SET state = 'delivered', delivery_attempts = ?, error = NULL, updated_at = ? WHERE id = ? AND state = 'done'",
    ),
    deliveryFailed: db.prepare<[number, string, number, number]>(
      "UPDATE webhook_events SET state = 'failed', delivery_attempts = ?, error = ?, updated_at = ? WHERE id = ? AND state = 'done'",
    ),
    prune: db.prepare<[number]>('DELETE FROM webhook_dedup WHERE seen_at < ?'),
    pruneFinished: db.prepare<[number]>("DELETE FROM webhook_events WHERE state IN ('delivered', 'failed') AND updated_at < ?"),
    // Both read the (state, id) index: the first counts from the index alone; the second looks at
    // the rows of `done` only, which are few (a run's output waiting for its delivery).
    depth: db.prepare<[], { state: string; n: number }>(
      "SELECT state, count(*) AS n FROM webhook_events WHERE state IN ('accepted', 'running', 'done') GROUP BY state",
    ),
    depthDelivering: db.prepare<[], { n: number }>("SELECT count(*) AS n FROM webhook_events WHERE state = 'done' AND delivery_started_at IS NOT NULL"),
    // The (state, id) index narrows it to failed events (kept keep_days), whose times are read.
    failedSince: db.prepare<[number], { n: number }>("SELECT count(*) AS n FROM webhook_events WHERE state = 'failed' AND updated_at >= ?"),
    // An operator's Redeliver: back to `done`, not delivering (its last delivery ended), so the
    // next delivery posts anew rather than looking for what the last one posted.
    requeue: db.prepare<[number, number]>(
      "UPDATE webhook_events SET state = 'done', delivery_started_at = NULL, delivery_pid = NULL, error = NULL, updated_at = ? WHERE id = ? AND state IN ('delivered', 'failed') AND output IS NOT NULL",
    ),
    rerun: db.prepare<[string, number, number, number]>(
      `INSERT INTO webhook_events (route, delivery_id, event, payload, route_snapshot, state, received_at, updated_at, lane, run_after)
       SELECT route, ?, event, payload, route_snapshot, 'accepted', ?, ?, lane, NULL FROM webhook_events WHERE id = ?`,
    ),

  };

  const acceptOne = (event: NewWebhookEvent, dedupSince: number): AcceptOutcome => {
    if (event.deduplicate) {
      if (statements.remember.run(event.route, event.deliveryId, event.receivedAt, dedupSince).changes === 0) return { status: 'duplicate' };
    }
    const { route, deliveryId, event: name, payload, routeSnapshot, receivedAt } = event;
    const info = statements.insert.run({ route, deliveryId, event: name, payload, routeSnapshot, receivedAt, lane: event.lane ?? null, runAfter: event.runAfter ?? null });
    return { status: 'accepted', id: Number(info.lastInsertRowid) };
  };
  const acceptBatch = db.transaction((batch: readonly PendingAccept[]): AcceptOutcome[] => batch.map((p) => acceptOne(p.event, p.dedupSince)));

  // Group commit: the events accepted within one turn of the event loop are written in one
  // transaction, and each caller hears back only after that commit. Under load this halves the
  // write cost per event; alone, an event waits for nothing but its own commit.
  let pending: PendingAccept[] = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    let outcomes: AcceptOutcome[];
    try {
      outcomes = acceptBatch.immediate(batch);
    } catch (err) {
      const failure = asStoreError(err);
      for (const p of batch) p.reject(failure);
      return;
    }
    batch.forEach((p, i) => p.resolve(outcomes[i]!));
  };
  const acceptHere = (event: NewWebhookEvent, dedupSince: number): Promise<AcceptOutcome> =>
    new Promise<AcceptOutcome>((resolve, reject) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push({ event, dedupSince, resolve, reject });
    });
  const accept = acceptPath ?? acceptHere;

  const claim = db.transaction((maxRunAttempts: number): EventRow | undefined => {
    for (;;) {
      const at = now();
      const row = statements.oldestRunnable.get(at);
      if (!row) return undefined;
      if (row.run_attempts >= maxRunAttempts) {
        // A poison event (one whose run keeps killing the process) must not block the queue.
        statements.fail.run(`gave up after ${row.run_attempts} interrupted runs`, at, row.id);
        continue;
      }
      if (row.lane !== null && row.run_after !== null) {
        // A push overtaken by a newer push to the same PR: only the newest head is reviewed.
        const newer = statements.newerPush.get(row.lane, row.id);
        if (newer) {
          statements.skip.run(`superseded by a newer push (event ${newer.id})`, at, row.id);
          continue;
        }
      }
      statements.claim.run(at, row.id);
      return statements.get.get(row.id);
    }
  });

  const requeue = db.transaction((id: number): RequeueOutcome => {
    const row = statements.get.get(id);
    const refusal = redeliverRefusal(row && toRecord(row));
    if (refusal !== undefined) return { ok: false, reason: refusal };
    statements.requeue.run(now(), id);
    return { ok: true, record: toRecord(statements.get.get(id)!) };
  });
  const rerun = db.transaction((id: number, deliveryId: string): RerunOutcome => {
    const row = statements.get.get(id);
    const refusal = rerunRefusal(row && toRecord(row));
    if (refusal !== undefined) return { ok: false, reason: refusal };
    const at = now();
    return { ok: true, id: Number(statements.rerun.run(deliveryId, at, at, id).lastInsertRowid) };
  });

  return {
    isDuplicate: (route, deliveryId, since) => guarded(() => statements.seen.get(route, deliveryId, since) !== undefined),
    accept,
    claimNextRun: (maxRunAttempts) =>
      guarded(() => {
        const row = claim.immediate(maxRunAttempts);
        return row && toRecord(row);
      }),
    setSession: (id, sessionId) => guarded(() => void statements.setSession.run(sessionId, now(), id)),
    finishRun: (id, output, deliverAs) => guarded(() => statements.finish.run(output, deliverAs ?? null, now(), id).changes === 1),
    skip: (id, reason) => guarded(() => void statements.skip.run(reason, now(), id)),
    nextRunAfter: (after) => guarded(() => statements.nextRunAfter.get(after)?.at ?? undefined),
    fail: (id, reason) => guarded(() => void statements.fail.run(reason, now(), id)),
    releaseRun: (id) => guarded(() => void statements.release.run(now(), id)),
    recoverInterrupted: () => guarded(() => statements.recover.run(now()).changes),
    pendingDeliveries: (options = {}) => guarded(() => (options.othersOnly ? [] : statements.pending.all().map(toRecord))),
    markDelivering: (id) =>
      guarded(() => {
        const at = now();
        statements.delivering.run(at, at, id);
      }),
    setDeliveryPid: (id, pid) => guarded(() => void statements.deliveryPid.run(pid, id)),
    markDelivered: (id, attempts) => guarded(() => void statements.delivered.run(attempts, now(), id)),
    markDeliveryFailed: (id, attempts, reason) => guarded(() => void statements.deliveryFailed.run(attempts, reason, now(), id)),
    get: (id) =>
      guarded(() => {
        const row = statements.get.get(id);
        return row && toRecord(row);
      }),
    list: (options = {}) =>
      guarded(() => {
        const conditions = [...(options.route === undefined ? [] : ['route = @route']), ...(options.state === undefined ? [] : [stateCondition(options.state)])];
        const where = conditions.length === 0 ? '' : `WHERE ${conditions.map((c) => `(${c})`).join(' AND ')}`;
        const rows = db
          .prepare<[{ route?: string; limit: number }], EventRow>(`SELECT * FROM webhook_events ${where} ORDER BY id DESC LIMIT @limit`)
          .all({ ...(options.route === undefined ? {} : { route: options.route }), limit: options.limit ?? -1 });
        return rows.map(toRecord);
      }),
    requeueDelivery: (id) => guarded(() => requeue.immediate(id)),
    rerun: (id, deliveryId) => guarded(() => rerun.immediate(id, deliveryId)),
    pruneFinished: (before) => guarded(() => statements.pruneFinished.run(before).changes),
    pruneDedup: (before) => guarded(() => statements.prune.run(before).changes),
    depth: () =>
      guarded(() => {
        const counts: Record<WebhookPendingState, number> = { accepted: 0, running: 0, done: 0, delivering: 0 };
        for (const row of statements.depth.all()) counts[row.state as WebhookPendingState] = row.n;
        // `delivering` is stored as `done` with a delivery start (see migration 3).
        const delivering = statements.depthDelivering.get()?.n ?? 0;
        counts.delivering = delivering;
        counts.done -= delivering;
        return counts;
      }),
    failedSince: (since) => guarded(() => statements.failedSince.get(since)?.n ?? 0),
  };
}
