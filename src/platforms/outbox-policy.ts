// What happens after one send from the outbox (DECISIONS § Chat platforms): retried at 5 s, 25 s
// and 120 s, then failed; a permanent error (a 4xx other than 429) is never retried; a 429 waits
// for the platform's retry_after instead of the schedule's pause. Pure.
import type { SendResult } from './types.js';

export const OUTBOX_RETRY_MS: readonly number[] = Object.freeze([5_000, 25_000, 120_000]);

export type AfterSend =
  | { readonly kind: 'sent'; readonly messageId: string | null }
  | { readonly kind: 'retry'; readonly at: number; readonly reason: string }
  | { readonly kind: 'failed'; readonly reason: string };

/** `attempts`: the sends tried before this one. */
export function afterSend(result: SendResult, attempts: number, nowMs: number, schedule: readonly number[] = OUTBOX_RETRY_MS): AfterSend {
  if (result.ok) return { kind: 'sent', messageId: result.messageId };
  if (result.kind === 'permanent') return { kind: 'failed', reason: result.reason };
  if (attempts >= schedule.length) return { kind: 'failed', reason: `${result.reason} (after ${attempts + 1} attempts)` };
  const pause = result.retryAfterMs !== undefined ? Math.max(result.retryAfterMs, 0) : schedule[attempts]!;
  return { kind: 'retry', at: nowMs + pause, reason: result.reason };
}
