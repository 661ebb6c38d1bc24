// Usage on SQLite: recording a call and the grouped summary that `iris usage` and the dashboard
// show (the query and the rules are usage-summary.ts's, shared with PostgreSQL).
import type { Database } from 'better-sqlite3';
import { StoreError } from './errors.js';
import type { Store, UsageQuery, UsageRow } from './types.js';
import { sortUsageRows, toUsageRow, usageProblem, usageSummaryParams, usageSummarySql, type SummaryRow, type UsageDialect } from './usage-summary.js';

const SQLITE_DIALECT: UsageDialect = {
  unpriced: 'sum(coalesce(unpriced_calls, cost_usd IS NULL))',
  distinct: (expression) => `json_group_array(DISTINCT ${expression})`,
};

type SqliteSummaryRow = Omit<SummaryRow, 'served'> & { served: string };

export function summarizeUsage(db: Database, query: UsageQuery): UsageRow[] {
  const rows = db.prepare<[Record<string, number>], SqliteSummaryRow>(usageSummarySql(query, SQLITE_DIALECT)).all(usageSummaryParams(query));
  return sortUsageRows(
    query.by,
    rows.map((row) => toUsageRow(query.by, { ...row, served: JSON.parse(row.served) as string[] })),
  );
}

/** The store's usage methods on SQLite; `guarded` turns a driver failure into a StoreError naming the file. */
export function createSqliteUsage(db: Database, guarded: <T>(work: () => T) => Promise<T>, path: string): Pick<Store, 'recordUsage' | 'usageSummary'> {
  const insert = db.prepare(
    `INSERT INTO usage (session_id, source, at, provider, model, task, input_tokens, output_tokens, cached_tokens, cache_write_tokens, cost_usd)
     VALUES (@sessionId, @source, @at, @provider, @model, @task, @inputTokens, @outputTokens, @cachedTokens, @cacheWriteTokens, @costUsd)`,
  );
  return {
    recordUsage: (record) =>
      guarded(() => {
        const problem = usageProblem(record);
        if (problem) throw new StoreError('invalid', `${path}: usage cannot be stored: ${problem}`);
        const { sessionId, source, at, provider, model, task, inputTokens, outputTokens, cachedTokens, cacheWriteTokens, costUsd } = record;
        insert.run({ sessionId, source, at, provider, model, task, inputTokens, outputTokens, cachedTokens, cacheWriteTokens, costUsd });
      }),
    usageSummary: (query) => guarded(() => summarizeUsage(db, query)),
  };
}
