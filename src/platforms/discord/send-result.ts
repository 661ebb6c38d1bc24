// How a failed Discord send ends for the outbox, and how long the next send to the same route
// must wait. Pure.
//
// 429 carries Discord's own wait (retry_after); 5xx and a missing answer are the service's
// trouble and pass; every other 4xx (unknown channel, missing access, too long) will fail the same
// way again. After a send that left the route's X-RateLimit-Remaining at 0, the next one waits
// out X-RateLimit-Reset-After instead of running into a 429.
import type { SendResult } from '../types.js';
import type { RateLimitHeaders, RestFailure } from './rest.js';

export function classifySendFailure(failure: RestFailure): Exclude<SendResult, { ok: true }> {
  if (failure.kind === 'network') return { ok: false, kind: 'retry', reason: `Discord did not answer: ${failure.reason}` };
  const reason = `Discord ${failure.status}: ${failure.message}${failure.code !== 0 ? ` (code ${failure.code})` : ''}`;
  if (failure.status === 429) {
    return { ok: false, kind: 'retry', reason: `${reason}${failure.global ? ' (global)' : ''}`, ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}) };
  }
  if (failure.status >= 400 && failure.status < 500) return { ok: false, kind: 'permanent', reason };
  return { ok: false, kind: 'retry', reason };
}

/** Per route (e.g. one channel's messages): the epoch ms before which the next send must wait. */
export type RouteLimits = ReadonlyMap<string, number>;

/** The limits after an answer on `route` at `nowMs`: Remaining 0 (or a 429) closes the route until its reset. */
export function noteRateLimit(limits: RouteLimits, route: string, headers: RateLimitHeaders, nowMs: number, retryAfterMs?: number): Map<string, number> {
  const next = new Map(limits);
  for (const [key, until] of next) if (until <= nowMs) next.delete(key);
  const closedFor = retryAfterMs ?? (headers.remaining === 0 ? headers.resetAfterMs : undefined);
  if (closedFor !== undefined && closedFor > 0) next.set(route, nowMs + closedFor);
  else if (headers.remaining !== undefined && headers.remaining > 0) next.delete(route);
  return next;
}

/** How long a send on `route` waits now (0: go). */
export function waitBeforeSend(limits: RouteLimits, route: string, nowMs: number): number {
  const until = limits.get(route);
  return until === undefined ? 0 : Math.max(0, until - nowMs);
}
