// Twilio's inbound-message webhook parameters → the platform layer's InboundMessage, or why not.
// Pure; runs only after the signature has been checked. Parameters (docs: messaging/guides/
// webhook-request): MessageSid (34 chars, SM…), SmsSid (the same value, deprecated), AccountSid,
// From, To, Body (up to 1600 characters; empty for a picture alone), NumMedia, NumSegments, …
import type { InboundMessage } from '../types.js';

export type InboundParse =
  | { readonly ok: true; readonly message: InboundMessage }
  /**
   * `malformed`: a field every inbound message has is absent (400).
   * `foreign-account`: well-formed and signed, but for another Twilio account (403).
   */
  | { readonly ok: false; readonly code: 'malformed' | 'foreign-account'; readonly reason: string };

/** The first value of a form parameter, null when absent. */
type Lookup = (name: string) => string | null;

export function parseInboundSms(get: Lookup, ourAccountSid: string, nowMs: number): InboundParse {
  const from = (get('From') ?? '').trim();
  const messageId = (get('MessageSid') ?? get('SmsSid') ?? '').trim();
  const accountSid = (get('AccountSid') ?? '').trim();
  const missing = [from === '' && 'From', messageId === '' && 'MessageSid', accountSid === '' && 'AccountSid'].filter(
    (name): name is string => name !== false,
  );
  if (missing.length > 0) return { ok: false, code: 'malformed', reason: `missing ${missing.join(', ')}` };
  // A request signed with our token but naming another account is not ours to store: Twilio
  // signs each account's (and subaccount's) webhooks with that account's own token.
  if (accountSid !== ourAccountSid) return { ok: false, code: 'foreign-account', reason: 'AccountSid is not this account' };
  return {
    ok: true,
    message: {
      platform: 'sms',
      // An SMS conversation is the sender's number: one-to-one, no threads, no display name.
      chatId: from,
      threadId: null,
      messageId,
      userId: from,
      userName: null,
      text: get('Body') ?? '',
      isDirect: true,
      receivedAt: nowMs,
    },
  };
}
