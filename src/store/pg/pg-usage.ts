// Usage on PostgreSQL: the same rules and query as SQLite's (../usage-summary.ts), each write one
// statement.
import { StoreError } from '../errors.js';
import type { Store } from '../types.js';
import { sortUsageRows, toUsageRow, usageProblem, usageSummaryParams, usageSummarySql, type SummaryRow, type UsageDialect } from '../usage-summary.js';
import { named } from './pg-named.js';
import type { PgPool } from './pg-pool.js';

const PG_DIALECT: UsageDialect = {
  unpriced: 'sum(coalesce(unpriced_calls, CASE WHEN cost_usd IS NULL THEN 1 ELSE 0 END))',
  distinct: (expression) => `array_agg(DISTINCT ${expression})`,
};

/** `guarded` turns any failure into a StoreError naming the database; `where` is that name. */
export function createPgUsage(pool: PgPool, guarded: <T>(work: () => Promise<T>) => Promise<T>, where: string): Pick<Store, 'recordUsage' | 'usageSummary'> {
  return {
    recordUsage: (record) =>
      guarded(async () => {
        const problem = usageProblem(record);
        if (problem) throw new StoreError('invalid', `${where}: usage cannot be stored: ${problem}`);
        await pool.query(
          `INSERT INTO usage (session_id, source, at, provider, model, task, input_tokens, output_tokens, cached_tokens, cache_write_tokens, cost_usd)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
          [record.sessionId, record.source, record.at, record.provider, record.model, record.task, record.inputTokens, record.outputTokens, record.cachedTokens, record.cacheWriteTokens, record.costUsd],
        );
      }),

    usageSummary: (query) =>
      guarded(async () => {
        const { text, values } = named(usageSummarySql(query, PG_DIALECT), usageSummaryParams(query));
        const result = await pool.query<SummaryRow>(text, values);
        return sortUsageRows(query.by, result.rows.map((row) => toUsageRow(query.by, row)));
      }),
  };
}
