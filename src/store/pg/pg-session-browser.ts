// The Sessions page's reads on PostgreSQL: the same statements as SQLite's (../session-browser.ts),
// with PostgreSQL's JSON text expression and ILIKE.
import { StoreError } from '../errors.js';
import {
  inOrder,
  PG_DIALECT,
  searchStatements,
  SEARCH_SCAN_SESSIONS,
  summariesSql,
  TIMED_MESSAGES_SQL,
  toSummary,
  toTimedMessage,
  toSessionCall,
  USAGE_OF_SQL,
  type SessionBrowser,
  type UsageRow,
} from '../session-browser.js';
import type { SessionRow } from '../session-queries.js';
import type { PgContext } from './pg-context.js';
import { named } from './pg-named.js';

export function createPgSessionBrowser(ctx: PgContext): SessionBrowser {
  const rows = async <T>(sql: string, params: Readonly<Record<string, unknown>>): Promise<T[]> => {
    const { text, values } = named(sql, params);
    return (await ctx.pool.query(text, values)).rows as T[];
  };
  type SummaryRow = SessionRow & { message_count: number };
  return {
    search: (query) =>
      ctx.guarded(async () => {
        const statements = searchStatements(query, PG_DIALECT);
        const inScope = (await rows<{ n: number }>(statements.count.sql, statements.count.params))[0]?.n ?? 0;
        if (!statements.matches) {
          return { sessions: (await rows<SummaryRow>(statements.page.sql, statements.page.params)).map(toSummary), total: inScope, scanLimited: false };
        }
        const ids = (await rows<{ id: string }>(statements.matches.sql, statements.matches.params)).map((row) => row.id);
        const pageIds = ids.slice(query.offset, query.offset + query.limit);
        const byIds = summariesSql(pageIds);
        const page = pageIds.length === 0 ? [] : (await rows<SummaryRow>(byIds.sql, byIds.params)).map(toSummary);
        return { sessions: inOrder(pageIds, page), total: ids.length, scanLimited: inScope > SEARCH_SCAN_SESSIONS };
      }),
    timedMessages: (sessionId) =>
      ctx.guarded(async () =>
        (await rows<{ seq: number; content: string; created_at: number }>(TIMED_MESSAGES_SQL, { sessionId })).map((row) =>
          toTimedMessage(row, (reason) => new StoreError('corrupt', `${ctx.where}: session ${sessionId}: ${reason}`)),
        ),
      ),
    usageOf: (sessionId) => ctx.guarded(async () => (await rows<UsageRow>(USAGE_OF_SQL, { sessionId })).map(toSessionCall)),
  };
}
