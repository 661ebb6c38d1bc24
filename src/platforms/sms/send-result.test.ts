import { describe, expect, it } from 'vitest';
import type { ApiOutcome } from './messages-api.js';
import { classifySend, retryAfterMs, twilioErrorText } from './send-result.js';

const answer = (status: number, body?: unknown, retryAfter: string | null = null): ApiOutcome => ({ kind: 'answer', status, retryAfter, body });
const twilioError = (status: number, code: number, message: string) => ({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });

describe('classifySend', () => {
  it('201 with a message resource → ok with its sid', () => {
    expect(classifySend(answer(201, { sid: 'SMabc', status: 'queued' }))).toEqual({ ok: true, messageId: 'SMabc' });
  });

  it('2xx without a sid → ok with no id', () => {
    expect(classifySend(answer(200, undefined))).toEqual({ ok: true, messageId: null });
  });

  it('429 with Retry-After seconds → retry after that long', () => {
    expect(classifySend(answer(429, twilioError(429, 20429, 'Too Many Requests'), '7'))).toEqual({
      ok: false,
      kind: 'retry',
      reason: 'Twilio answered 429: 20429 Too Many Requests',
      retryAfterMs: 7000,
    });
  });

  it('429 without a usable Retry-After → retry with no wait given', () => {
    expect(classifySend(answer(429, undefined, 'Wed, 21 Oct 2015 07:28:00 GMT'))).toEqual({ ok: false, kind: 'retry', reason: 'Twilio answered 429' });
    expect(classifySend(answer(429, undefined))).toEqual({ ok: false, kind: 'retry', reason: 'Twilio answered 429' });
  });

  it.each([500, 502, 503, 504])('%i → retry', (status) => {
    expect(classifySend(answer(status, twilioError(status, 20500, 'Internal Server Error')))).toEqual({
      ok: false,
      kind: 'retry',
      reason: `Twilio answered ${status}: 20500 Internal Server Error`,
    });
  });

  it.each([
    [400, 21604, "A 'To' phone number is required."],
    [400, 21610, 'Attempt to send to unsubscribed recipient'],
    [401, 20003, 'Authenticate'],
    [403, 20403, 'Forbidden'],
    [404, 20404, 'The requested resource was not found'],
  ])('%i (%i) → permanent, with Twilio’s code and message', (status, code, message) => {
    expect(classifySend(answer(status, twilioError(status, code, message)))).toEqual({
      ok: false,
      kind: 'permanent',
      reason: `Twilio answered ${status}: ${code} ${message}`,
    });
  });

  it('a network failure or timeout → retry with its reason', () => {
    expect(classifySend({ kind: 'failed', reason: 'no answer from Twilio within 15000 ms' })).toEqual({
      ok: false,
      kind: 'retry',
      reason: 'no answer from Twilio within 15000 ms',
    });
  });

  it('a status no Twilio endpoint documents (3xx) → retry', () => {
    expect(classifySend(answer(302))).toEqual({ ok: false, kind: 'retry', reason: 'Twilio answered 302' });
  });
});

describe('retryAfterMs', () => {
  it('reads delay-seconds only', () => {
    expect(retryAfterMs('0')).toBe(0);
    expect(retryAfterMs(' 12 ')).toBe(12_000);
    expect(retryAfterMs('1.5')).toBeUndefined();
    expect(retryAfterMs('-1')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});

describe('twilioErrorText', () => {
  it('joins code and message, and is null for a body without either', () => {
    expect(twilioErrorText({ code: 21617, message: 'too long' })).toBe('21617 too long');
    expect(twilioErrorText({ message: 'only a message' })).toBe('only a message');
    expect(twilioErrorText({})).toBeNull();
    expect(twilioErrorText('text')).toBeNull();
    expect(twilioErrorText(null)).toBeNull();
  });
});
