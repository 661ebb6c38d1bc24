import { describe, expect, it } from 'vitest';
import { afterConnectionEnd, gatewayUrlOf } from './reconnect.js';
import type { RestResult } from './rest.js';

const RATE = { limit: null, remaining: null, resetAfterMs: null, bucket: null, global: false, scope: null } as unknown as Extract<RestResult, { ok: true }>['rateLimit'];
const BACKOFF = { firstMs: 1000, maxMs: 30_000 };

describe('gatewayUrlOf', () => {
  it('takes the url', () => {
    expect(gatewayUrlOf({ ok: true, status: 200, body: { url: 'wss://gateway.discord.gg' }, rateLimit: RATE })).toEqual({ ok: true, url: 'wss://gateway.discord.gg' });
  });

  it.each([
    ['an answer without a url', { ok: true, status: 200, body: { url: 5 }, rateLimit: RATE }, 'GET /gateway/bot answered without a url', false],
    ['no network', { ok: false, kind: 'network', reason: 'ECONNREFUSED', timedOut: false }, 'Discord unreachable: ECONNREFUSED', false],
    ['a rejected token', { ok: false, kind: 'api', status: 401, code: 0, message: '401: Unauthorized', rateLimit: RATE }, 'token rejected (401)', true],
    ['another API error', { ok: false, kind: 'api', status: 502, code: 0, message: 'Bad Gateway', rateLimit: RATE }, 'GET /gateway/bot: Discord 502: Bad Gateway', false],
  ] as const)('%s: says why', (_what, answer, detail, tokenRejected) => {
    expect(gatewayUrlOf(answer as RestResult<{ url?: unknown }>)).toEqual({ ok: false, detail, tokenRejected });
  });
});

describe('afterConnectionEnd', () => {
  const input = { ready: false, failures: 2, hasSession: true, backoff: BACKOFF };

  it('INVALID_SESSION that may not be resumed: identify anew', () => {
    expect(afterConnectionEnd({ code: 1000, reason: '', invalidSession: true, resumable: false }, input)).toEqual({ kind: 'identify_anew' });
  });

  it('a resumable INVALID_SESSION keeps the session and backs off', () => {
    expect(afterConnectionEnd({ code: 1000, reason: '', invalidSession: true, resumable: true }, input)).toEqual({
      kind: 'retry',
      clearSession: false,
      clearUrl: false,
      failures: 3,
      detail: 'reconnecting: session invalidated (resumable)',
      delayMs: 4000,
    });
  });

  it('a fatal close (4004, a bad token) ends the session and waits the longest pause', () => {
    expect(afterConnectionEnd({ code: 4004, reason: '' }, { ...input, ready: true })).toMatchObject({ kind: 'retry', clearSession: true, clearUrl: true, failures: 3, delayMs: 30_000 });
  });

  it('4009 (session timed out) cannot be resumed: the session and the url go', () => {
    expect(afterConnectionEnd({ code: 4009, reason: 'timed out' }, input)).toEqual({
      kind: 'retry',
      clearSession: true,
      clearUrl: true,
      failures: 3,
      detail: 'reconnecting: closed (4009 timed out)',
      delayMs: 4000,
    });
  });

  it('a working connection that dropped reconnects at once and resumes', () => {
    expect(afterConnectionEnd({ code: 1006, reason: '' }, { ...input, ready: true })).toEqual({
      kind: 'retry',
      clearSession: false,
      clearUrl: false,
      failures: 1,
      detail: 'reconnecting: closed (1006)',
      delayMs: 0,
    });
  });

  it('a message not stored: resumes after a pause, so Discord replays it', () => {
    expect(afterConnectionEnd({ code: 1000, reason: '', sinkFailed: true }, { ...input, ready: true })).toMatchObject({
      clearSession: false,
      failures: 1,
      detail: 'reconnecting: a message was not stored; resuming to have it again',
      delayMs: 1000,
    });
  });

  it('a zombie connection says so; without a session the url is asked again', () => {
    expect(afterConnectionEnd({ code: 1000, reason: '', zombie: true }, { ...input, hasSession: false })).toMatchObject({
      clearSession: false,
      clearUrl: true,
      detail: 'reconnecting: no HEARTBEAT_ACK; reconnecting',
    });
  });
});
