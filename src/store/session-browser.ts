// Finding and reading sessions for a person (the dashboard's Sessions page): a search over titles
// and message text with source filters and paging, the time of each message, and the usage
// recorded against a session. The SQL is built here once, with `@name` parameters, for both
// stores; only the expression that pulls a message's text out of its JSON differs (SQLite's json1,
// PostgreSQL's json operators), and each store passes its own.
import type BetterSqlite3 from 'better-sqlite3';
import type { Message } from '../domain/messages.js';
import { decodeMessage } from './message-codec.js';
import { sessionFilters, toRecord, type SessionRow } from './session-queries.js';
import type { SessionSummary } from './types.js';

/**
 * A text search reads the messages of at most this many sessions (the newest that pass the source
 * filters), so one search costs a bounded amount whatever the history holds; the answer says when
 * older sessions were left out. No index helps a substring search on either store without an
 * extension (FTS5 trigram, pg_trgm), so the bound is the cost control.
 */
export const SEARCH_SCAN_SESSIONS = 2_000;

export type SessionSearchQuery = {
  /** Only sessions whose source is one of these. */
  readonly sourceIn?: readonly string[];
  /** Only sessions whose source is none of these. */
  readonly sourceNotIn?: readonly string[];
  /** Exactly this source. */
  readonly source?: string;
  /** Sources starting with this (`webhook:` for every route). */
  readonly sourcePrefix?: string;
  /**
   * In the title or the text of a user or assistant message (tool output is not searched): a
   * substring, case-insensitive for ASCII letters, with no wildcards (`%` and `_` match themselves).
   */
  readonly text?: string;
  readonly limit: number;
  readonly offset: number;
};

export type SessionSearchResult = {
  /** Newest first (`updatedAt`). */
  readonly sessions: readonly SessionSummary[];
  /** How many sessions match in all (of those searched, for a text search). */
  readonly total: number;
  /** A text search left out sessions older than the newest SEARCH_SCAN_SESSIONS. */
  readonly scanLimited: boolean;
};

/** One model call of a session, as its transcript shows it. */
export type SessionCall = {
  /** Epoch milliseconds. */
  readonly at: number;
  readonly provider: string;
  readonly model: string;
  /** `main` or an aux task id. */
  readonly task: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Input tokens read from the provider's prompt cache. */
  readonly cachedTokens: number;
  /** Input tokens written to it. */
  readonly cacheWriteTokens: number;
  /** USD; null when the model's price is unknown. */
  readonly costUsd: number | null;
};

/** A stored message and when it was written (epoch ms; compression rewrites the times of what it keeps). */
export type TimedMessage = { readonly at: number; readonly message: Message };

export interface SessionBrowser {
  search(query: SessionSearchQuery): Promise<SessionSearchResult>;
  /** The session's messages in order, each with its time; empty for an unknown session. */
  timedMessages(sessionId: string): Promise<TimedMessage[]>;
  /** Every model call recorded against the session, oldest first. */
  usageOf(sessionId: string): Promise<SessionCall[]>;
}

/** `%`, `_` and the escape character itself match literally; the pattern finds `text` anywhere. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

type Filter = { readonly sql: string; readonly params: Record<string, string | number> };

/** The WHERE clause (without the word) of a query's source filters; `s` is the sessions table. */
export function sourceConditions(query: SessionSearchQuery): Filter {
  const base = sessionFilters({
    ...(query.source !== undefined ? { source: query.source } : {}),
    ...(query.sourcePrefix !== undefined ? { sourcePrefix: query.sourcePrefix } : {}),
  });
  const parts = base.sql === '' ? [] : [base.sql.replace(/^WHERE /, '')];
  const params: Record<string, string | number> = { ...base.params };
  const list = (name: string, values: readonly string[]) =>
    values.map((value, index) => {
      params[`${name}${index}`] = value;
      return `@${name}${index}`;
    });
  // An empty "one of" matches nothing; an empty "none of" matches everything.
  if (query.sourceIn !== undefined) parts.push(query.sourceIn.length === 0 ? '1 = 0' : `source IN (${list('sourceIn', query.sourceIn).join(', ')})`);
  if (query.sourceNotIn !== undefined && query.sourceNotIn.length > 0) parts.push(`source NOT IN (${list('sourceNotIn', query.sourceNotIn).join(', ')})`);
  return { sql: parts.length === 0 ? '1 = 1' : parts.join(' AND '), params };
}

/** Which database's dialect: its case-insensitive LIKE and its JSON text expression. */
export type SearchDialect = {
  /** `LIKE` on SQLite (case-insensitive for ASCII), `ILIKE` on PostgreSQL. */
  readonly like: string;
  /** The searchable text of message row `m` (its `content` column holds the Message as JSON). */
  readonly messageText: string;
};

export const SQLITE_DIALECT: SearchDialect = {
  like: 'LIKE',
  // LIKE stops at a U+0000 inside a value: such a message's raw JSON (where it is the escape
  // \u0000) is searched instead, as on PostgreSQL.
  messageText: `CASE
      WHEN instr(m.content, '\\u0000') > 0 THEN m.content
      WHEN json_type(m.content, '$.content') = 'text' THEN json_extract(m.content, '$.content')
      ELSE (SELECT group_concat(json_extract(p.value, '$.text'), char(10)) FROM json_each(m.content, '$.content') p
            WHERE json_extract(p.value, '$.type') = 'text')
    END`,
};

// PostgreSQL's json operators refuse the escape \u0000 (text cannot hold U+0000), and one such
// message must not fail every search: its raw JSON text is searched instead.
export const PG_DIALECT: SearchDialect = {
  like: 'ILIKE',
  messageText: `CASE
      WHEN strpos(m.content, '\\u0000') > 0 THEN m.content
      WHEN json_typeof(m.content::json -> 'content') = 'string' THEN m.content::json ->> 'content'
      ELSE (SELECT string_agg(p ->> 'text', E'\\n') FROM json_array_elements(m.content::json -> 'content') p WHERE p ->> 'type' = 'text')
    END`,
};

