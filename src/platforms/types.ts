// What every chat platform (and SMS) looks like to the platform layer. An adapter knows its wire
// protocol and nothing of the agent: it turns what arrives into `InboundMessage`s handed to the
// sink, and sends `OutboundMessage`s. Access control, sessions, queues, commands, the durable
// inbound record and the outbox live in the layer (src/platforms/*.ts), once for all platforms.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InboundMessage, PlatformName } from '../domain/platforms.js';

export type { InboundMessage, PlatformName } from '../domain/platforms.js';

/** One message to send (already split to the platform's limit). `text` is Markdown from the agent. */
export type OutboundMessage = {
  readonly chatId: string;
  readonly threadId: string | null;
  readonly text: string;
  /**
   * The same for every try of this message, in any process (the outbox row): a platform whose
   * sends take an idempotency key (Discord's enforced nonce) sends it, so a retry after a crash
   * between the platform taking the message and the gateway recording it does not post it twice.
   */
  readonly key?: string;
  /**
   * An earlier try of this message may have reached the platform (it was interrupted, or failed
   * without a clear refusal): a platform that can list what it holds (Slack) looks for `key` first.
   */
  readonly mayHaveBeenSent?: boolean;
};

/**
 * How a send ended. `retry`: 429 (with the platform's retry_after when it gave one), 5xx, a
 * network error or timeout. `permanent`: any other 4xx; it is never tried again.
 */
export type SendResult =
  | { readonly ok: true; readonly messageId: string | null }
  | { readonly ok: false; readonly kind: 'retry'; readonly reason: string; readonly retryAfterMs?: number }
  | { readonly ok: false; readonly kind: 'permanent'; readonly reason: string };

/**
 * Where an adapter hands each message it received. Resolves once the message is stored durably:
 * only then may the platform be acknowledged (the Telegram offset moves, Twilio gets its 200).
 * Rejects when it could not be stored: do not acknowledge, the platform sends it again.
 */
export type InboundSink = (message: InboundMessage) => Promise<void>;

/** For `iris gateway status` and the metrics: connected, or not and why. */
export type ConnectionState = { readonly connected: boolean; readonly detail: string };

/**
 * `iris doctor`: the credentials work and the service answers. A failure says, where it knows,
 * whether the service turned the credentials down or could not be reached (the doctor's fix).
 */
export type PlatformCheckCause = 'credentials' | 'unreachable';
export type PlatformCheck =
  | { readonly ok: true; readonly detail: string }
  | { readonly ok: false; readonly reason: string; readonly cause?: PlatformCheckCause };

/** Where a platform's receiving stands, kept in the store across restarts (opaque text). */
export type PlatformCursor = { load(): Promise<string | undefined>; save(value: string): Promise<void> };

export type PlatformLog = {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
};

export interface PlatformAdapter {
  readonly name: PlatformName;
  /**
   * Starts receiving (long poll, event stream; nothing for SMS, whose messages come over the
   * gateway's listener). Returns once receiving has started; a platform that cannot be reached
   * is not an error here: the adapter keeps reconnecting with backoff and says so in `state()`.
   */
  start(sink: InboundSink): Promise<void>;
  /**
   * Turns the agent's Markdown into the text that is split and sent (SMS and Signal: plain text).
   * Absent: the Markdown itself (`send` renders it, as Telegram does).
   */
  prepare?(markdown: string): string;
  send(message: OutboundMessage, signal?: AbortSignal): Promise<SendResult>;
  /** Shows "typing…" in the chat for a few seconds, where the platform has it; failures are ignored. */
  typing?(chatId: string, threadId: string | null): Promise<void>;
  state(): ConnectionState;
  check(signal?: AbortSignal): Promise<PlatformCheck>;
  /** Stops receiving; a receive in progress is finished or abandoned unacknowledged. */
  stop(): Promise<void>;
  /**
   * Inbound over the gateway's own listener (SMS: `POST /platforms/sms`). The adapter reads the
   * body (with its own cap), checks it and answers; the gateway only routes the path here.
   */
  readonly http?: {
    readonly path: string;
    readonly handle: (request: IncomingMessage, response: ServerResponse, sink: InboundSink) => Promise<void>;
  };
}
