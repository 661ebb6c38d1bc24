// The bounded pool that turns inbox rows into agent runs and deliveries. It claims an event only
// when a slot is free, so the inbox (not memory) holds the backlog; a shutdown aborts the runs in
// flight at their next safe point and puts their events back for the next start.
import type { WebhookEventRecord, WebhookInbox } from '../store/webhook-types.js';
import type { ListenerLog } from '../webhook/listener.js';
import type { RunOutcome } from './run-event.js';
import { errorMessage } from '../domain/error-message.js';

export type WorkerPoolOptions = {
  readonly concurrency: number;
  readonly inbox: WebhookInbox;
  /** A run cut off this many times (crashes) is failed rather than tried again. */
  readonly maxRunAttempts: number;
  readonly run: (record: WebhookEventRecord, signal: AbortSignal) => Promise<RunOutcome>;
  readonly deliver: (record: WebhookEventRecord, signal: AbortSignal) => Promise<void>;
  readonly log: ListenerLog;
  /** When the inbox cannot be read (a busy or failing store): the first wait and the longest. */
  readonly claimRetry?: { readonly firstMs: number; readonly maxMs: number };
};

export const MAX_RUN_ATTEMPTS = 3;
export const CLAIM_RETRY = Object.freeze({ firstMs: 250, maxMs: 30_000 });

/** The wait before claim retry number `failures` (1, 2, …): doubling from `firstMs`, capped. */
export function claimRetryDelay(failures: number, retry: { readonly firstMs: number; readonly maxMs: number } = CLAIM_RETRY): number {
  return Math.min(retry.maxMs, retry.firstMs * 2 ** Math.max(0, Math.min(failures - 1, 30)));
}

export function createWorkerPool(options: WorkerPoolOptions) {
  const { inbox, log } = options;
  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  let active = 0;
  let pumping = false;
  let pumpAgain = false;
  // A claim that failed is tried again on a timer: the queued events must not wait for the next
  // webhook to arrive, which may be never.
  let claimFailures = 0;
  let retryTimer: NodeJS.Timeout | undefined;

  function retryClaimLater(err: unknown): void {
    claimFailures++;
    const delay = claimRetryDelay(claimFailures, options.claimRetry);
    log.error({ err: errorMessage(err), retry_in_ms: delay }, 'webhook inbox unavailable; claiming runs again shortly');
    if (retryTimer || stopping.signal.aborted) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void pump();
    }, delay);
  }

  const track = (work: Promise<void>) => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  };

  async function deliver(record: WebhookEventRecord): Promise<void> {
    try {
      await options.deliver(record, stopping.signal);
    } catch (err) {
      log.error({ id: record.id, route: record.route, err: errorMessage(err) }, 'webhook delivery failed unexpectedly; it is retried at the next start');
    }
  }

  async function process(record: WebhookEventRecord): Promise<void> {
    const context = { id: record.id, route: record.route, event: record.event, delivery_id: record.deliveryId };
    let outcome: RunOutcome;
    try {
      outcome = await options.run(record, stopping.signal);
    } catch (err) {
      outcome = { kind: 'failed', reason: `internal error: ${errorMessage(err)}` };
    }
    try {
      if (outcome.kind === 'interrupted') {
        await inbox.releaseRun(record.id);
        log.info(context, 'webhook run interrupted by shutdown; it runs again at the next start');
        return;
      }
      if (outcome.kind === 'failed') {
        await inbox.fail(record.id, outcome.reason);
        log.error({ ...context, reason: outcome.reason }, `webhook run failed: ${outcome.reason}`);
        return;
      }
      // Stored first: a crash from here on delivers this output, and never runs the agent again.
      await inbox.finishRun(record.id, outcome.output);
      log.info({ ...context, chars: outcome.output.length }, 'webhook run finished');
      const stored = await inbox.get(record.id);
      if (stored) await deliver(stored);
    } catch (err) {
      log.error({ ...context, err: errorMessage(err) }, 'webhook run could not be recorded');
    }
  }

  async function pump(): Promise<void> {
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = true;
    try {
      do {
        pumpAgain = false;
        while (!stopping.signal.aborted && active < options.concurrency) {
          let record: WebhookEventRecord | undefined;
          try {
            record = await inbox.claimNextRun(options.maxRunAttempts);
            claimFailures = 0;
          } catch (err) {
            retryClaimLater(err);
            return;
          }
          if (!record) break;
          active++;
          track(
            process(record).finally(() => {
              active--;
              void pump();
            }),
          );
        }
      } while (pumpAgain && !stopping.signal.aborted);
    } finally {
      pumping = false;
    }
  }

  return {
    /** Delivers what finished before the last stop, then starts taking runs. */
    async start(): Promise<void> {
      const pending = await inbox.pendingDeliveries();
      if (pending.length > 0) log.info({ count: pending.length }, 'delivering finished runs left from the last start');
      track(
        (async () => {
          for (const record of pending) {
            if (stopping.signal.aborted) return;
            await deliver(record);
          }
        })(),
      );
      await pump();
    },
    /** An event was accepted: take it if a slot is free. */
    wake(): void {
      void pump();
    },
    active: () => active,
    /** Aborts the runs in flight and waits (up to `graceMs`) for them to record where they stopped. */
    async stop(graceMs: number): Promise<{ settled: boolean }> {
      stopping.abort();
      clearTimeout(retryTimer);
      retryTimer = undefined;
      const all = Promise.allSettled([...inFlight]).then(() => true);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), graceMs);
      });
      const settled = await Promise.race([all, timeout]);
      clearTimeout(timer);
      return { settled };
    },
  };
}

export type WorkerPool = ReturnType<typeof createWorkerPool>;
