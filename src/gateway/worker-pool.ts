// The bounded pool that turns inbox rows into agent runs and deliveries. It claims an event only
// when a slot is free, so the inbox (not memory) holds the backlog; a shutdown aborts the runs in
// flight at their next safe point and puts their events back for the next start.
import type { WebhookEventRecord, WebhookInbox } from '../store/webhook-types.js';
import type { ListenerLog } from '../webhook/listener.js';
import type { RunOutcome } from './run-event.js';
import { errorMessage } from '../domain/error-message.js';
import { createClaimPump } from '../runtime/claim-pump.js';
import { isTransientStoreFailure, retryStoreWrite } from '../store/write-retry.js';

export type WorkerPoolOptions = {
  readonly concurrency: number;
  readonly inbox: WebhookInbox;
  /** A run cut off this many times (crashes) is failed rather than tried again. */
  readonly maxRunAttempts: number;
  readonly run: (record: WebhookEventRecord, signal: AbortSignal) => Promise<RunOutcome>;
  readonly deliver: (record: WebhookEventRecord, signal: AbortSignal) => Promise<void>;
  readonly log: ListenerLog;
  /** The clock the inbox's `runAfter` times are on (the gateway's). */
  readonly nowMs?: () => number;
  /** When the inbox cannot be read (a busy or failing store): the first wait and the longest. */
  readonly claimRetry?: { readonly firstMs: number; readonly maxMs: number };
  /**
   * Also look for claimable runs this often once started (events accepted by a listener in
   * another process); absent: only when woken. Without `adoptDeliveriesEveryMs` (a store of one
   * worker: SQLite), also look this often for finished runs put back for delivery by another
   * process (the dashboard's Redeliver) and deliver those this pool is not already delivering.
   */
  readonly pollMs?: number;
  /**
   * Also look this often for finished runs that no live worker is delivering (a worker on another
   * host died between its run and its delivery) and deliver them; absent: only at start. For a
   * store shared by several workers (PostgreSQL).
   */
  readonly adoptDeliveriesEveryMs?: number;
  /** The pauses between tries of recording an outcome the store failed (write-retry.ts; tests shorten them). */
  readonly writeRetryMs?: readonly number[];
};

export const MAX_RUN_ATTEMPTS = 3;
/** A delivery that threw (a store error, a bug) is tried again this much later. */
export const REDELIVER_AFTER_MS = 30_000;
export { CLAIM_RETRY, claimRetryDelay } from '../runtime/claim-pump.js';

