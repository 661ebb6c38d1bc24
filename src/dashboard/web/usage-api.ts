// The Usage page's calls: GET /api/usage with since, until and by, answered with exactly the rows
// of `iris usage --json` (checked here, as every answer is), through the one API client.
import * as z from 'zod/mini';
import type { UsageGroupBy, UsageJsonRow } from '../../domain/usage-ledger.js';
import type { ApiResult, DashboardApi } from './api.js';
import { previousRange, usageQuery, type UsageRange } from './usage-range.js';

const count = z.int().check(z.gte(0));

const UsageJsonRowSchema = z.object({
  key: z.string(),
  model: z.optional(z.string()),
  provider: z.optional(z.string()),
  task: z.optional(z.string()),
  day: z.optional(z.string()),
  source: z.optional(z.string()),
  calls: count,
  input_tokens: count,
  output_tokens: count,
  cached_tokens: count,
  cache_write_tokens: count,
  cost_usd: z.nullable(z.number()),
  unpriced_calls: count,
  served: z.array(z.string()),
});

const UsageRowsSchema = z.array(UsageJsonRowSchema);

export function fetchUsageRows(api: DashboardApi, range: UsageRange, by: UsageGroupBy): Promise<ApiResult<UsageJsonRow[]>> {
  return api.request(`/api/usage?${usageQuery(range, by)}`, UsageRowsSchema);
}

/** Everything the page shows for a range: its rows by each grouping, and the previous period's by source (for totals). */
export type Ledger = {
  readonly range: UsageRange;
  readonly byDay: readonly UsageJsonRow[];
  readonly byModel: readonly UsageJsonRow[];
  readonly byTask: readonly UsageJsonRow[];
  readonly bySource: readonly UsageJsonRow[];
  readonly previous: readonly UsageJsonRow[];
};

export async function fetchLedger(api: DashboardApi, range: UsageRange): Promise<ApiResult<Ledger>> {
  const results = await Promise.all([
    fetchUsageRows(api, range, 'day'),
    fetchUsageRows(api, range, 'model'),
    fetchUsageRows(api, range, 'task'),
    fetchUsageRows(api, range, 'source'),
    fetchUsageRows(api, previousRange(range), 'source'),
  ]);
  const rows: UsageJsonRow[][] = [];
  for (const result of results) {
    if (!result.ok) return result;
    rows.push(result.value);
  }
  const [byDay = [], byModel = [], byTask = [], bySource = [], previous = []] = rows;
  return { ok: true, value: { range, byDay, byModel, byTask, bySource, previous } };
}
