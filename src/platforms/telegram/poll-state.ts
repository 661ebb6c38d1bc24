// What the long-poll loop says and does after a failure: the words for `state()` and the doctor,
// and how long to wait before polling again. Pure.
import { backoffMs, pauseAfterFailure, type Backoff } from '../../runtime/backoff.js';
import type { ConnectionState } from '../types.js';
import type { BotApiFailure } from './bot-api.js';

export { backoffMs, type Backoff };

/** 1 s, doubling, at most 30 s: quick after a blip, gentle on a long outage. */
export const DEFAULT_BACKOFF: Backoff = Object.freeze({ firstMs: 1000, maxMs: 30_000 });

export type PollFailure =
  | BotApiFailure
  /** Telegram answered ok but not with a list of updates. */
  | { readonly ok: false; readonly kind: 'malformed'; readonly reason: string };

export function pollDelayMs(failure: PollFailure, failures: number, backoff: Backoff): number {
  if (failure.kind === 'api') {
    // A rejected token stays rejected until someone changes .env: ask rarely.
    if (failure.status === 401) return backoff.maxMs;
    // Telegram's retry_after is when it takes us back, sooner than the schedule or not.
    return pauseAfterFailure(backoff, failures, failure.retryAfterMs, 'as-told');
  }
  return backoffMs(backoff, failures);
}

/** One line for `iris gateway status`, the doctor and the log; never contains the token. */
export function describeFailure(failure: PollFailure): string {
  if (failure.kind === 'network') return `Telegram unreachable: ${failure.reason}`;
  if (failure.kind === 'malformed') return `Telegram answered oddly: ${failure.reason}`;
  if (failure.status === 401) return 'token rejected (401)';
  if (failure.status === 409) {
    return /webhook/i.test(failure.description)
      ? 'conflict (409): a webhook is set for this bot, so getUpdates cannot run; remove it (deleteWebhook) to poll'
      : 'conflict (409): another poller is using this bot token (a second gateway or another program)';
  }
  if (failure.status === 429) return `rate limited by Telegram (429): ${failure.description}`;
  return `Telegram ${failure.status}: ${failure.description}`;
}

export function failureState(failure: PollFailure): ConnectionState {
  return { connected: false, detail: describeFailure(failure) };
}
