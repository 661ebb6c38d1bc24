import { describe, expect, it } from 'vitest';
import { parseInboundSms } from './inbound.js';

const ACCOUNT = 'AC0123456789abcdef0123456789abcdef';
const SID = 'SM0123456789abcdef0123456789abcdef';
const lookup = (params: Record<string, string>) => (name: string) => params[name] ?? null;
const base = { MessageSid: SID, SmsSid: SID, AccountSid: ACCOUNT, From: '+15557654321', To: '+15550001111', Body: 'hi there', NumMedia: '0' };

describe('parseInboundSms', () => {
  it('maps an inbound SMS to a direct message from the sender, in a chat that is the sender', () => {
    expect(parseInboundSms(lookup(base), ACCOUNT, 1_700_000_000_000)).toEqual({
      ok: true,
      message: {
        platform: 'sms',
        chatId: '+15557654321',
        threadId: null,
        messageId: SID,
        userId: '+15557654321',
        userName: null,
        text: 'hi there',
        isDirect: true,
        receivedAt: 1_700_000_000_000,
      },
    });
  });

  it('falls back to SmsSid when MessageSid is absent', () => {
    const { MessageSid: _dropped, ...rest } = base;
    const parsed = parseInboundSms(lookup(rest), ACCOUNT, 1);
    expect(parsed.ok && parsed.message.messageId).toBe(SID);
  });

  it('keeps the body exactly (spaces, newlines) and takes a missing body as empty (a picture alone)', () => {
    const spaced = parseInboundSms(lookup({ ...base, Body: '  two\nlines ' }), ACCOUNT, 1);
    expect(spaced.ok && spaced.message.text).toBe('  two\nlines ');
    const { Body: _b, ...noBody } = base;
    const empty = parseInboundSms(lookup(noBody), ACCOUNT, 1);
    expect(empty.ok && empty.message.text).toBe('');
  });

  it('refuses a form without From, a message sid or AccountSid as malformed, naming what is missing', () => {
    const { From: _f, MessageSid: _m, SmsSid: _s, ...rest } = base;
    expect(parseInboundSms(lookup(rest), ACCOUNT, 1)).toEqual({ ok: false, code: 'malformed', reason: 'missing From, MessageSid' });
    expect(parseInboundSms(lookup({ ...base, From: '  ' }), ACCOUNT, 1)).toEqual({ ok: false, code: 'malformed', reason: 'missing From' });
    const { AccountSid: _a, ...noAccount } = base;
    expect(parseInboundSms(lookup(noAccount), ACCOUNT, 1)).toEqual({ ok: false, code: 'malformed', reason: 'missing AccountSid' });
  });

  it('refuses a message for another account', () => {
    expect(parseInboundSms(lookup({ ...base, AccountSid: 'ACffffffffffffffffffffffffffffffff' }), ACCOUNT, 1)).toEqual({
      ok: false,
      code: 'foreign-account',
      reason: 'AccountSid is not this account',
    });
  });
});