export function createWorkerPool(options: WorkerPoolOptions) {
  const { inbox, log } = options;
  const nowMs = options.nowMs ?? Date.now;

  // The events this pool is running or delivering now, or will deliver again after a failure: a
  // look for pending deliveries leaves them alone, so no answer is delivered twice at once.
  const held = new Set<number>();
  const retrying = new Set<number>();
  const holding = async (id: number, work: () => Promise<void>): Promise<void> => {
    held.add(id);
    try {
      await work();
    } finally {
      if (!retrying.has(id)) held.delete(id);
    }
  };

  const redeliveries = new Set<NodeJS.Timeout>();
  async function deliver(record: WebhookEventRecord, signal: AbortSignal): Promise<void> {
    try {
      await options.deliver(record, signal);
    } catch (err) {
      // Left `done`: a PR's later events wait behind it, so it is tried again soon, not only at
      // the next start.
      log.error({ id: record.id, route: record.route, err: errorMessage(err), retry_in_ms: REDELIVER_AFTER_MS }, 'webhook delivery failed unexpectedly; it is tried again');
      if (signal.aborted) return;
      retrying.add(record.id);
      const timer = setTimeout(() => {
        redeliveries.delete(timer);
        retrying.delete(record.id);
        pump.track(
          holding(record.id, async () => {
            const stored = await inbox.get(record.id).catch(() => undefined);
            if (stored && (stored.state === 'done' || stored.state === 'delivering') && !pump.signal.aborted) await deliver(stored, pump.signal);
            pump.wake();
          }),
        );
      }, REDELIVER_AFTER_MS);
      timer.unref();
      redeliveries.add(timer);
    }
  }

  async function process(record: WebhookEventRecord, signal: AbortSignal): Promise<void> {
    const context = { id: record.id, route: record.route, event: record.event, delivery_id: record.deliveryId };
    let outcome: RunOutcome | { readonly kind: 'store_away'; readonly reason: string };
    try {
      outcome = await options.run(record, signal);
    } catch (err) {
      // The store failing under the run (a database restart, a full disk) is no fault of the
      // event: it runs again once the store is back, rather than being failed for good.
      outcome = isTransientStoreFailure(err) ? { kind: 'store_away', reason: errorMessage(err) } : { kind: 'failed', reason: `internal error: ${errorMessage(err)}` };
    }
    // Every outcome is recorded, the store failing or not: a run left `running` under this live
    // worker renews its lease, and its PR's later events wait behind it until a restart. A store
    // that is away is waited for (write-retry.ts); a write it refuses fails the event with why.
    const persist = <T>(write: () => Promise<T>) =>
      retryStoreWrite(write, {
        signal,
        ...(options.writeRetryMs ? { delaysMs: options.writeRetryMs } : {}),
        onRetry: (err, attempt, retryInMs) => log.warn({ ...context, err, attempt, retry_in_ms: retryInMs }, 'webhook run outcome not recorded yet; trying again'),
      });
    const unrecorded = (reason: string) => log.error({ ...context, err: reason }, 'webhook run could not be recorded; it runs again after the lease or at the next start');
    if (outcome.kind === 'interrupted' || outcome.kind === 'store_away') {
      const released = await persist(() => inbox.releaseRun(record.id));
      if (!released.ok) unrecorded(released.reason);
      else if (outcome.kind === 'interrupted') log.info(context, 'webhook run interrupted by shutdown; it runs again at the next start');
      else log.warn({ ...context, err: outcome.reason }, 'webhook run cut off by a store failure; it runs again');
      return;
    }
    if (outcome.kind === 'skipped') {
      const skipped = await persist(() => inbox.skip(record.id, outcome.reason));
      if (skipped.ok) log.info({ ...context, reason: outcome.reason }, `webhook event skipped: ${outcome.reason}`);
      else unrecorded(skipped.reason);
      return;
    }
    if (outcome.kind === 'failed') {
      const failed = await persist(() => inbox.fail(record.id, outcome.reason));
      if (failed.ok) log.error({ ...context, reason: outcome.reason }, `webhook run failed: ${outcome.reason}`);
      else unrecorded(failed.reason);
      return;
    }
    // Stored first: a crash from here on delivers this output, and never runs the agent again.
    const finished = await persist(() => inbox.finishRun(record.id, outcome.output, outcome.deliverAs));
    if (!finished.ok) {
      if (signal.aborted) return unrecorded(finished.reason);
      const why = `the answer could not be stored: ${finished.reason}`;
      const failed = await persist(() => inbox.fail(record.id, why));
      if (failed.ok) log.error({ ...context, reason: why }, `webhook run failed: ${why}`);
      else unrecorded(failed.reason);
      return;
    }
    if (!finished.value) {
      // This worker lost its claim while the run went on (its lease lapsed: the database was out
      // of reach for longer than the lease); the worker that took the event over answers it.
      log.warn(context, 'webhook run finished after another worker took the event over; this answer is dropped');
      return;
    }
    log.info({ ...context, chars: outcome.output.length }, 'webhook run finished');
    const stored = await persist(() => inbox.get(record.id));
    if (stored.ok && stored.value) await deliver(stored.value, signal);
    // Not readable now: the delivery is adopted at the next look for pending deliveries.
    else if (!stored.ok) log.error({ ...context, err: stored.reason }, 'webhook run finished but cannot be read back for delivery; delivered at the next start');
  }

  // A push waiting out its coalescing window is claimable later without any new arrival to wake
  // the pump: when nothing is claimable now, a timer wakes it at the earliest such time.
  let delayed: { readonly at: number; readonly timer: NodeJS.Timeout } | undefined;
  // `now` is read before the claim: a wait that ends during the claim still gets its timer.
  const wakeForDelayed = async (now: number): Promise<void> => {
    const at = await inbox.nextRunAfter(now);
    if (at === undefined || (delayed && delayed.at <= at)) return;
    if (delayed) clearTimeout(delayed.timer);
    const timer = setTimeout(() => {
      delayed = undefined;
      pump.wake();
    }, Math.max(0, at - now) + 5);
    timer.unref();
    delayed = { at, timer };
  };
  const claim = async (): Promise<WebhookEventRecord | undefined> => {
    const before = nowMs();
    const record = await inbox.claimNextRun(options.maxRunAttempts);
    if (record === undefined) await wakeForDelayed(before);
    return record;
  };

  const pump = createClaimPump({
    concurrency: options.concurrency,
    claim,
    run: (record, signal) => holding(record.id, () => process(record, signal)),
    onClaimError: (err, retryInMs) => log.error({ err, retry_in_ms: retryInMs }, 'webhook inbox unavailable; claiming runs again shortly'),
    ...(options.claimRetry ? { claimRetry: options.claimRetry } : {}),
  });

  const deliverAll = (found: readonly WebhookEventRecord[]) => {
    const pending = found.filter((record) => !held.has(record.id));
    // Held at once, not as each one's turn comes: the next look must not take the later ones too.
    for (const record of pending) held.add(record.id);
    pump.track(
      (async () => {
        for (const [i, record] of pending.entries()) {
          if (pump.signal.aborted) {
            for (const left of pending.slice(i)) held.delete(left.id);
            return;
          }
          await holding(record.id, () => deliver(record, pump.signal));
          // Its PR's next event may have waited for this delivery (the claims skipped it).
          pump.wake();
        }
      })(),
    );
    return pending.length;
  };

  let adoptTimer: NodeJS.Timeout | undefined;
  const adoptDeliveries = async (): Promise<void> => {
    try {
      const orphans = await inbox.pendingDeliveries({ othersOnly: true });
      if (orphans.length === 0 || pump.signal.aborted) return;
      const count = deliverAll(orphans);
      if (count > 0) log.info({ count }, 'delivering finished runs whose worker is gone (or put back for delivery)');
    } catch (err) {
      log.error({ err: errorMessage(err) }, 'could not look for deliveries left by a stopped worker; trying again later');
    }
  };

  // One store, one worker (SQLite): every pending delivery this pool does not hold was put back by
  // another process (the dashboard's Redeliver), or left by a failure nobody retries.
  let requeuedTimer: NodeJS.Timeout | undefined;
  let looking = false;
  const deliverRequeued = async (): Promise<void> => {
    if (looking || pump.signal.aborted) return;
    looking = true;
    try {
      const pending = await inbox.pendingDeliveries();
      if (pump.signal.aborted) return;
      const count = deliverAll(pending);
      if (count > 0) log.info({ count }, 'delivering finished runs put back for delivery');
    } catch (err) {
      log.error({ err: errorMessage(err) }, 'could not look for deliveries put back for delivery; trying again later');
    } finally {
      looking = false;
    }
  };

  return {
    /** Delivers what finished before the last stop, then starts taking runs. */
    async start(): Promise<void> {
      const pending = await inbox.pendingDeliveries();
      if (pending.length > 0) log.info({ count: pending.length }, 'delivering finished runs left from the last start');
      deliverAll(pending);
      await pump.claimNow();
      if (options.pollMs !== undefined) pump.poll(options.pollMs);
      if (options.pollMs !== undefined && options.adoptDeliveriesEveryMs === undefined) {
        requeuedTimer = setInterval(() => void deliverRequeued(), options.pollMs);
        requeuedTimer.unref();
      }
      if (options.adoptDeliveriesEveryMs !== undefined) {
        adoptTimer = setInterval(() => void adoptDeliveries(), options.adoptDeliveriesEveryMs);
        adoptTimer.unref();
      }
    },
    /** An event was accepted: take it if a slot is free. */
    wake: pump.wake,
    active: pump.active,
    /** Aborts the runs in flight and waits (up to `graceMs`) for them to record where they stopped. */
    stop: (graceMs: number) => {
      if (adoptTimer) clearInterval(adoptTimer);
      if (requeuedTimer) clearInterval(requeuedTimer);
      if (delayed) clearTimeout(delayed.timer);
      delayed = undefined;
      for (const timer of redeliveries) clearTimeout(timer);
      redeliveries.clear();
      return pump.stop(graceMs);
    },
  };
}

export type WorkerPool = ReturnType<typeof createWorkerPool>;
