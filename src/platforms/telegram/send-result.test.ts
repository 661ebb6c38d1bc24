import { describe, expect, it } from 'vitest';
import type { BotApiFailure } from './bot-api.js';
import { classifySendFailure, isEntityParseError } from './send-result.js';

const api = (status: number, description: string, retryAfterMs?: number): BotApiFailure => ({
  ok: false,
  kind: 'api',
  status,
  errorCode: status,
  description,
  ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
});

describe('classifySendFailure', () => {
  it('429 is retried after Telegram\'s retry_after', () => {
    expect(classifySendFailure(api(429, 'Too Many Requests: retry after 7', 7000))).toEqual({
      ok: false,
      kind: 'retry',
      reason: 'Telegram 429: Too Many Requests: retry after 7',
      retryAfterMs: 7000,
    });
  });

  it('429 without retry_after is retried on the outbox\'s own schedule', () => {
    expect(classifySendFailure(api(429, 'Too Many Requests'))).toEqual({ ok: false, kind: 'retry', reason: 'Telegram 429: Too Many Requests' });
  });

  it.each([500, 502, 503, 504])('%i is retried', (status) => {
    expect(classifySendFailure(api(status, 'Internal Server Error'))).toEqual({
      ok: false,
      kind: 'retry',
      reason: `Telegram ${status}: Internal Server Error`,
    });
  });

  it.each([
    [400, 'Bad Request: chat not found'],
    [400, 'Bad Request: message is too long'],
    [401, 'Unauthorized'],
    [403, 'Forbidden: bot was blocked by the user'],
    [404, 'Not Found'],
    [409, 'Conflict'],
  ])('%i %s is permanent', (status, description) => {
    expect(classifySendFailure(api(status, description))).toEqual({ ok: false, kind: 'permanent', reason: `Telegram ${status}: ${description}` });
  });

  it('a network error is retried', () => {
    expect(classifySendFailure({ ok: false, kind: 'network', reason: 'fetch failed: connect ECONNREFUSED 127.0.0.1:9', timedOut: false })).toEqual({
      ok: false,
      kind: 'retry',
      reason: 'Telegram did not answer: fetch failed: connect ECONNREFUSED 127.0.0.1:9',
    });
  });

  it('a timeout is retried', () => {
    expect(classifySendFailure({ ok: false, kind: 'network', reason: 'no answer within 30000 ms', timedOut: true })).toMatchObject({ kind: 'retry' });
  });

  it('an unexpected redirect is retried, not dropped', () => {
    expect(classifySendFailure(api(302, 'HTTP 302 without a Bot API answer'))).toMatchObject({ kind: 'retry' });
  });
});

describe('isEntityParseError', () => {
  it('is the 400 about parsing entities', () => {
    expect(isEntityParseError(api(400, "Bad Request: can't parse entities: Unsupported start tag \"x\" at byte offset 3"))).toBe(true);
  });

  it.each([
    api(400, 'Bad Request: chat not found'),
    api(500, "can't parse entities"),
    { ok: false, kind: 'network', reason: "can't parse entities", timedOut: false } as const,
  ])('is nothing else (%j)', (failure) => {
    expect(isEntityParseError(failure)).toBe(false);
  });
});
