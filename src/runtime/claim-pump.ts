// Claims work from a durable queue and runs it, at most `concurrency` at once: it claims only when
// a slot is free, so the queue (not memory) holds the backlog. A claim that fails (a busy or
// failing store) is tried again on a timer, doubling from `firstMs` to `maxMs`: queued work must
// not wait for the next arrival to wake the pump, which may be never. Stopping aborts the work in
// flight (its signal) and waits, up to a grace period, for it to record where it stopped. Used by
// the webhook worker pool and the chat platforms' conversation runner.
import { errorMessage } from '../domain/error-message.js';

export type ClaimPumpOptions<T> = {
  readonly concurrency: number;
  /** The next piece of work, claimed (marked as taken) in the store; undefined when there is none. */
  readonly claim: () => Promise<T | undefined>;
  /** Runs one claimed piece; it must not throw (it records its own failures). */
  readonly run: (item: T, signal: AbortSignal) => Promise<void>;
  /** A claim failed; the pump tries again in `retryInMs`. */
  readonly onClaimError: (err: string, retryInMs: number) => void;
  readonly claimRetry?: { readonly firstMs: number; readonly maxMs: number };
};

export const CLAIM_RETRY = Object.freeze({ firstMs: 250, maxMs: 30_000 });

/** The wait before claim retry number `failures` (1, 2, …): doubling from `firstMs`, capped. */
export function claimRetryDelay(failures: number, retry: { readonly firstMs: number; readonly maxMs: number } = CLAIM_RETRY): number {
  return Math.min(retry.maxMs, retry.firstMs * 2 ** Math.max(0, Math.min(failures - 1, 30)));
}

export function createClaimPump<T>(options: ClaimPumpOptions<T>) {
  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  let active = 0;
  let pumping = false;
  let pumpAgain = false;
  let claimFailures = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  let pollTimer: NodeJS.Timeout | undefined;

  function retryClaimLater(err: unknown): void {
    claimFailures++;
    const delay = claimRetryDelay(claimFailures, options.claimRetry);
    options.onClaimError(errorMessage(err), delay);
    if (retryTimer || stopping.signal.aborted) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void pump();
    }, delay);
  }

  /** Keeps `work` in flight until it settles (stop() waits for these). */
  function track(work: Promise<void>): void {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
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
          let item: T | undefined;
          try {
            item = await options.claim();
            claimFailures = 0;
          } catch (err) {
            retryClaimLater(err);
            return;
          }
          if (item === undefined) break;
          active++;
          track(
            options.run(item, stopping.signal).finally(() => {
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
    /** Claims and runs what fits now. */
    wake: (): void => void pump(),
    /** Claims what fits now; resolves once those claims are made (their work runs on). */
    claimNow: pump,
    /**
     * From now on also claims every `everyMs`, for work nobody woke it for (added by another
     * process). Started by the owner once its start-time recovery is done, never before.
     */
    poll: (everyMs: number): void => {
      if (pollTimer || stopping.signal.aborted) return;
      pollTimer = setInterval(() => void pump(), everyMs);
      pollTimer.unref();
    },
    track,
    signal: stopping.signal,
    active: () => active,
    /** Aborts the work in flight and waits (up to `graceMs`) for it to settle. */
    stop: async (graceMs: number): Promise<{ settled: boolean }> => {
      stopping.abort();
      clearTimeout(retryTimer);
      retryTimer = undefined;
      clearInterval(pollTimer);
      pollTimer = undefined;
      let timer: NodeJS.Timeout | undefined;
      const settled = await Promise.race([
        Promise.allSettled([...inFlight]).then(() => true),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), graceMs);
        }),
      ]);
      clearTimeout(timer);
      return { settled };
    },
  };
}
