// What the Socket Mode loop says and waits after a failure or a closed socket. Pure.
import type { ConnectionState } from '../types.js';
import { AUTH_ERRORS, describeWebFailure, type WebApiFailure } from './web-api.js';

export type Backoff = { readonly firstMs: number; readonly maxMs: number };

/** 1 s, doubling, at most 30 s: quick after a blip, gentle on a long outage. */
export const DEFAULT_BACKOFF: Backoff = Object.freeze({ firstMs: 1000, maxMs: 30_000 });

/** The pause after the `failures`-th failure in a row (1 for the first). */
export function backoffMs(backoff: Backoff, failures: number): number {
  return Math.min(backoff.maxMs, backoff.firstMs * 2 ** Math.max(0, failures - 1));
}

/** After apps.connections.open failed. A refused token stays refused until .env changes: ask rarely. */
export function openDelayMs(failure: WebApiFailure, failures: number, backoff: Backoff): number {
  if (failure.kind === 'api') {
    if (AUTH_ERRORS.has(failure.error)) return backoff.maxMs;
    if (failure.retryAfterMs !== undefined) return Math.max(failure.retryAfterMs, backoffMs(backoff, failures));
  }
  return backoffMs(backoff, failures);
}

export function openFailureState(failure: WebApiFailure, tokenEnv: string): ConnectionState {
  if (failure.kind === 'api' && AUTH_ERRORS.has(failure.error)) return { connected: false, detail: `Slack refused the app-level token in ${tokenEnv} (${failure.error})` };
  return { connected: false, detail: `apps.connections.open failed: ${describeWebFailure(failure)}` };
}
