import { describe, expect, it } from 'vitest';
import { classifySendFailure } from './send-result.js';
import { readAnswer } from './web-api.js';

describe('readAnswer', () => {
  it('ok, ok:false with HTTP 200, 429 with Retry-After, a 5xx page', () => {
    expect(readAnswer(200, null, '{"ok":true,"ts":"1.2"}')).toEqual({ ok: true, body: { ok: true, ts: '1.2' } });
    expect(readAnswer(200, null, '{"ok":false,"error":"channel_not_found"}')).toEqual({ ok: false, kind: 'api', status: 200, error: 'channel_not_found' });
    expect(readAnswer(429, '7', '{"ok":false,"error":"ratelimited"}')).toEqual({ ok: false, kind: 'api', status: 429, error: 'ratelimited', retryAfterMs: 7000 });
    expect(readAnswer(503, null, '<html>')).toEqual({ ok: false, kind: 'api', status: 503, error: 'http_503' });
  });
});

describe('classifySendFailure', () => {
  it('429 waits Retry-After', () => {
    expect(classifySendFailure({ ok: false, kind: 'api', status: 429, error: 'ratelimited', retryAfterMs: 3000 })).toMatchObject({ kind: 'retry', retryAfterMs: 3000 });
  });
  it.each(['ratelimited', 'internal_error', 'fatal_error', 'service_unavailable'])('%s passes', (error) => {
    expect(classifySendFailure({ ok: false, kind: 'api', status: 200, error })).toMatchObject({ kind: 'retry' });
  });
  it('5xx and network pass', () => {
    expect(classifySendFailure({ ok: false, kind: 'api', status: 502, error: 'http_502' })).toMatchObject({ kind: 'retry' });
    expect(classifySendFailure({ ok: false, kind: 'network', reason: 'ECONNREFUSED', timedOut: false })).toMatchObject({ kind: 'retry' });
  });
  it.each(['channel_not_found', 'not_in_channel', 'invalid_auth', 'is_archived', 'msg_too_long'])('%s is permanent', (error) => {
    expect(classifySendFailure({ ok: false, kind: 'api', status: 200, error })).toEqual({ ok: false, kind: 'permanent', reason: `Slack: ${error}` });
  });
});

describe('redactSlackTokens', () => {
  it('hides bot, user and app-level tokens', async () => {
    const { redactSlackTokens } = await import('./web-api.js');
    expect(redactSlackTokens('a xoxb-1-2-abc b xapp-1-A1-2-def c xoxp-9')).toBe('a <redacted> b <redacted> c <redacted>');
  });
});
