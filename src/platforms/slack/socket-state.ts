// What the Socket Mode loop says and waits after a failure or a closed socket. Pure.
import { backoffMs, pauseAfterFailure, type Backoff } from '../../runtime/backoff.js';
import type { ConnectionState } from '../types.js';
import { AUTH_ERRORS, describeWebFailure, type WebApiFailure } from './web-api.js';

export { backoffMs, type Backoff };

/** 1 s, doubling, at most 30 s: quick after a blip, gentle on a long outage. */
export const DEFAULT_BACKOFF: Backoff = Object.freeze({ firstMs: 1000, maxMs: 30_000 });

/** After apps.connections.open failed. A refused token stays refused until .env changes: ask rarely. */
export function openDelayMs(failure: WebApiFailure, failures: number, backoff: Backoff): number {
  if (failure.kind === 'api') {
    if (AUTH_ERRORS.has(failure.error)) return backoff.maxMs;
    // Slack's Retry-After is a floor: a loop already deep in its backoff does not hurry back.
    return pauseAfterFailure(backoff, failures, failure.retryAfterMs, 'at-least-schedule');
  }
  return backoffMs(backoff, failures);
}

export function openFailureState(failure: WebApiFailure, tokenEnv: string): ConnectionState {
  if (failure.kind === 'api' && AUTH_ERRORS.has(failure.error)) return { connected: false, detail: `Slack refused the app-level token in ${tokenEnv} (${failure.error})` };
  return { connected: false, detail: `apps.connections.open failed: ${describeWebFailure(failure)}` };
}
