// How a failed chat.postMessage ends for the outbox: worth another try later, or never. Pure.
//
// A 429 carries Slack's wait in Retry-After; `ratelimited` without it, 5xx, Slack's own
// internal_error/fatal_error/service_unavailable and a missing answer pass. Every other ok:false
// (channel_not_found, not_in_channel, is_archived, invalid_auth, msg_too_long…) will fail the
// same way again.
import type { SendResult } from '../types.js';
import { describeWebFailure, type WebApiFailure } from './web-api.js';

const PASSING_ERRORS: ReadonlySet<string> = new Set(['ratelimited', 'rate_limited', 'internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']);

export function classifySendFailure(failure: WebApiFailure): Exclude<SendResult, { ok: true }> {
  const reason = describeWebFailure(failure);
  if (failure.kind === 'network') return { ok: false, kind: 'retry', reason };
  if (failure.status === 429 || failure.status >= 500 || PASSING_ERRORS.has(failure.error)) {
    return { ok: false, kind: 'retry', reason, ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}) };
  }
  return { ok: false, kind: 'permanent', reason };
}
