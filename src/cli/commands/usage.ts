// `iris usage [--since <when>] [--until <when>] [--by model|task|day|source] [--json]`: what the
// model calls cost, from the store. Never creates state.db: without one, nothing has been
// recorded yet. `--json` prints exactly what `GET /api/usage` answers (store/usage-report.ts).
import { usageTotal, type UsageGroupBy } from '../../domain/usage-ledger.js';
import type { UsageQuery } from '../../store/types.js';
import { parseUsageQuery, usageReport, type UsageJsonRow } from '../../store/usage-report.js';
import { printData, printJson } from '../console.js';
import { openHome } from '../context.js';
import { formatTable } from '../table.js';
import { CliFailure } from '../exit-codes.js';
import { withExistingStore } from '../open-store.js';

export type UsageOptions = { since?: string; until?: string; by?: string; json?: boolean };

const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

function dollars(cost: number): string {
  return cost > 0 && cost < 0.00005 ? '<$0.0001' : `$${cost.toFixed(4)}`;
}

/** `$0.0123`, `unpriced` (no call had a price), or the known part with a note: `$0.0123 + 2 unpriced`. */
export function formatCost(costUsd: number | null, unpricedCalls: number): string {
  if (costUsd === null) return 'unpriced';
  return unpricedCalls > 0 ? `${dollars(costUsd)} + ${unpricedCalls} unpriced` : dollars(costUsd);
}

export function formatUsageTable(rows: readonly UsageJsonRow[], by: UsageGroupBy): string {
  const shown = rows.length > 1 ? [...rows, usageTotal(rows)] : rows;
  const header = [by, 'calls', 'input', 'output', 'cached', 'cache write', 'cost'];
  const cells = shown.map((row) => [
    row.key,
    thousands(row.calls),
    thousands(row.input_tokens),
    thousands(row.output_tokens),
    thousands(row.cached_tokens),
    thousands(row.cache_write_tokens),
    formatCost(row.cost_usd, row.unpriced_calls),
  ]);
  // The key and the cost read left to right; the counts line up on their last digit.
  return formatTable(header, cells, new Set([1, 2, 3, 4, 5]));
}

/** What an empty table says: nothing at all yet, or nothing in the window asked for. */
function nothingText(query: UsageQuery, anyStore: boolean): string {
  if (!anyStore || (query.since === undefined && query.until === undefined)) return 'no usage recorded yet';
  const from = query.since === undefined ? '' : ` since ${new Date(query.since).toISOString()}`;
  const to = query.until === undefined ? '' : ` before ${new Date(query.until).toISOString()}`;
  return `no usage recorded${from}${to}`;
}

export async function usage(options: UsageOptions): Promise<void> {
  const parsed = parseUsageQuery(options, Date.now());
  if (!parsed.ok) throw new CliFailure('usage', parsed.message);
  const { query } = parsed;
  const paths = await openHome();
  const rows = await withExistingStore<UsageJsonRow[] | undefined>(paths, (store) => usageReport(store, query), () => undefined);
  if (options.json) printJson(rows ?? []);
  else if (rows === undefined || rows.length === 0) printData(nothingText(query, rows !== undefined));
  else printData(formatUsageTable(rows, query.by));
}
