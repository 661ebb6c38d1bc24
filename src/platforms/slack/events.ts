// One Socket Mode frame read into what the socket loop does with it. Pure.
//
// Frames (https://api.slack.com/apis/socket-mode): `{type:"hello",…}` once connected;
// `{type:"disconnect",reason}` before Slack closes the socket (reason warning, refresh_requested,
// link_disabled); envelopes `{envelope_id,type,payload,accepts_response_payload,retry_attempt,
// retry_reason}` which the app acknowledges with `{envelope_id}`. An `events_api` envelope's
// payload is an `event_callback` whose `event` Iris answers when it is a message in a DM
// (message.im) or a mention in a channel (app_mention). Everything else is acknowledged and
// skipped, so Slack does not send it again.
import * as z from 'zod/mini';
import type { InboundMessage } from '../types.js';

export type ParsedFrame =
  | { readonly kind: 'hello' }
  | { readonly kind: 'disconnect'; readonly reason: string }
  | { readonly kind: 'message'; readonly envelopeId: string; readonly retryAttempt: number; readonly message: InboundMessage }
  /**
   * Acknowledged, not answered. `envelopeId` is null when the frame had none (nothing to ack).
   * `malformed`: a shape Slack should not send (worth a warning), as opposed to one Iris ignores.
   */
  | { readonly kind: 'skip'; readonly envelopeId: string | null; readonly reason: string; readonly malformed: boolean };

const frameSchema = z.looseObject({ type: z.optional(z.string()), envelope_id: z.optional(z.string()), reason: z.optional(z.string()), retry_attempt: z.optional(z.number()), payload: z.optional(z.unknown()) });

const callbackSchema = z.looseObject({ type: z.string(), event: z.optional(z.unknown()) });

// The fields Iris reads; Slack sends many more.
const eventSchema = z.looseObject({
  type: z.string(),
  subtype: z.optional(z.string()),
  user: z.optional(z.string()),
  bot_id: z.optional(z.nullable(z.string())),
  text: z.optional(z.string()),
  ts: z.string(),
  thread_ts: z.optional(z.string()),
  channel: z.string(),
  channel_type: z.optional(z.string()),
});

export type ParseContext = {
  /** The bot's own user id (auth.test's user_id), null while unknown. */
  readonly botUserId: string | null;
  readonly nowMs: number;
};

export function parseFrame(text: string, context: ParseContext): ParsedFrame {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { kind: 'skip', envelopeId: null, reason: 'a frame that is not JSON', malformed: true };
  }
  const frame = frameSchema.safeParse(raw);
  if (!frame.success) return { kind: 'skip', envelopeId: null, reason: 'a frame that is not an object', malformed: true };
  const { type, envelope_id: envelopeId } = frame.data;
  if (type === 'hello') return { kind: 'hello' };
  if (type === 'disconnect') return { kind: 'disconnect', reason: frame.data.reason ?? 'no reason given' };
  if (envelopeId === undefined || envelopeId === '') return { kind: 'skip', envelopeId: null, reason: `a frame of type ${type ?? '(none)'} without envelope_id`, malformed: true };
  const skip = (reason: string, malformed = false): ParsedFrame => ({ kind: 'skip', envelopeId, reason, malformed });
  if (type !== 'events_api') return skip(`a ${type ?? 'typeless'} envelope (only events are answered)`);
  const callback = callbackSchema.safeParse(frame.data.payload);
  if (!callback.success) return skip('an events_api envelope without a payload', true);
  if (callback.data.type !== 'event_callback') return skip(`a ${callback.data.type} payload`);
  const event = eventSchema.safeParse(callback.data.event);
  if (!event.success) return skip('an event without type, ts or channel', true);
  const parsed = readEvent(event.data, context);
  if (typeof parsed === 'string') return skip(parsed);
  return { kind: 'message', envelopeId, retryAttempt: frame.data.retry_attempt ?? 0, message: parsed };
}

type SlackEvent = z.output<typeof eventSchema>;

/** The message, or why it is not answered. */
function readEvent(event: SlackEvent, context: ParseContext): InboundMessage | string {
  if (event.type !== 'message' && event.type !== 'app_mention') return `a ${event.type} event`;
  if (event.subtype !== undefined) return `a message with subtype ${event.subtype}`;
  if ((event.bot_id ?? '') !== '' || (context.botUserId !== null && event.user === context.botUserId)) return 'a message from a bot (or Iris itself)';
  if (event.user === undefined || event.user === '') return 'a message without a user';
  const isDirect = event.channel_type === 'im';
  // message.im only; channel messages reach Iris as app_mention (the same message would come twice).
  if (event.type === 'message' && !isDirect) return `a message in a ${event.channel_type ?? 'non-DM'} channel without a mention`;
  const text = stripMention(event.text ?? '', context.botUserId).trim();
  if (text === '') return 'a message without text';
  // A top-level mention is answered in a thread under it: the thread is the mention's own ts.
  const threadId = event.thread_ts ?? (event.type === 'app_mention' && !isDirect ? event.ts : null);
  const seconds = Number(event.ts);
  return {
    platform: 'slack',
    chatId: event.channel,
    threadId,
    messageId: event.ts,
    userId: event.user,
    userName: null,
    text,
    isDirect,
    receivedAt: Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds * 1000) : context.nowMs,
  };
}

/** Removes `<@BOTID>` (or `<@BOTID|name>`) wherever it is; any user mention when the id is unknown and it leads. */
export function stripMention(text: string, botUserId: string | null): string {
  if (botUserId === null) return text.replace(/^\s*<@[A-Z0-9]+(?:\|[^>]*)?>\s*/, '');
  const escaped = botUserId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`<@${escaped}(?:\\|[^>]*)?>\\s*`, 'g'), '');
}
