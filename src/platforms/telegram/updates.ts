// One raw Telegram update (an element of getUpdates' result) read into an InboundMessage, or the
// reason it is skipped. Pure. Only new text messages (or captions) reach the agent: edits and
// channel posts are answered by nobody, and a shape we cannot read is skipped, not fatal, so one
// odd update never stalls the queue behind it.
import * as z from 'zod/mini';
import type { InboundMessage } from '../types.js';

export type ParsedUpdate =
  | { readonly kind: 'message'; readonly updateId: number; readonly message: InboundMessage }
  /**
   * `updateId` is null only for an update without a readable `update_id`. `malformed`: a shape
   * Telegram should not send (worth a warning), as opposed to one Iris does not answer.
   */
  | { readonly kind: 'skip'; readonly updateId: number | null; readonly reason: string; readonly malformed: boolean };

const updateSchema = z.looseObject({ update_id: z.int() });

// The fields Iris reads (https://core.telegram.org/bots/api#message); Telegram sends many more.
const messageSchema = z.looseObject({
  message_id: z.int(),
  date: z.int(),
  chat: z.looseObject({ id: z.int(), type: z.string() }),
  from: z.optional(
    z.looseObject({
      id: z.int(),
      username: z.optional(z.string()),
      first_name: z.optional(z.string()),
    }),
  ),
  text: z.optional(z.string()),
  caption: z.optional(z.string()),
  message_thread_id: z.optional(z.int()),
  is_topic_message: z.optional(z.boolean()),
});

/** Update kinds Iris does not answer, with the reason logged when one arrives anyway. */
const UNANSWERED: ReadonlyArray<readonly [key: string, reason: string]> = [
  ['edited_message', 'an edited message'],
  ['channel_post', 'a channel post'],
  ['edited_channel_post', 'an edited channel post'],
];

export function parseUpdate(raw: unknown): ParsedUpdate {
  const update = updateSchema.safeParse(raw);
  if (!update.success) return { kind: 'skip', updateId: null, reason: 'malformed update: no integer update_id', malformed: true };
  const updateId = update.data.update_id;
  const fields = update.data as Record<string, unknown>;

  if (fields.message === undefined) {
    const unanswered = UNANSWERED.find(([key]) => fields[key] !== undefined);
    if (unanswered) return { kind: 'skip', updateId, reason: unanswered[1], malformed: false };
    const kinds = Object.keys(fields).filter((key) => key !== 'update_id');
    return { kind: 'skip', updateId, reason: `not a message (${kinds.join(', ') || 'empty update'})`, malformed: false };
  }

  const parsed = messageSchema.safeParse(fields.message);
  if (!parsed.success) {
    const where = parsed.error.issues[0]?.path.join('.') ?? '';
    return { kind: 'skip', updateId, reason: `malformed message${where ? ` (at ${where})` : ''}`, malformed: true };
  }
  const message = parsed.data;
  if (message.chat.type === 'channel') return { kind: 'skip', updateId, reason: 'a channel post', malformed: false };
  // Messages sent on behalf of a chat (anonymous admins, linked channels) have no `from`.
  if (message.from === undefined) return { kind: 'skip', updateId, reason: 'no sender (sent on behalf of a chat)', malformed: false };
  const text = message.text ?? message.caption;
  if (text === undefined || text.trim() === '') {
    return { kind: 'skip', updateId, reason: 'no text (a sticker, photo without caption, service message, …)', malformed: false };
  }

  return {
    kind: 'message',
    updateId,
    message: {
      platform: 'telegram',
      chatId: String(message.chat.id),
      // Outside forum topics message_thread_id marks a reply thread, which is no place to answer in.
      threadId: message.is_topic_message === true && message.message_thread_id !== undefined ? String(message.message_thread_id) : null,
      messageId: String(message.message_id),
      userId: String(message.from.id),
      userName: nonEmpty(message.from.username) ?? nonEmpty(message.from.first_name) ?? null,
      text,
      isDirect: message.chat.type === 'private',
      receivedAt: message.date * 1000,
    },
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/**
 * A command addressed to another bot in a group (`/new@other_bot`): Telegram shows it to every bot
 * there that reads all messages, and it is not ours to act on (nor to send to the model). Pure.
 */
export function commandForAnotherBot(text: string, botUsername: string | null): boolean {
  if (botUsername === null) return false;
  const addressed = /^\/[A-Za-z0-9_]+@([A-Za-z0-9_]+)(?=\s|$)/.exec(text.trim())?.[1];
  return addressed !== undefined && addressed.toLowerCase() !== botUsername.toLowerCase();
}
