import { describe, expect, it } from 'vitest';
import { backoffMs, DEFAULT_BACKOFF, openDelayMs, openFailureState } from './socket-state.js';

describe('socket backoff', () => {
  it('1 s doubling to 30 s', () => {
    expect([1, 2, 3, 5, 6, 10].map((n) => backoffMs(DEFAULT_BACKOFF, n))).toEqual([1000, 2000, 4000, 16_000, 30_000, 30_000]);
  });

  it('a refused app token waits the longest; a 429 at least its Retry-After', () => {
    expect(openDelayMs({ ok: false, kind: 'api', status: 200, error: 'invalid_auth' }, 1, DEFAULT_BACKOFF)).toBe(30_000);
    expect(openDelayMs({ ok: false, kind: 'api', status: 429, error: 'ratelimited', retryAfterMs: 7000 }, 1, DEFAULT_BACKOFF)).toBe(7000);
    expect(openDelayMs({ ok: false, kind: 'network', reason: 'ECONNREFUSED', timedOut: false }, 2, DEFAULT_BACKOFF)).toBe(2000);
  });

  it('says which token was refused, or what failed', () => {
    expect(openFailureState({ ok: false, kind: 'api', status: 200, error: 'not_allowed_token_type' }, 'SLACK_APP_TOKEN')).toEqual({ connected: false, detail: 'Slack refused the app-level token in SLACK_APP_TOKEN (not_allowed_token_type)' });
    expect(openFailureState({ ok: false, kind: 'network', reason: 'ECONNREFUSED 127.0.0.1:9', timedOut: false }, 'SLACK_APP_TOKEN')).toEqual({ connected: false, detail: 'apps.connections.open failed: Slack unreachable: ECONNREFUSED 127.0.0.1:9' });
  });
});
