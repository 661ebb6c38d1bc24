import { describe, expect, it } from 'vitest';
import { REDACTED, redactText, redactValue } from './redact.js';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig_abc-123';

describe('redactText', () => {
  it.each([
    ['Authorization: Bearer abcdefgh1234', 'Authorization: Bearer [redacted]'],
    ['got bearer abc.def-ghi_jk/l+m= back', 'got bearer [redacted] back'],
    ['Basic dXNlcjpwYXNz', 'Basic [redacted]'],
    ['key sk-or-v1-abcdefghijklmnop end', 'key sk-[redacted] end'],
    ['token glpat-AbCdEfGhIjKlMnOpQrSt12 end', 'token [redacted] end'],
    ['gh: ghp_16C7e42F292c6912E7710c838347Ae178B4a failed', 'gh: [redacted] failed'],
    ['GH_TOKEN=ghs_16C7e42F292c6912E7710c838347Ae178B4a', 'GH_TOKEN=[redacted]'],
    ['token github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEF end', 'token [redacted] end'],
    ['slack xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx end', 'slack [redacted] end'],
    ['socket xapp-1-A0123456789-1234567890123-abcdef0123456789 end', 'socket [redacted] end'],
    ['bot 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1 end', 'bot [redacted] end'],
    [`jwt ${JWT} end`, 'jwt [redacted] end'],
    ['https://x/y?api_key=abc&token=def&page=2', 'https://x/y?api_key=[redacted]&token=[redacted]&page=2'],
    ['https://x/?api-key=1&apikey=2&key=3&sig=4&code=5', 'https://x/?api-key=[redacted]&apikey=[redacted]&key=[redacted]&sig=[redacted]&code=[redacted]'],
    ['GET /hook?TOKEN=abc HTTP/1.1', 'GET /hook?TOKEN=[redacted] HTTP/1.1'],
  ])('redacts %j', (text, expected) => {
    expect(redactText(text)).toBe(expected);
  });

  it.each([
    'Bearer short',
    'sk-short',
    'task-abcdefghijk',
    'token=abc',
    'https://x/?page=2&sort=asc',
    'a plain log line',
    'ghp_short',
    'the github_pat_ prefix alone',
    'at 12:30:45 the run ended',
  ])('leaves %j alone', (text) => {
    expect(redactText(text)).toBe(text);
  });

  it('redacts every occurrence', () => {
    expect(redactText('sk-aaaaaaaaaa and sk-bbbbbbbbbb')).toBe('sk-[redacted] and sk-[redacted]');
  });
});

describe('redactValue', () => {
  it('passes non-string scalars through', () => {
    expect(redactValue(1)).toBe(1);
    expect(redactValue(true)).toBe(true);
    expect(redactValue(null)).toBe(null);
    expect(redactValue(undefined)).toBe(undefined);
  });

  it('redacts credential-shaped text in strings', () => {
    expect(redactValue('failed: Bearer abcdefghijkl')).toBe('failed: Bearer [redacted]');
  });

  it('redacts values under secret-named keys, keeping empty ones', () => {
    expect(
      redactValue({ api_key: 'k', apiKey: 'k', token: 42, password: 'p', secret: '', client_secret: null, model: 'm' }),
    ).toEqual({
      api_key: REDACTED,
      apiKey: REDACTED,
      token: REDACTED,
      password: REDACTED,
      secret: '',
      client_secret: null,
      model: 'm',
    });
  });

  it('redacts objects and lists under secret-named keys whole', () => {
    expect(redactValue({ credentials: { user: 'u', pass: 'p' }, token: ['a', 'b'] })).toEqual({
      credentials: REDACTED,
      token: REDACTED,
    });
  });

  it('redacts sensitive headers by name, in any case, and keeps the rest', () => {
    const headers = {
      Authorization: 'Bearer abcdefghijkl',
      'api-key': 'k',
      'X-API-Key': 'k',
      'x-hub-signature-256': 'sha256=abc',
      'x-service-session-token': 't',
      'X-Gitlab-Token': 't',
      Cookie: 'session=1',
      'x-webhook-secret': 's',
      'content-type': 'application/json',
      'user-agent': 'client sk-abcdefghijkl',
    };
    expect(redactValue({ status: 200, headers })).toEqual({
      status: 200,
      headers: {
        Authorization: REDACTED,
        'api-key': REDACTED,
        'X-API-Key': REDACTED,
        'x-hub-signature-256': REDACTED,
        'x-service-session-token': REDACTED,
        'X-Gitlab-Token': REDACTED,
        Cookie: REDACTED,
        'x-webhook-secret': REDACTED,
        'content-type': 'application/json',
        'user-agent': 'client sk-[redacted]',
      },
    });
  });

  it('treats a key spelled Headers like headers', () => {
    expect(redactValue({ Headers: { authorization: 'x' }, headers: null })).toEqual({
      Headers: { authorization: REDACTED },
      headers: null,
    });
  });

  it('turns an Error into its type and redacted message', () => {
    const err = new Error('upstream said Bearer abcdefghijkl');
    err.name = 'FetchError';
    expect(redactValue(err)).toEqual({ type: 'FetchError', message: 'upstream said Bearer [redacted]' });
    expect(redactValue({ err: new TypeError('bad sk-abcdefghijkl') })).toEqual({
      err: { type: 'TypeError', message: 'bad sk-[redacted]' },
    });
  });

  it('walks lists', () => {
    expect(redactValue([{ password: 'p' }, 'sk-abcdefghijkl', 3])).toEqual([{ password: REDACTED }, 'sk-[redacted]', 3]);
  });

  it('replaces a cycle with a marker instead of throwing', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const list: unknown[] = ['x'];
    list.push(list);
    expect(redactValue(cyclic)).toEqual({ a: 1, self: '[…]' });
    expect(redactValue(list)).toEqual(['x', '[…]']);
  });

  it('stops below a bounded depth', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 12; i++) deep = { d: deep };
    let expected: unknown = '[…]';
    for (let i = 0; i < 9; i++) expected = { d: expected };
    expect(redactValue(deep)).toEqual(expected);
  });

  it('does not mutate its input', () => {
    const input = {
      api_key: 'k',
      headers: { authorization: 'Bearer abcdefghijkl', accept: '*/*' },
      nested: [{ note: 'sk-abcdefghijkl' }],
    };
    const before = structuredClone(input);
    redactValue(input);
    expect(input).toEqual(before);
  });
});

describe('redaction follow-ups', () => {
  it('hides OAuth-style query parameters and keeps the fragment', () => {
    expect(redactText('https://x/cb?access_token=abc123&state=s#frag')).toBe(
      'https://x/cb?access_token=[redacted]&state=s#frag',
    );
    expect(redactText('/token?client_secret=zzz&refresh_token=yyy')).toBe(
      '/token?client_secret=[redacted]&refresh_token=[redacted]',
    );
  });

  it('logs an object that appears twice (not a cycle) both times', () => {
    const shared = { model: 'm' };
    expect(redactValue({ a: shared, b: shared })).toEqual({ a: { model: 'm' }, b: { model: 'm' } });
  });
});
