// The usage summary both stores answer, with no I/O: the check a record passes before it is
// written, the grouped query (one text for both, the few dialect differences passed in), and how
// a grouped row becomes a UsageRow. An unknown price stays NULL: it is counted as an unpriced call,
// never summed as 0.
import { DAY_MS, utcDay } from '../domain/usage-ledger.js';
import type { UsageGroupBy, UsageQuery, UsageRecord, UsageRow } from './types.js';

export const MODEL_SEPARATOR = ' · ';

/** Why the record cannot be stored, or undefined when it can. */
export function usageProblem(record: UsageRecord): string | undefined {
  for (const key of ['inputTokens', 'outputTokens', 'cachedTokens', 'cacheWriteTokens'] as const) {
    const value = record[key];
    if (!Number.isSafeInteger(value) || value < 0) return `${key} must be a whole number >= 0 (got ${String(value)})`;
  }
  if (!Number.isSafeInteger(record.at)) return `at must be epoch milliseconds (got ${String(record.at)})`;
  // SQLite would store NaN as NULL, turning a broken cost into an "unknown" one.
  if (record.costUsd !== null && !(Number.isFinite(record.costUsd) && record.costUsd >= 0)) {
    return `costUsd must be null or a number >= 0 (got ${String(record.costUsd)})`;
  }
  for (const key of ['provider', 'model', 'task', 'source'] as const) {
    if (typeof record[key] !== 'string' || record[key] === '') return `${key} must be a non-empty string`;
  }
  return undefined;
}

/** What differs between SQLite and PostgreSQL in the summary query. */
export type UsageDialect = {
  /** The number of calls whose cost is NULL: a call's own row counts 1 if so, a day's total its `unpriced_calls`. */
  readonly unpriced: string;
  /** The distinct values of an expression, as the driver returns a list (JSON text or an array). */
  readonly distinct: (expression: string) => string;
};

/** One grouped row as the query returns it: `grp` is the group (a day number by day). */
export type SummaryRow = {
  grp: string | number;
  provider: string | null;
  model: string | null;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  cache_write_tokens: number;
  cost_usd: number | null;
  unpriced_calls: number;
  served: readonly string[];
};

const MODEL_KEY = `provider || '${MODEL_SEPARATOR}' || model`;

/** The group's key, the columns it groups by, and what it lists as served. */
const GROUPS: Readonly<Record<UsageGroupBy, { readonly key: string; readonly columns: string; readonly served: string }>> = {
  model: { key: MODEL_KEY, columns: 'provider, model', served: 'task' },
  task: { key: 'task', columns: 'task', served: MODEL_KEY },
  // Whole UTC days since the epoch (integer division on both stores); utcDay names them.
  day: { key: `at / ${DAY_MS}`, columns: `at / ${DAY_MS}`, served: MODEL_KEY },
  source: { key: 'source', columns: 'source', served: MODEL_KEY },
};

/** The summary query, with `@since` / `@until` parameters when the query has them. */
export function usageSummarySql(query: UsageQuery, dialect: UsageDialect): string {
  const { key, columns, served } = GROUPS[query.by];
  const conditions = [...(query.since === undefined ? [] : ['at >= @since']), ...(query.until === undefined ? [] : ['at < @until'])];
  const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
  const names = query.by === 'model' ? 'provider, model' : 'NULL AS provider, NULL AS model';
  // SUM over only NULLs is NULL: exactly "no call of the group had a known price".
  return `SELECT ${key} AS grp, ${names},
      sum(calls) AS calls,
      sum(input_tokens) AS input_tokens,
      sum(output_tokens) AS output_tokens,
      sum(cached_tokens) AS cached_tokens,
      sum(cache_write_tokens) AS cache_write_tokens,
      sum(cost_usd) AS cost_usd,
      ${dialect.unpriced} AS unpriced_calls,
      ${dialect.distinct(served)} AS served
    FROM usage ${where} GROUP BY ${columns}`;
}

/** The query's parameters, named as usageSummarySql names them. */
export function usageSummaryParams(query: UsageQuery): Record<string, number> {
  return { ...(query.since === undefined ? {} : { since: query.since }), ...(query.until === undefined ? {} : { until: query.until }) };
}

/** Cost descending (a group with no known cost last), then calls descending, then key. */
export function compareUsageRows(a: UsageRow, b: UsageRow): number {
  const costA = a.costUsd ?? -1;
  const costB = b.costUsd ?? -1;
  if (costA !== costB) return costB - costA;
  if (a.calls !== b.calls) return b.calls - a.calls;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/**
 * A summed cost to a ten-billionth of a dollar: a sum of floats depends on the order it is added
 * in, and the order changes when old days are folded into totals (retention), so without this the
 * same ledger could print ...569 one day and ...571 the next.
 */
export function roundCost(cost: number | null): number | null {
  return cost === null ? null : Math.round(cost * 1e10) / 1e10;
}

export function toUsageRow(by: UsageGroupBy, row: SummaryRow): UsageRow {
  const sums = {
    calls: row.calls,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    cachedTokens: row.cached_tokens,
    cacheWriteTokens: row.cache_write_tokens,
    costUsd: roundCost(row.cost_usd === null ? null : Number(row.cost_usd)),
    unpricedCalls: row.unpriced_calls,
    served: [...row.served].sort(),
  };
  if (by === 'day') return { key: utcDay(Number(row.grp) * DAY_MS), ...sums };
  if (by !== 'model') return { key: String(row.grp), ...sums };
  const provider = row.provider ?? '';
  const model = row.model ?? '';
  return { key: `${provider}${MODEL_SEPARATOR}${model}`, provider, model, ...sums };
}

/** By day oldest first (a time line); every other grouping costliest first. */
export function sortUsageRows(by: UsageGroupBy, rows: UsageRow[]): UsageRow[] {
  return by === 'day' ? rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) : rows.sort(compareUsageRows);
}
