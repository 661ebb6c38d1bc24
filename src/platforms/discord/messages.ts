// One MESSAGE_CREATE read into an InboundMessage, or the reason it is skipped. Pure.
//
// Answered: DMs, and in guild channels messages that mention the bot (mentions[] holds its id),
// with the mention itself taken out of the text. Skipped: the bot's own posts (Discord sends them
// back as events) and other bots', messages that are not plain (type 0) or replies (type 19), and
// messages without text. A message in a thread has the thread as channel_id: `placeInChannel`
// makes the parent the chat and the thread the thread, once the channel is known.
import * as z from 'zod/mini';
import type { InboundMessage } from '../types.js';

export type ParsedMessage =
  | { readonly kind: 'message'; readonly message: InboundMessage; readonly guildId: string | null }
  | { readonly kind: 'skip'; readonly reason: string; readonly malformed: boolean };

const MESSAGE_TYPES_ANSWERED = new Set([0, 19]);
/** Channel types that are threads: announcement, public and private threads. */
const THREAD_TYPES = new Set([10, 11, 12]);

const snowflake = z.string().check(z.regex(/^\d{1,20}$/));
const messageSchema = z.looseObject({
  id: snowflake,
  channel_id: snowflake,
  guild_id: z.optional(snowflake),
  type: z.int(),
  content: z.string(),
  timestamp: z.optional(z.string()),
  author: z.looseObject({ id: snowflake, username: z.optional(z.string()), global_name: z.optional(z.nullable(z.string())), bot: z.optional(z.boolean()) }),
  mentions: z.optional(z.array(z.looseObject({ id: z.string() }))),
});

export function parseMessageCreate(d: unknown, botId: string | null, nowMs: number): ParsedMessage {
  const parsed = messageSchema.safeParse(d);
  if (!parsed.success) {
    const where = parsed.error.issues[0]?.path.join('.') ?? '';
    return { kind: 'skip', reason: `malformed MESSAGE_CREATE${where ? ` (at ${where})` : ''}`, malformed: true };
  }
  const m = parsed.data;
  if (botId !== null && m.author.id === botId) return { kind: 'skip', reason: 'the bot’s own message', malformed: false };
  if (m.author.bot === true) return { kind: 'skip', reason: 'a message from another bot', malformed: false };
  if (!MESSAGE_TYPES_ANSWERED.has(m.type)) return { kind: 'skip', reason: `not a plain message (type ${m.type})`, malformed: false };
  const guildId = m.guild_id ?? null;
  if (guildId !== null && !(botId !== null && (m.mentions ?? []).some((user) => user.id === botId))) {
    return { kind: 'skip', reason: 'a guild message that does not mention the bot', malformed: false };
  }
  const text = botId === null ? m.content.trim() : stripMention(m.content, botId);
  if (text === '') return { kind: 'skip', reason: 'no text (an attachment, an embed, only a mention, or no Message Content intent)', malformed: false };
  const at = m.timestamp !== undefined ? Date.parse(m.timestamp) : NaN;
  return {
    kind: 'message',
    guildId,
    message: {
      platform: 'discord',
      chatId: m.channel_id,
      threadId: null,
      messageId: m.id,
      userId: m.author.id,
      userName: nonEmpty(m.author.username) ?? nonEmpty(m.author.global_name ?? undefined) ?? null,
      text,
      isDirect: guildId === null,
      receivedAt: Number.isFinite(at) ? at : nowMs,
    },
  };
}

/** Removes <@BOTID> and <@!BOTID> wherever they are, and the spaces they leave. */
export function stripMention(content: string, botId: string): string {
  return content
    .split(`<@${botId}>`)
    .join(' ')
    .split(`<@!${botId}>`)
    .join(' ')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

export type ChannelInfo = { readonly id: string; readonly type: number; readonly parentId: string | null };

/** Reads GET /channels/{id} (or a THREAD_CREATE's d). */
export function readChannel(raw: unknown): ChannelInfo | null {
  if (raw === null || typeof raw !== 'object') return null;
  const { id, type, parent_id: parentId } = raw as Record<string, unknown>;
  if (typeof id !== 'string' || typeof type !== 'number') return null;
  return { id, type, parentId: typeof parentId === 'string' ? parentId : null };
}

export function isThread(channel: ChannelInfo): boolean {
  return THREAD_TYPES.has(channel.type) && channel.parentId !== null;
}

/** A message in a thread: the parent channel is the chat, the thread the thread. */
export function placeInChannel(message: InboundMessage, channel: ChannelInfo | null): InboundMessage {
  if (channel === null || channel.id !== message.chatId || !isThread(channel)) return message;
  return { ...message, chatId: channel.parentId as string, threadId: channel.id };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
