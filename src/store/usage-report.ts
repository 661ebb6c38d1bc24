// `iris usage --json` and `GET /api/usage?by=…` are one thing: the query read from the same three
// inputs (since, until, by), the rows in one JSON shape. Both faces call these two functions, so
// the CLI and the dashboard cannot disagree.
import { isUsageGroup, USAGE_GROUPS, type UsageGroupBy, type UsageJsonRow } from '../domain/usage-ledger.js';
import { parseSince, parseUntil } from './since.js';
import type { Store, UsageQuery, UsageRow } from './types.js';

export type { UsageJsonRow };

export type UsageQueryInput = { readonly since?: string; readonly until?: string; readonly by?: string };

export type ParsedUsageQuery = { readonly ok: true; readonly query: UsageQuery } | { readonly ok: false; readonly message: string };

/**
 * The query, or why not. Messages name the CLI's flags (`--since`); `names: 'params'` names the
 * query parameters instead (`since`), for the HTTP API. `by` defaults to model.
 */
export function parseUsageQuery(input: UsageQueryInput, now: number, names: 'flags' | 'params' = 'flags'): ParsedUsageQuery {
  const fail = (message: string): ParsedUsageQuery => ({ ok: false, message: names === 'flags' ? message : message.replace(/--(since|until|by)\b/g, '$1') });
  const by = input.by ?? 'model';
  if (!isUsageGroup(by)) return fail(`--by ${JSON.stringify(by)} is not one of ${USAGE_GROUPS.join(', ')}`);
  let since: number | undefined;
  if (input.since !== undefined) {
    const parsed = parseSince(input.since, now);
    if (!parsed.ok) return fail(parsed.message);
    since = parsed.since;
  }
  let until: number | undefined;
  if (input.until !== undefined) {
    const parsed = parseUntil(input.until, now);
    if (!parsed.ok) return fail(parsed.message);
    until = parsed.until;
  }
  if (since !== undefined && until !== undefined && until <= since) {
    return fail(`--until ${JSON.stringify(input.until)} is not after --since ${JSON.stringify(input.since)}; nothing falls between them`);
  }
  return { ok: true, query: { by, ...(since === undefined ? {} : { since }), ...(until === undefined ? {} : { until }) } };
}

export function usageJsonRow(row: UsageRow, by: UsageGroupBy): UsageJsonRow {
  const group = by === 'model' ? { provider: row.provider ?? '', model: row.model ?? '' } : { [by]: row.key };
  return {
    key: row.key,
    ...group,
    calls: row.calls,
    input_tokens: row.inputTokens,
    output_tokens: row.outputTokens,
    cached_tokens: row.cachedTokens,
    cache_write_tokens: row.cacheWriteTokens,
    cost_usd: row.costUsd,
    unpriced_calls: row.unpricedCalls,
    served: row.served,
  };
}

/** The rows of `iris usage --json`; no store (nothing recorded yet) is no rows. */
export async function usageReport(store: Store | undefined, query: UsageQuery): Promise<UsageJsonRow[]> {
  if (!store) return [];
  return (await store.usageSummary(query)).map((row) => usageJsonRow(row, query.by));
}
