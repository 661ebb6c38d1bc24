// One `receive` event from signal-cli's HTTP daemon (GET /api/v1/events) turned into an inbound
// message, or a reason to skip it. Pure.
//
// The event's data is what signal-cli's JsonReceiveMessageHandler writes:
// `{"account":"+bot","envelope":{source, sourceNumber, sourceUuid, sourceName, sourceDevice,
// timestamp, dataMessage?, syncMessage?, receiptMessage?, typingMessage?, …}}`, plus `exception`
// when a message could not be decrypted. Only a data message with text is a message for the
// agent; receipts, typing, sync (our own other devices) and text-less data messages (reactions,
// attachments alone, group updates) are skipped. Fields may be null (Jackson writes nulls) or
// absent, so every one is optional here.
import * as z from 'zod/mini';
import type { InboundMessage } from '../types.js';

export type SkipReason =
  /** Not JSON, or not the shape above (no envelope timestamp, no sender). */
  | 'malformed'
  /** Receipt, typing, sync, story, call, edit, or an envelope signal-cli could not decrypt. */
  | 'not_a_message'
  /** A data message without text: a reaction, an attachment alone, a group update. */
  | 'no_text'
  /** Sent by the bot's own account (note to self); answering it would talk to ourselves. */
  | 'own_account';

export type ParsedEvent =
  | { readonly ok: true; readonly message: InboundMessage }
  | { readonly ok: false; readonly skip: SkipReason; readonly detail: string };

/** Group chats are told apart from numbers (and sender UUIDs) by this prefix on the chat id. */
export const GROUP_PREFIX = 'group.';

const text = () => z.optional(z.nullable(z.string()));

const groupInfoSchema = z.looseObject({
  groupId: z.string().check(z.minLength(1)),
  type: text(),
});

const dataMessageSchema = z.looseObject({
  timestamp: z.number(),
  message: text(),
  groupInfo: z.optional(z.nullable(groupInfoSchema)),
});

const envelopeSchema = z.looseObject({
  source: text(),
  sourceNumber: text(),
  sourceUuid: text(),
  sourceName: text(),
  timestamp: z.number(),
  dataMessage: z.optional(z.nullable(dataMessageSchema)),
});

const eventSchema = z.looseObject({
  account: text(),
  envelope: z.optional(z.nullable(envelopeSchema)),
  exception: z.optional(z.unknown()),
});

function skip(reason: SkipReason, detail: string): ParsedEvent {
  return { ok: false, skip: reason, detail };
}

/**
 * `ownAccount` is the configured bot number; when it is empty, the `account` the daemon names in
 * the event (the account that received it) stands in.
 */
export function parseReceiveEvent(data: string, ownAccount: string): ParsedEvent {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return skip('malformed', 'the event data is not JSON');
  }
  const parsed = eventSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return skip('malformed', `unexpected shape at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  const { envelope, exception } = parsed.data;
  if (!envelope) {
    return exception === undefined ? skip('malformed', 'no envelope') : skip('not_a_message', 'a receive error without an envelope');
  }
  const data_ = envelope.dataMessage;
  if (!data_) return skip('not_a_message', 'no data message (receipt, typing, sync or another kind)');

  const number = nonEmpty(envelope.sourceNumber);
  const uuid = nonEmpty(envelope.sourceUuid);
  // A sender may hide their number (Signal's phone number privacy): then only the UUID is known,
  // and signal-cli accepts the UUID as a recipient, so it serves as the chat id too.
  const userId = number ?? uuid;
  if (!userId) return skip('malformed', 'the envelope names no sender (no sourceNumber or sourceUuid)');

  const self = nonEmpty(ownAccount) ?? nonEmpty(parsed.data.account);
  if (self !== null && number === self) return skip('own_account', 'sent by the bot account itself');

  const body = data_.message ?? '';
  if (body.trim() === '') return skip('no_text', 'a data message without text');

  const group = data_.groupInfo ?? null;
  return {
    ok: true,
    message: {
      platform: 'signal',
      chatId: group ? `${GROUP_PREFIX}${group.groupId}` : userId,
      threadId: null,
      messageId: `${number ?? nonEmpty(envelope.source) ?? userId}:${data_.timestamp}`,
      userId,
      userName: nonEmpty(envelope.sourceName),
      text: body,
      isDirect: group === null,
      receivedAt: envelope.timestamp,
    },
  };
}

function nonEmpty(value: string | null | undefined): string | null {
  return value === undefined || value === null || value === '' ? null : value;
}
