// A status write that must land: the outcome of a send or a run recorded in the store. When the
// store fails it (a database restarting, a disk full for a moment), the write is tried again with
// a growing pause rather than given up, because giving up leaves the row `sending` or `running`
// under this live process, renewing its lease, and its chat or PR waits behind it until a restart.
// A store that cannot be reached is waited for as long as the process runs (until `signal`
// aborts: the row is then recovered at the next start, or taken over when the lease lapses); a
// write the store refuses for what it holds (an invalid value) is tried a few times, then left to
// the caller, who records a failure instead. Expected failures come back as values.
import { errorMessage } from '../domain/error-message.js';
import { StoreError } from './errors.js';
import { sleep as pause } from '../runtime/sleep.js';

export type WriteRetry = {
  /** Pauses between tries, the last repeated: from 250 ms to 30 s. */
  readonly delaysMs?: readonly number[];
  /** Tries at most for a refusal that waiting does not cure. */
  readonly refusedAttempts?: number;
  readonly signal?: AbortSignal;
  /** Told of each failed try, and the pause before the next. */
  readonly onRetry?: (err: string, attempt: number, retryInMs: number) => void;
  /** The pause itself (tests run it at once). */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
};

export type WriteOutcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

export const WRITE_RETRY_DELAYS_MS: readonly number[] = Object.freeze([250, 500, 1_000, 2_000, 4_000, 8_000, 15_000, 30_000]);
const REFUSED_ATTEMPTS = 3;

/** Whether waiting may cure the failure: the store out of reach, busy, full or read-only for now. */
export function isTransientStoreFailure(err: unknown): boolean {
  if (!(err instanceof StoreError)) return false;
  return err.code === 'io' || err.code === 'busy' || err.code === 'readonly';
}

export async function retryStoreWrite<T>(write: () => Promise<T>, options: WriteRetry = {}): Promise<WriteOutcome<T>> {
  const delays = options.delaysMs ?? WRITE_RETRY_DELAYS_MS;
  const sleep = options.sleep ?? pause;
  let refused = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      return { ok: true, value: await write() };
    } catch (err) {
      const reason = errorMessage(err);
      if (!isTransientStoreFailure(err) && ++refused >= (options.refusedAttempts ?? REFUSED_ATTEMPTS)) return { ok: false, reason };
      if (options.signal?.aborted) return { ok: false, reason };
      const delay = delays[Math.min(attempt - 1, delays.length - 1)] ?? 1_000;
      options.onRetry?.(reason, attempt, delay);
      await sleep(delay, options.signal);
      if (options.signal?.aborted) return { ok: false, reason };
    }
  }
}
