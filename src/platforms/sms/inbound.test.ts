import { describe, expect, it } from 'vitest';
import { parseInboundSms } from './inbound.js';

const ACCOUNT = 'AC0123456789abcdef0123456789abcdef';
const SID = 'SM0123456789abcdef0123456789abcdef';
/** `params` without the named fields. */
function without(params: Record<string, string>, ...names: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(params).filter(([name]) => !names.includes(name)));
}
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
    const parsed = parseInboundSms(lookup(without(base, 'MessageSid')), ACCOUNT, 1);
    expect(parsed.ok && parsed.message.messageId).toBe(SID);
  });

  it('keeps the body exactly (spaces, newlines) and takes a missing body as empty (a picture alone)', () => {
    const spaced = parseInboundSms(lookup({ ...base, Body: '  two\nlines ' }), ACCOUNT, 1);
    expect(spaced.ok && spaced.message.text).toBe('  two\nlines ');
    const empty = parseInboundSms(lookup(without(base, 'Body')), ACCOUNT, 1);
    expect(empty.ok && empty.message.text).toBe('');
  });

  it('refuses a form without From, a message sid or AccountSid as malformed, naming what is missing', () => {
    expect(parseInboundSms(lookup(without(base, 'From', 'MessageSid', 'SmsSid')), ACCOUNT, 1)).toEqual({ ok: false, code: 'malformed', reason: 'missing From, MessageSid' });
    expect(parseInboundSms(lookup({ ...base, From: '  ' }), ACCOUNT, 1)).toEqual({ ok: false, code: 'malformed', reason: 'missing From' });
    expect(parseInboundSms(lookup(without(base, 'AccountSid')), ACCOUNT, 1)).toEqual({ ok: false, code: 'malformed', reason: 'missing AccountSid' });
  });

  it('refuses a message for another account', () => {
    expect(parseInboundSms(lookup({ ...base, AccountSid: 'ACffffffffffffffffffffffffffffffff' }), ACCOUNT, 1)).toEqual({
      ok: false,
      code: 'foreign-account',
      reason: 'AccountSid is not this account',
    });
  });
});
