import { describe, expect, it } from 'vitest';
import { parseApproveBody, parseRevokeBody, parseTestBody } from './platforms-requests.js';

describe('platform request bodies', () => {
  it('reads a pairing code, and refuses anything else', () => {
    expect(parseApproveBody({ code: ' k7q2m9xd ' })).toEqual({ ok: true, value: 'k7q2m9xd' });
    expect(parseApproveBody({ code: 'a b' })).toEqual({ ok: false, error: '"code" must be the pairing code the user was sent (letters and digits)' });
    expect(parseApproveBody({ code: 1 })).toEqual({ ok: false, error: 'the body must be {"code": "<pairing code>"}' });
    expect(parseApproveBody({ code: 'K7Q2M9XD', extra: true })).toEqual({ ok: false, error: 'the body must be {"code": "<pairing code>"}' });
  });

  it('reads a user id on one line', () => {
    expect(parseRevokeBody({ user: '+15550001111' })).toEqual({ ok: true, value: '+15550001111' });
    expect(parseRevokeBody({ user: '  ' })).toEqual({ ok: false, error: '"user" is empty' });
    expect(parseRevokeBody({ user: 'a\nb' })).toEqual({ ok: false, error: '"user" must be one line of at most 200 characters' });
    expect(parseRevokeBody([])).toEqual({ ok: false, error: 'the body must be {"user": "<platform user id>"}' });
  });

  it('reads the test chat, none meaning the home channel', () => {
    expect(parseTestBody({})).toEqual({ ok: true, value: null });
    expect(parseTestBody({ chat: ' ' })).toEqual({ ok: true, value: null });
    expect(parseTestBody({ chat: '-100123' })).toEqual({ ok: true, value: '-100123' });
    expect(parseTestBody({ chat: 5 })).toEqual({ ok: false, error: 'the body must be {} (the home channel) or {"chat": "<chat id>"}' });
    expect(parseTestBody({ chat: 'x'.repeat(201) })).toEqual({ ok: false, error: '"chat" must be one line of at most 200 characters' });
  });
});
