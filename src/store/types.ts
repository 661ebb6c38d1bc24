// The one Store interface: sessions, their messages, usage, and the webhook inbox. SQLite
// ($IRIS_HOME/state.db) is the embedded default; a PostgreSQL implementation can sit behind the
// same interface later, so every method is async.
import type { Message } from '../domain/messages.js';
import type { KanbanBoard } from './kanban-types.js';
import type { PrThreads } from './pr-thread-types.js';
import type { PlatformStore } from './platform-types.js';
import type { WebhookInbox } from './webhook-types.js';

export type SessionStatus = 'idle' | 'running' | 'interrupted' | 'failed';

export type SessionRecord = {
  readonly id: string;
  /** `cli`, `webhook:<route>`, or a platform name. */
  readonly source: string;
  readonly title: string | null;
  /** The main model resolved when the session was created (or set by /model). */
  readonly provider: string;
  readonly model: string;
  readonly status: SessionStatus;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  readonly updatedAt: number;
};

export type NewSession = Pick<SessionRecord, 'source' | 'provider' | 'model'> & { readonly id?: string; readonly title?: string | null };

export type SessionPatch = Partial<Pick<SessionRecord, 'title' | 'provider' | 'model' | 'status'>>;

/** A session as listed: the record and how many messages it holds. */
export type SessionSummary = SessionRecord & { readonly messageCount: number };

/** What `listSessions` narrows by; every given field must hold. Newest first (`updatedAt`). */
export type SessionQuery = {
  readonly limit?: number;
  /** Exactly this source (`cli`, `webhook:<route>`, `telegram`…). */
  readonly source?: string;
  /** Sources starting with this (`webhook:` for every route). */
  readonly sourcePrefix?: string;
  /** Ids starting with this. */
  readonly idPrefix?: string;
  /** Exactly this title. */
  readonly title?: string;
  /** Last active strictly before this (epoch milliseconds). */
  readonly updatedBefore?: number;
};

export type UsageRecord = {
  readonly sessionId: string | null;
  /** Epoch milliseconds. */
  readonly at: number;
  readonly provider: string;
  readonly model: string;
  /** `main` or an aux task id. */
  readonly task: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedTokens: number;
  /** USD; null when the model's price is unknown (never 0 by default). */
  readonly costUsd: number | null;
};

export type UsageGroupBy = 'model' | 'task';

export type UsageRow = {
  /** `provider · model` when grouped by model, the task id when grouped by task. */
  readonly key: string;
  readonly provider?: string;
  readonly model?: string;
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedTokens: number;
  /** Sum of known costs; null when no call of the group had a known price. */
  readonly costUsd: number | null;
  /** Calls whose price was unknown (their cost is not in costUsd). */
  readonly unpricedCalls: number;
  /** By model: the tasks it served; by task: the models that served it. */
  readonly served: readonly string[];
};

/** One skill's loads over a window. */
export type SkillUsage = {
  readonly skill: string;
  readonly loads: number;
  /** Epoch milliseconds of the last load in the window. */
  readonly lastLoadAt: number;
};

/** Every skill load (the load_skill tool, a webhook route's skill), for the curator. */
export interface SkillLoads {
  /** `sessionId` is null for a load outside a session. */
  record(skill: string, sessionId: string | null, at: number): Promise<void>;
  /** The skills loaded at or after `since`, most loaded first (then by name). */
  usageSince(since: number): Promise<SkillUsage[]>;
}

export interface Store {
  createSession(input: NewSession): Promise<SessionRecord>;
  getSession(id: string): Promise<SessionRecord | undefined>;
  listSessions(query?: SessionQuery): Promise<SessionSummary[]>;
  updateSession(id: string, patch: SessionPatch): Promise<SessionRecord | undefined>;
  /**
   * Deletes these sessions with their messages, in one transaction, except any that is running
   * (checked inside the transaction); their usage stays, unlinked. Returns the ids deleted.
   */
  deleteSessions(ids: readonly string[]): Promise<string[]>;
  /** Appends in order, in one transaction. */
  appendMessages(sessionId: string, messages: readonly Message[]): Promise<void>;
  /** Replaces the whole history in one transaction (compression). */
  replaceMessages(sessionId: string, messages: readonly Message[]): Promise<void>;
  loadMessages(sessionId: string): Promise<Message[]>;
  recordUsage(record: UsageRecord): Promise<void>;
  usageSummary(options: { readonly since?: number; readonly by: UsageGroupBy }): Promise<UsageRow[]>;
  /** The gateway's durable inbox and dedup records. */
  readonly webhooks: WebhookInbox;
  /** The kanban board (kanban-types.ts). */
  readonly kanban: KanbanBoard;
  readonly skillLoads: SkillLoads;
  /** Chat platforms: received messages, the outbox, conversations, pairing (platform-types.ts). */
  readonly platforms: PlatformStore;
  /** Pull-request reviews: each PR's session, last reviewed head and summary comment (pr-thread-types.ts). */
  readonly prThreads: PrThreads;
  close(): Promise<void>;
}
