// Reading sessions out of state.db: the row shape, and the one listing query behind
// `iris sessions list`, `-c`, name resolution and prune.
import type BetterSqlite3 from 'better-sqlite3';
import { newSessionId } from './ids.js';
import type { NewSession, SessionQuery, SessionRecord, SessionStatus, SessionSummary } from './types.js';

export type SessionRow = {
  id: string;
  source: string;
  title: string | null;
  provider: string;
  model: string;
  status: string;
  created_at: number;
  updated_at: number;
};

export function toRecord(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    source: row.source,
    title: row.title,
    provider: row.provider,
    model: row.model,
    status: row.status as SessionStatus,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A new session as both stores create it: idle, created and updated now, a fresh id unless given. */
export function newSessionRecord(input: NewSession, at: number): SessionRecord {
  return {
    id: input.id ?? newSessionId(),
    source: input.source,
    title: input.title ?? null,
    provider: input.provider,
    model: input.model,
    status: 'idle',
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * The smallest string above every string that starts with `prefix`, so a prefix match is a range
 * on an index (`x >= prefix AND x < bound`) instead of a scan; LIKE would also treat the `_` of
 * session ids as a wildcard. Undefined when no such bound exists (a prefix of only U+FFFF).
 */
export function prefixUpperBound(prefix: string): string | undefined {
  for (let end = prefix.length - 1; end >= 0; end -= 1) {
    const code = prefix.charCodeAt(end);
    if (code < 0xffff) return prefix.slice(0, end) + String.fromCharCode(code + 1);
  }
  return undefined;
}

type Filter = { readonly sql: string; readonly params: Record<string, string | number> };

function rangeFilter(column: string, name: string, prefix: string): Filter {
  const bound = prefixUpperBound(prefix);
  return {
    sql: bound === undefined ? `${column} >= @${name}From` : `${column} >= @${name}From AND ${column} < @${name}To`,
    params: bound === undefined ? { [`${name}From`]: prefix } : { [`${name}From`]: prefix, [`${name}To`]: bound },
  };
}

/** The WHERE clause and its parameters for a query; pure, so each filter is tested on its own. */
export function sessionFilters(query: SessionQuery): Filter {
  const parts: Filter[] = [];
  if (query.source !== undefined) parts.push({ sql: 'source = @source', params: { source: query.source } });
  if (query.sourcePrefix !== undefined) parts.push(rangeFilter('source', 'source', query.sourcePrefix));
  if (query.idPrefix !== undefined) parts.push(rangeFilter('id', 'id', query.idPrefix));
  if (query.title !== undefined) parts.push({ sql: 'title = @title', params: { title: query.title } });
  if (query.updatedBefore !== undefined) parts.push({ sql: 'updated_at < @updatedBefore', params: { updatedBefore: query.updatedBefore } });
  return {
    sql: parts.length === 0 ? '' : `WHERE ${parts.map((part) => part.sql).join(' AND ')}`,
    params: Object.assign({}, ...parts.map((part) => part.params)) as Record<string, string | number>,
  };
}

/** Newest first; the message count is counted only for the rows returned. */
export function listSessions(db: BetterSqlite3.Database, query: SessionQuery): SessionSummary[] {
  const filter = sessionFilters(query);
  const rows = db
    .prepare<Record<string, string | number>, SessionRow & { message_count: number }>(
      `SELECT s.*, (SELECT count(*) FROM messages m WHERE m.session_id = s.id) AS message_count
       FROM sessions s ${filter.sql}
       ORDER BY s.updated_at DESC, s.id LIMIT @limit`,
    )
    .all({ ...filter.params, limit: query.limit ?? -1 }); // SQLite: a negative LIMIT is no limit
  return rows.map((row) => ({ ...toRecord(row), messageCount: row.message_count }));
}
