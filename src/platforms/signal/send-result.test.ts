import { describe, expect, it } from 'vitest';
import type { RpcOutcome } from './rpc.js';
import { classifySendOutcome, retryAfterMs } from './send-result.js';

const rpcError = (code: number, message: string, data: unknown = null): RpcOutcome => ({ kind: 'rpc_error', code, message, data });
const http = (status: number, retryAfter: string | null = null): RpcOutcome => ({ kind: 'http', status, body: '', retryAfter });

/** `data.response` as SendMessageResultUtils writes it when no recipient got the message. */
function results(...entries: Array<{ type: string; retryAfterSeconds?: number }>) {
  return {
    response: {
      timestamp: 1,
      results: entries.map((entry) => ({ recipientAddress: { uuid: null, number: '+15551234567', username: null }, ...entry })),
    },
  };
}

describe('classifySendOutcome', () => {
  it('takes the sent timestamp as the message id', () => {
    expect(classifySendOutcome({ kind: 'result', result: { timestamp: 1700000000123, results: [] } })).toEqual({
      ok: true,
      messageId: '1700000000123',
    });
    expect(classifySendOutcome({ kind: 'result', result: {} })).toEqual({ ok: true, messageId: null });
  });

  it('retries a rate limit (-5), with the longest retryAfterSeconds of the results', () => {
    const data = results({ type: 'RATE_LIMIT_FAILURE', retryAfterSeconds: 3 }, { type: 'RATE_LIMIT_FAILURE', retryAfterSeconds: 7 });
    expect(classifySendOutcome(rpcError(-5, 'Failed to send message due to rate limiting', data))).toEqual({
      ok: false,
      kind: 'retry',
      reason: 'signal-cli error -5: Failed to send message due to rate limiting',
      retryAfterMs: 7000,
    });
    const bare = classifySendOutcome(rpcError(-5, 'Failed to send message due to rate limiting'));
    expect(bare).toMatchObject({ ok: false, kind: 'retry' });
    expect(bare).not.toHaveProperty('retryAfterMs');
  });

  it('retries HTTP 429 with Retry-After, and 5xx', () => {
    expect(classifySendOutcome(http(429, '12'))).toEqual({ ok: false, kind: 'retry', reason: 'HTTP 429 from the signal-cli daemon', retryAfterMs: 12000 });
    expect(classifySendOutcome(http(429))).toEqual({ ok: false, kind: 'retry', reason: 'HTTP 429 from the signal-cli daemon' });
    expect(classifySendOutcome(http(500))).toMatchObject({ ok: false, kind: 'retry' });
    expect(classifySendOutcome(http(503))).toMatchObject({ ok: false, kind: 'retry' });
  });

  it.each([400, 404, 405, 415, 421])('gives up on HTTP %i', (status) => {
    expect(classifySendOutcome(http(status))).toEqual({ ok: false, kind: 'permanent', reason: `HTTP ${status} from the signal-cli daemon` });
  });

  it.each<[string, RpcOutcome]>([
    ['network', { kind: 'network', message: 'ECONNREFUSED' }],
    ['timeout', { kind: 'timeout' }],
    ['cancelled', { kind: 'cancelled' }],
    ['unreadable answer', { kind: 'bad_response', detail: 'the answer is not JSON' }],
    ['internal error (IOException while sending)', rpcError(-32603, 'Failed to send message: timeout (IOException)')],
    ['I/O error', rpcError(-3, 'io')],
  ])('retries %s', (_kind, outcome) => {
    expect(classifySendOutcome(outcome)).toMatchObject({ ok: false, kind: 'retry' });
  });

  it.each<[string, RpcOutcome]>([
    ['no recipients', rpcError(-1, 'No recipients given')],
    ['an unregistered user', rpcError(-1, 'The user +15559999999 is not registered.')],
    ['an invalid number', rpcError(-1, "Invalid phone number 'abc': not a valid number")],
    ['an unknown group', rpcError(-1, 'Group not found: abc=')],
    ['all recipients unregistered', rpcError(-1, 'Failed to send message', results({ type: 'UNREGISTERED_FAILURE' }))],
    ['an untrusted identity (-4)', rpcError(-4, 'Failed to send message due to untrusted identities')],
    ['a rejected captcha (-6)', rpcError(-6, 'Captcha rejected')],
    ['an invalid request (-32600)', rpcError(-32600, 'method field must be set')],
    ['an unknown method (-32601)', rpcError(-32601, 'Method not implemented')],
    ['an unknown account (-32602)', rpcError(-32602, 'Specified account does not exist')],
  ])('gives up on %s', (_kind, outcome) => {
    const result = classifySendOutcome(outcome);
    expect(result).toMatchObject({ ok: false, kind: 'permanent' });
    expect(result).toHaveProperty('reason', expect.stringContaining(String((outcome as { code: number }).code)));
  });

  it('retries "Failed to send message" (-1) when every failure was the network or a rate limit', () => {
    expect(classifySendOutcome(rpcError(-1, 'Failed to send message', results({ type: 'NETWORK_FAILURE' })))).toMatchObject({
      ok: false,
      kind: 'retry',
    });
    expect(
      classifySendOutcome(rpcError(-1, 'Failed to send message', results({ type: 'NETWORK_FAILURE' }, { type: 'RATE_LIMIT_FAILURE', retryAfterSeconds: 2 }))),
    ).toMatchObject({ ok: false, kind: 'retry', retryAfterMs: 2000 });
    expect(
      classifySendOutcome(rpcError(-1, 'Failed to send message', results({ type: 'NETWORK_FAILURE' }, { type: 'IDENTITY_FAILURE' }))),
    ).toMatchObject({ ok: false, kind: 'permanent' });
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates, and nothing else', () => {
    expect(retryAfterMs('5')).toBe(5000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:10 GMT', Date.parse('Thu, 01 Jan 2026 00:00:00 GMT'))).toBe(10_000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:00 GMT', Date.parse('Thu, 01 Jan 2026 00:01:00 GMT'))).toBe(0);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs('-1')).toBeUndefined();
  });
});
