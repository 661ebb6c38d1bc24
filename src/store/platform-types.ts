// The platform layer's durable state (`store.platforms`): every message received in a chat, the
// outbox of messages to send, which session each conversation is in, and pairing.
//
// Inbound: a message is stored (deduplicated on platform, chat_id, message_id) before the platform
// is acknowledged, as `queued`. Conversations run one message at a time: the oldest queued message
// of a conversation with none `running` is claimed. A run ends `answered` with its reply parts put
// in the outbox in the same transaction, so a crash either re-runs the message (it was still
// `running`) or sends the stored reply, never both. `ignored` records a message that starts no run
// (an unknown user in a group), so a redelivery of it is recognised too.
//
// Outbox: `queued` → `sending` → `sent`, or `failed` after the last retry or a permanent error. A
// chat's messages go out in order: only the oldest unsent message of a chat is ever due.
import type { InboundMessage, PlatformName } from '../domain/platforms.js';

export const INBOUND_STATES = ['queued', 'running', 'answered', 'failed', 'ignored'] as const;
export type InboundState = (typeof INBOUND_STATES)[number];

export type InboundRecord = InboundMessage & {
  readonly id: number;
  /** The conversation (session-key.ts): one run at a time per key. */
  readonly sessionKey: string;
  readonly state: InboundState;
  readonly attempts: number;
  readonly error: string | null;
  readonly updatedAt: number;
};

export const OUTBOX_STATES = ['queued', 'sending', 'sent', 'failed'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

export type NewOutboxMessage = {
  readonly platform: PlatformName;
  readonly chatId: string;
  readonly threadId: string | null;
  readonly text: string;
  /**
   * What it answers, so enqueueing twice does nothing: `inbound:<id>`, `webhook:<event id>`,
   * `pairing:<platform>:<user>:<code>`, or null (iris send: every call is a new message).
   */
  readonly origin: string | null;
  /** Its place among the parts of one split answer (0, 1, …). */
  readonly part: number;
};

export type OutboxRecord = NewOutboxMessage & {
  readonly id: number;
  readonly state: OutboxState;
  /** Sends tried so far. */
  readonly attempts: number;
  /** Epoch milliseconds: not sent before this. */
  readonly nextAttemptAt: number;
  readonly lastError: string | null;
  /** The platform's id of the sent message. */
  readonly sentMessageId: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  /**
   * On a claimed row only: it was claimed before, so an earlier try may have reached the platform
   * (it failed without a clear answer, or its sender died mid-send).
   */
  readonly triedBefore?: boolean;
};

export type PairingRequest = {
  readonly platform: PlatformName;
  readonly userId: string;
  readonly userName: string | null;
  readonly chatId: string;
  readonly code: string;
  readonly createdAt: number;
  readonly expiresAt: number;
};

export type ApprovedUser = { readonly platform: PlatformName; readonly userId: string; readonly userName: string | null; readonly approvedAt: number };

export interface PlatformStore {
  /**
   * Stores a received message as `queued` (or `ignored`); `stored: false` when (platform, chatId,
   * messageId) is stored already (a redelivery), with that record's id.
   */
  recordInbound(message: InboundMessage, sessionKey: string, state: 'queued' | 'ignored'): Promise<{ readonly stored: boolean; readonly id: number }>;
  /**
   * The oldest `queued` message of a conversation that has no `running` one, now `running` with
   * one more attempt; undefined when there is none. On PostgreSQL a `running` message whose lease
   * lapsed (its worker died) is claimable again, and counts as running no more.
   */
  claimNextInbound(): Promise<InboundRecord | undefined>;
  getInbound(id: number): Promise<InboundRecord | undefined>;
  /** `answered` (or `failed` with `error`), and its reply parts in the outbox: one transaction. */
  finishInbound(id: number, outcome: { readonly state: 'answered' | 'failed'; readonly error?: string }, replies: readonly NewOutboxMessage[]): Promise<void>;
  /** Back to `queued` (a shutdown cut the run off). */
  releaseInbound(id: number): Promise<void>;
  /**
   * At start: every `running` message (its process died) back to `queued`; how many. On
   * PostgreSQL, shared by several processes: only those whose lease lapsed, whose process on this
   * host is gone, or that this process holds; another live worker's runs stay.
   */
  recoverInbound(): Promise<number>;
  /** Messages waiting or running. */
  inboundDepth(): Promise<number>;

  /** Adds to the outbox, due now; a message whose (origin, part) is there already is not added again. Returns the ids. */
  enqueue(messages: readonly NewOutboxMessage[]): Promise<number[]>;
  /**
   * Up to `limit` of the platform's due messages (`queued`, next attempt ≤ now, the oldest unsent
   * of their chat), now `sending`, claimed by `claimer` (a process id; this process's by default).
   * Per platform: a platform that is not running keeps its queue. On PostgreSQL a `sending` row
   * whose lease lapsed (its worker died mid-send) is due again too.
   */
  claimDueOutbox(platform: PlatformName, now: number, limit: number, claimer?: number): Promise<OutboxRecord[]>;
  markSent(id: number, sentMessageId: string | null): Promise<void>;
  /** Back to `queued` until `nextAttemptAt`, one more attempt counted. */
  scheduleRetry(id: number, nextAttemptAt: number, error: string): Promise<void>;
  markFailed(id: number, error: string): Promise<void>;
  getOutbox(id: number): Promise<OutboxRecord | undefined>;
  /**
   * `sending` rows whose claimer is not alive (it died mid-send) back to `queued`; how many. A row
   * another live process is sending (`iris send` while the gateway starts) is left to it.
   * Without `isAlive`, every claimer counts as dead. On PostgreSQL a row whose lease lapsed is put
   * back too, and a row claimed on another host under a live lease never is.
   */
  recoverOutbox(isAlive?: (pid: number) => boolean): Promise<number>;
  /** The soonest next attempt of a queued message, if any (the drain's timer). */
  nextOutboxAttempt(): Promise<number | undefined>;
  outboxDepth(): Promise<number>;
  /** Outbox rows that ended `failed` (after the last retry, or a permanent error) at or after `since`. */
  outboxFailedSince(since: number): Promise<number>;

  /** Where a platform's receiving stands (opaque to the store), kept across restarts. */
  getCursor(platform: PlatformName): Promise<string | undefined>;
  setCursor(platform: PlatformName, value: string): Promise<void>;

  /** The session a conversation is in. */
  sessionFor(sessionKey: string): Promise<string | undefined>;
  setSession(sessionKey: string, sessionId: string): Promise<void>;

  /** The user's unexpired request if there is one; else this new one is stored and returned (`created`). */
  requestPairing(request: PairingRequest, now: number): Promise<{ readonly request: PairingRequest; readonly created: boolean }>;
  /** Unexpired requests, oldest first. */
  pendingPairings(now: number, platform?: PlatformName): Promise<PairingRequest[]>;
  /** The code's user becomes approved and the request is removed; undefined for an unknown or expired code. */
  approvePairing(platform: PlatformName, code: string, now: number): Promise<ApprovedUser | undefined>;
  /** True when the user was approved. */
  revokeUser(platform: PlatformName, userId: string): Promise<boolean>;
  isApproved(platform: PlatformName, userId: string): Promise<boolean>;
  approvedUsers(platform?: PlatformName): Promise<ApprovedUser[]>;

  /** Removes answered/failed/ignored inbound and sent/failed outbox rows last changed before `before`, and expired pairing requests. */
  prune(before: number, now: number): Promise<number>;
}
