// Usage on SQLite: checking a record before it is written, and the grouped summary that
// `iris usage` and the dashboard show. An unknown price stays NULL: it is counted as an unpriced
// call, never summed as 0.
import type { Database } from 'better-sqlite3';
import type { UsageGroupBy, UsageRecord, UsageRow } from './types.js';

/** Why the record cannot be stored, or undefined when it can. */
export function usageProblem(record: UsageRecord): string | undefined {
  for (const key of ['inputTokens', 'outputTokens', 'cachedTokens'] as const) {
    const value = record[key];
    if (!Number.isSafeInteger(value) || value < 0) return `${key} must be a whole number >= 0 (got ${String(value)})`;
  }
  if (!Number.isSafeInteger(record.at)) return `at must be epoch milliseconds (got ${String(record.at)})`;
  // SQLite would store NaN as NULL, turning a broken cost into an "unknown" one.
  if (record.costUsd !== null && !(Number.isFinite(record.costUsd) && record.costUsd >= 0)) {
    return `costUsd must be null or a number >= 0 (got ${String(record.costUsd)})`;
  }
  for (const key of ['provider', 'model', 'task'] as const) {
    if (typeof record[key] !== 'string' || record[key] === '') return `${key} must be a non-empty string`;
  }
  return undefined;
}

export const MODEL_SEPARATOR = ' · ';

type SummaryRow = {
  provider: string | null;
  model: string | null;
  task: string | null;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  cost_usd: number | null;
  unpriced_calls: number;
  served: string;
};

// SUM over only NULLs is NULL: exactly "no call of the group had a known price".
const AGGREGATES = `
  COUNT(*) AS calls,
  SUM(input_tokens) AS input_tokens,
  SUM(output_tokens) AS output_tokens,
  SUM(cached_tokens) AS cached_tokens,
  SUM(cost_usd) AS cost_usd,
  SUM(cost_usd IS NULL) AS unpriced_calls`;

function summarySql(by: UsageGroupBy, since: number | undefined): string {
  const where = since === undefined ? '' : 'WHERE at >= @since';
  return by === 'model'
    ? `SELECT provider, model, NULL AS task, ${AGGREGATES}, json_group_array(DISTINCT task) AS served
       FROM usage ${where} GROUP BY provider, model`
    : `SELECT NULL AS provider, NULL AS model, task, ${AGGREGATES},
         json_group_array(DISTINCT provider || '${MODEL_SEPARATOR}' || model) AS served
       FROM usage ${where} GROUP BY task`;
}

/** Cost descending (a group with no known cost last), then calls descending, then key. */
export function compareUsageRows(a: UsageRow, b: UsageRow): number {
  const costA = a.costUsd ?? -1;
  const costB = b.costUsd ?? -1;
  if (costA !== costB) return costB - costA;
  if (a.calls !== b.calls) return b.calls - a.calls;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

function toUsageRow(row: SummaryRow): UsageRow {
  const served = (JSON.parse(row.served) as string[]).sort();
  const sums = {
    calls: row.calls,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    cachedTokens: row.cached_tokens,
    costUsd: row.cost_usd,
    unpricedCalls: row.unpriced_calls,
    served,
  };
  if (row.task !== null) return { key: row.task, ...sums };
  const provider = row.provider ?? '';
  const model = row.model ?? '';
  return { key: `${provider}${MODEL_SEPARATOR}${model}`, provider, model, ...sums };
}

export function summarizeUsage(db: Database, options: { readonly since?: number; readonly by: UsageGroupBy }): UsageRow[] {
  const sql = summarySql(options.by, options.since);
  const rows =
    options.since === undefined
      ? db.prepare<[], SummaryRow>(sql).all()
      : db.prepare<[{ since: number }], SummaryRow>(sql).all({ since: options.since });
  return rows.map(toUsageRow).sort(compareUsageRows);
}