/** The SQL a search runs; pure, so the statements are tested apart from either database. */
export function searchStatements(query: SessionSearchQuery, dialect: SearchDialect) {
  const where = sourceConditions(query);
  const count = { sql: `SELECT count(*) AS n FROM sessions s WHERE ${where.sql}`, params: where.params };
  const page = {
    sql: `SELECT s.*, (SELECT count(*) FROM messages m WHERE m.session_id = s.id) AS message_count
          FROM sessions s WHERE ${where.sql}
          ORDER BY s.updated_at DESC, s.id LIMIT @limit OFFSET @offset`,
    params: { ...where.params, limit: query.limit, offset: query.offset },
  };
  if (query.text === undefined) return { count, page, matches: undefined };
  // The ids of the matches among the newest SEARCH_SCAN_SESSIONS, newest first: the total is
  // their number and the page a slice of them.
  const matches = {
    sql: `WITH scope AS (
            SELECT s.id, s.title, s.updated_at FROM sessions s WHERE ${where.sql}
            ORDER BY s.updated_at DESC, s.id LIMIT @scan
          )
          SELECT s.id FROM scope s
          WHERE s.title ${dialect.like} @pattern ESCAPE '\\'
             OR EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.id AND m.role IN ('user', 'assistant')
                        AND (${dialect.messageText}) ${dialect.like} @pattern ESCAPE '\\')
          ORDER BY s.updated_at DESC, s.id`,
    params: { ...where.params, scan: SEARCH_SCAN_SESSIONS, pattern: likeContains(query.text) },
  };
  return { count, page, matches };
}

/** The page's rows for these ids, in the order given. */
export function summariesSql(ids: readonly string[]): Filter {
  const params: Record<string, string> = {};
  const names = ids.map((id, index) => {
    params[`id${index}`] = id;
    return `@id${index}`;
  });
  return {
    sql: `SELECT s.*, (SELECT count(*) FROM messages m WHERE m.session_id = s.id) AS message_count FROM sessions s WHERE s.id IN (${names.join(', ')})`,
    params,
  };
}

type SummaryRow = SessionRow & { message_count: number };

export const toSummary = (row: SummaryRow): SessionSummary => ({ ...toRecord(row), messageCount: row.message_count });

export function inOrder(ids: readonly string[], rows: readonly SessionSummary[]): SessionSummary[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export type UsageRow = {
  at: number;
  provider: string;
  model: string;
  task: string;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  cache_write_tokens: number;
  cost_usd: number | null;
};

export const USAGE_OF_SQL = `SELECT at, provider, model, task, input_tokens, output_tokens, cached_tokens, cache_write_tokens, cost_usd
  FROM usage WHERE session_id = @sessionId ORDER BY at, id`;

export const toSessionCall = (row: UsageRow): SessionCall => ({
  at: row.at,
  provider: row.provider,
  model: row.model,
  task: row.task,
  inputTokens: row.input_tokens,
  outputTokens: row.output_tokens,
  cachedTokens: row.cached_tokens,
  cacheWriteTokens: row.cache_write_tokens,
  costUsd: row.cost_usd,
});

export const TIMED_MESSAGES_SQL = 'SELECT seq, content, created_at FROM messages WHERE session_id = @sessionId ORDER BY seq';

/** A stored row back to a message; `corrupt` names what is unreadable. */
export function toTimedMessage(row: { seq: number; content: string; created_at: number }, corrupt: (reason: string) => Error): TimedMessage {
  const decoded = decodeMessage(row.content);
  if (!decoded.ok) throw corrupt(`message ${row.seq} is unreadable (${decoded.reason})`);
  return { at: row.created_at, message: decoded.message };
}

/** The SQLite implementation: better-sqlite3 is synchronous; `guarded` maps failures to StoreError. */
export function createSqliteSessionBrowser(db: BetterSqlite3.Database, guarded: <T>(work: () => T) => Promise<T>, corrupt: (reason: string) => Error): SessionBrowser {
  const all = <T>(sql: string, params: Record<string, unknown>) => db.prepare<Record<string, unknown>, T>(sql).all(params);
  return {
    search: (query) =>
      guarded(() => {
        const statements = searchStatements(query, SQLITE_DIALECT);
        const inScope = all<{ n: number }>(statements.count.sql, statements.count.params)[0]?.n ?? 0;
        if (!statements.matches) {
          return { sessions: all<SummaryRow>(statements.page.sql, statements.page.params).map(toSummary), total: inScope, scanLimited: false };
        }
        const ids = all<{ id: string }>(statements.matches.sql, statements.matches.params).map((row) => row.id);
        const pageIds = ids.slice(query.offset, query.offset + query.limit);
        const rows = pageIds.length === 0 ? [] : (() => {
          const byIds = summariesSql(pageIds);
          return all<SummaryRow>(byIds.sql, byIds.params).map(toSummary);
        })();
        return { sessions: inOrder(pageIds, rows), total: ids.length, scanLimited: inScope > SEARCH_SCAN_SESSIONS };
      }),
    timedMessages: (sessionId) =>
      guarded(() => all<{ seq: number; content: string; created_at: number }>(TIMED_MESSAGES_SQL, { sessionId }).map((row) => toTimedMessage(row, (reason) => corrupt(`session ${sessionId}: ${reason}`)))),
    usageOf: (sessionId) => guarded(() => all<UsageRow>(USAGE_OF_SQL, { sessionId }).map(toSessionCall)),
  };
}
