// How long a reconnect or retry loop waits after its n-th failure in a row: doubling from a first
// pause up to a cap, quick after a blip and gentle on a long outage. Every chat platform's loop
// (Telegram's poller, Slack's socket, Discord's gateway, Signal's event stream) takes its pause
// from here and keeps only its own numbers. Pure: no clock, no randomness (no copy had jitter).
export type Backoff = { readonly firstMs: number; readonly maxMs: number };

/** The pause after the `failures`-th failure in a row (1 for the first; 0 or less counts as 1). */
export function backoffMs(backoff: Backoff, failures: number): number {
  return Math.min(backoff.maxMs, backoff.firstMs * 2 ** Math.max(0, failures - 1));
}

/**
 * A server that named its own wait (Retry-After, `retry_after`) is heeded. `as-told` takes that
 * wait as it is (it may be shorter than the schedule: the server knows when it will take us back);
 * `at-least-schedule` never waits less than the schedule, for a server whose wait is a floor.
 */
export type RetryAfterRule = 'as-told' | 'at-least-schedule';

/** The pause after a failure that may carry the server's wait; without one, the schedule's. */
export function pauseAfterFailure(backoff: Backoff, failures: number, retryAfterMs: number | undefined, rule: RetryAfterRule): number {
  const scheduled = backoffMs(backoff, failures);
  if (retryAfterMs === undefined) return scheduled;
  return rule === 'as-told' ? retryAfterMs : Math.max(retryAfterMs, scheduled);
}
