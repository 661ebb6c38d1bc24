// Trying an operation a few times with growing pauses between tries. Whether an outcome is worth
// another try is the caller's decision, made on the outcome value (a result union, not an
// exception). The sleep is injected so tests run the whole schedule in no time.
//
// No jitter: the callers retry one delivery each, not a fleet reconnecting at once, and a fixed
// schedule is what a user reading the log expects to see.
import { sleep, type Sleep } from '../runtime/sleep.js';

export type { Sleep };

export type RetryOptions = {
  /** Total tries, the first included (at least 1). */
  readonly attempts: number;
  /** The pause before the 2nd, 3rd, … try; the last entry repeats if there are more tries. */
  readonly backoffMs: readonly number[];
  readonly sleep?: Sleep;
  /** Stops between tries; the outcomes so far are returned. */
  readonly signal?: AbortSignal;
};

export type RetryOutcome<T> = {
  /** The last try's outcome. */
  readonly final: T;
  /** Every try's outcome, in order. */
  readonly outcomes: readonly T[];
};


/** The pause before try number `attempt` (2 for the first retry). */
export function backoffDelay(backoffMs: readonly number[], attempt: number): number {
  if (backoffMs.length === 0) return 0;
  return backoffMs[Math.min(attempt - 2, backoffMs.length - 1)] ?? 0;
}

export async function retryWithBackoff<T>(
  run: (attempt: number) => Promise<T>,
  shouldRetry: (outcome: T) => boolean,
  options: RetryOptions,
): Promise<RetryOutcome<T>> {
  const attempts = Math.max(1, Math.floor(options.attempts));
  const pause = options.sleep ?? sleep;
  const outcomes: T[] = [];
  for (let attempt = 1; ; attempt++) {
    const outcome = await run(attempt);
    outcomes.push(outcome);
    if (attempt >= attempts || !shouldRetry(outcome) || options.signal?.aborted) {
      return { final: outcome, outcomes };
    }
    await pause(backoffDelay(options.backoffMs, attempt + 1), options.signal);
    if (options.signal?.aborted) return { final: outcome, outcomes };
  }
}
