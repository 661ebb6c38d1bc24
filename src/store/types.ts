// The one Store interface: sessions, their messages, usage, the webhook inbox, the chat platforms'
// state, kanban, skill loads and PR threads. SQLite ($IRIS_HOME/state.db, sqlite-store.ts) is the
// embedded default; PostgreSQL (pg/pg-store.ts) sits behind the same interface for several
// processes on several hosts, so every method is async.
import type { Message } from '../domain/messages.js';
import type { RetentionCounts, RetentionCutoffs } from '../domain/retention.js';
import type { UsageGroupBy, UsageSource } from '../domain/usage-ledger.js';
import type { KanbanBoard } from './kanban-types.js';
import type { PrThreads } from './pr-thread-types.js';
import type { PrFindings } from './pr-finding-types.js';
import type { PlatformStore } from './platform-types.js';
import type { SessionBrowser } from './session-browser.js';
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
  /** The session the call served; it may have been deleted since (usage outlives its session). */
  readonly sessionId: string | null;
  /** Whose run the call served (`cli`, `dashboard`, `webhook:<route>`, `platform:<name>`, `gateway`). */
  readonly source: UsageSource;
  /** Epoch milliseconds. */
  readonly at: number;
  readonly provider: string;
  readonly model: string;
  /** `main` or an aux task id. */
  readonly task: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Input tokens read from the prompt cache (part of inputTokens). */
  readonly cachedTokens: number;
  /** Input tokens written to the prompt cache (part of inputTokens; Anthropic's cache_creation_input_tokens). */
  readonly cacheWriteTokens: number;
  /** USD; null when the model's price is unknown (never 0 by default). */
  readonly costUsd: number | null;
};

export type { UsageGroupBy };

/** Calls at or after `since` and before `until` (epoch milliseconds), grouped `by`. */
export type UsageQuery = { readonly since?: number; readonly until?: number; readonly by: UsageGroupBy };

export type UsageRow = {
  /** `provider · model` by model, the task id by task, the UTC day (`2026-11-28`) by day, the source by source. */
  readonly key: string;
  readonly provider?: string;
  readonly model?: string;
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedTokens: number;
  readonly cacheWriteTokens: number;
  /** Sum of known costs; null when no call of the group had a known price. */
  readonly costUsd: number | null;
  /** Calls whose price was unknown (their cost is not in costUsd). */
  readonly unpricedCalls: number;
  /** By model: the tasks it served; by task, day or source: the models that served it. */
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

/** Where sharing work between processes wakes the idle ones: the inbox, chat messages, the outbox. */
export type WakeChannel = 'inbox' | 'inbound' | 'outbox';

/**
 * Wakes idle workers in other processes when work arrives (PostgreSQL's LISTEN/NOTIFY). The store
 * itself notifies, in the transaction that adds the work (an accepted event, a received message, an
 * enqueued reply), so a wake never comes before the work is visible. Absent on SQLite, where one
 * process does the work and wakes itself; polling stays the fallback on both.
 */
export interface StoreWakeups {
  /** Calls `onWake` whenever work may be waiting on `channel`; resolves to the unsubscribe. */
  subscribe(channel: WakeChannel, onWake: () => void): Promise<() => Promise<void>>;
}

export type SharedRateDecision = { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };

/**
 * A sliding-window rate limit kept in the database, so every listener process shares one window
 * per key (a route). Present on PostgreSQL; on SQLite the one listener keeps it in memory.
 */
export interface SharedRateLimiter {
  /** Records a request for `key` if fewer than `limit` were let in within the last `windowMs`; else when to retry. */
  take(key: string, limit: number, windowMs: number): Promise<SharedRateDecision>;
  /** Gives back the newest request recorded for `key` (it turned out to be a duplicate). */
  refund(key: string): Promise<void>;
}

/**
 * What the store keeps (DECISIONS "Retention"; the cut-offs come from domain/retention.ts). Both
 * methods leave curator reports (files, not the store's) at 0.
 */
export interface StoreRetention {
  /** What prune would remove now, without removing anything. */
  plan(cutoffs: RetentionCutoffs): Promise<RetentionCounts>;
  /**
   * Deletes old sessions (their messages with them; never a running one) and skill loads, and
   * folds old usage detail rows into per-day totals, in short batches.
   */
  prune(cutoffs: RetentionCutoffs): Promise<RetentionCounts>;
}

export interface Store {
  /** Which database: `sqlite` (one host) or `postgres` (shared by many processes). */
  readonly backend: 'sqlite' | 'postgres';
  /** The store's name in messages: the SQLite file, or the PostgreSQL URL without its password. */
  readonly location: string;
  createSession(input: NewSession): Promise<SessionRecord>;
  getSession(id: string): Promise<SessionRecord | undefined>;
  listSessions(query?: SessionQuery): Promise<SessionSummary[]>;
  updateSession(id: string, patch: SessionPatch): Promise<SessionRecord | undefined>;
  /**
   * Deletes these sessions with their messages, in one transaction, except any that is running
   * (checked inside the transaction); their usage stays as it was. Returns the ids deleted.
   */
  deleteSessions(ids: readonly string[]): Promise<string[]>;
  /** Appends in order, in one transaction. */
  appendMessages(sessionId: string, messages: readonly Message[]): Promise<void>;
  /** Replaces the whole history in one transaction (compression). */
  replaceMessages(sessionId: string, messages: readonly Message[]): Promise<void>;
  loadMessages(sessionId: string): Promise<Message[]>;
  recordUsage(record: UsageRecord): Promise<void>;
  /** By model, task or source: costliest first; by day: oldest first. */
  usageSummary(options: UsageQuery): Promise<UsageRow[]>;
  /** The gateway's durable inbox and dedup records. */
  readonly webhooks: WebhookInbox;
  /** The kanban board (kanban-types.ts). */
  readonly kanban: KanbanBoard;
  readonly skillLoads: SkillLoads;
  /** Chat platforms: received messages, the outbox, conversations, pairing (platform-types.ts). */
  readonly platforms: PlatformStore;
  /** Pull-request reviews: each PR's session, last reviewed head and summary comment (pr-thread-types.ts). */
  readonly prThreads: PrThreads;
  /** Pull-request reviews: the findings posted on each PR and each review's plan (pr-finding-types.ts). */
  readonly prFindings: PrFindings;
  /** The Sessions page's reads: search, message times, a session's model calls (session-browser.ts). */
  readonly sessionBrowser: SessionBrowser;
  /** Pruning what grows: old sessions, skill loads, usage detail (retention.ts). */
  readonly retention: StoreRetention;
  /** Cross-process wakes (PostgreSQL only). */
  readonly wakeups?: StoreWakeups;
  /** The rate limit shared by all listeners (PostgreSQL only). */
  readonly rateLimits?: SharedRateLimiter;
  close(): Promise<void>;
}
