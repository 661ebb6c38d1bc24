import { describe, expect, it } from 'vitest';
import type { ModelError, ModelErrorCode } from '../providers/wire/types.js';
import { decideOnFailure } from './failure-policy.js';

const error = (code: ModelErrorCode, extra: Partial<ModelError> = {}): ModelError => ({ code, message: code, afterOutput: false, ...extra });

describe('decideOnFailure', () => {
  // One row per error code: a code left out of the table would silently change fallback for all.
  it.each([
    ['rate_limited', 'retry'],
    ['quota', 'fallback'],
    ['overloaded', 'fallback'],
    ['server', 'fallback'],
    ['timeout', 'fallback'],
    ['network', 'fallback'],
    ['truncated_stream', 'fallback'],
    ['not_configured', 'fallback'],
    ['bad_request', 'fail'],
    ['unsupported_operation', 'fail'],
    ['context_overflow', 'fail'],
    ['content_filter', 'fail'],
    ['auth', 'fail'],
    ['forbidden', 'fail'],
    ['cancelled', 'fail'],
    ['malformed_stream', 'fail'],
  ] as const)('%s → %s', (code, action) => {
    expect(decideOnFailure(error(code), 0).action).toBe(action);
  });

  it('falls back on a missing deployment or model, and fails on any other 404', () => {
    expect(decideOnFailure(error('not_found', { providerCode: 'DeploymentNotFound' }), 0).action).toBe('fallback');
    expect(decideOnFailure(error('not_found', { providerCode: 'model_not_found' }), 0).action).toBe('fallback');
    expect(decideOnFailure(error('not_found'), 0)).toEqual({ action: 'fail', reason: 'not found (not a missing deployment or model)' });
  });

  it('retries a 429 twice honouring retry-after, then falls back', () => {
    const limited = error('rate_limited', { retryAfterMs: 1500 });
    expect(decideOnFailure(limited, 0)).toEqual({ action: 'retry', delayMs: 1500, reason: 'rate limited, retrying in 1500 ms' });
    expect(decideOnFailure(limited, 1).action).toBe('retry');
    expect(decideOnFailure(limited, 2)).toEqual({ action: 'fallback', reason: 'rate_limited' });
  });

  it('moves on at once when retry-after is long, and waits 1 s when it is absent', () => {
    expect(decideOnFailure(error('rate_limited', { retryAfterMs: 60_000 }), 0)).toEqual({ action: 'fallback', reason: 'rate_limited' });
    expect(decideOnFailure(error('rate_limited'), 0)).toMatchObject({ action: 'retry', delayMs: 1000 });
  });

  it('never falls back or retries after output', () => {
    for (const code of ['rate_limited', 'server', 'overloaded', 'network'] as const) {
      expect(decideOnFailure(error(code, { afterOutput: true }), 0)).toEqual({ action: 'fail', reason: 'output had already streamed' });
    }
  });
});
