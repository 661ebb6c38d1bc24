// `iris usage [--since <when>] [--by model|task] [--json]`: what the model calls cost, from
// state.db. Never creates state.db: without one, nothing has been recorded yet.
import { parseSince } from '../../store/since.js';
import type { UsageGroupBy, UsageRow } from '../../store/types.js';
import { usageTotalsJson } from '../../store/usage-json.js';
import { printData, printJson } from '../console.js';
import type { HomePaths } from '../../config/home.js';
import { openHome } from '../context.js';
import { formatTable } from '../table.js';
import { CliFailure } from '../exit-codes.js';
import { withExistingStore } from '../open-store.js';

export const USAGE_GROUPS = ['model', 'task'] as const satisfies readonly UsageGroupBy[];

export type UsageOptions = { since?: string; by: UsageGroupBy; json?: boolean };

function readUsage(paths: HomePaths, since: number | undefined, by: UsageGroupBy): Promise<UsageRow[] | undefined> {
  return withExistingStore<UsageRow[] | undefined>(paths, (store) => store.usageSummary({ by, ...(since === undefined ? {} : { since }) }), () => undefined);
}

const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

function dollars(cost: number): string {
  return cost > 0 && cost < 0.00005 ? '<$0.0001' : `$${cost.toFixed(4)}`;
}

/** `$0.0123`, `unknown` (no call had a price), or the known part with a note: `$0.0123 + 2 unpriced`. */
export function formatCost(costUsd: number | null, unpricedCalls: number): string {
  if (costUsd === null) return 'unknown';
  return unpricedCalls > 0 ? `${dollars(costUsd)} + ${unpricedCalls} unpriced` : dollars(costUsd);
}

function totalRow(rows: readonly UsageRow[]): UsageRow {
  const sum = (pick: (row: UsageRow) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const priced = rows.filter((row) => row.costUsd !== null);
  return {
    key: 'total',
    calls: sum((row) => row.calls),
    inputTokens: sum((row) => row.inputTokens),
    outputTokens: sum((row) => row.outputTokens),
    cachedTokens: sum((row) => row.cachedTokens),
    costUsd: priced.length === 0 ? null : priced.reduce((total, row) => total + (row.costUsd ?? 0), 0),
    unpricedCalls: sum((row) => row.unpricedCalls),
    served: [],
  };
}

export function formatUsageTable(rows: readonly UsageRow[], by: UsageGroupBy): string {
  const shown = rows.length > 1 ? [...rows, totalRow(rows)] : rows;
  const header = [by, 'calls', 'input', 'output', 'cached', 'cost'];
  const cells = shown.map((row) => [
    row.key,
    thousands(row.calls),
    thousands(row.inputTokens),
    thousands(row.outputTokens),
    thousands(row.cachedTokens),
    formatCost(row.costUsd, row.unpricedCalls),
  ]);
  // The key and the cost read left to right; the counts line up on their last digit.
  return formatTable(header, cells, new Set([1, 2, 3, 4]));
}

/** The JSON shape: the rows, with the snake_case keys of the other `--json` outputs. */
function toJson(row: UsageRow): Record<string, unknown> {
  return {
    key: row.key,
    ...(row.provider === undefined ? {} : { provider: row.provider }),
    ...(row.model === undefined ? {} : { model: row.model }),
    ...usageTotalsJson(row),
    served: row.served,
  };
}

export async function usage(options: UsageOptions): Promise<void> {
  let since: number | undefined;
  if (options.since !== undefined) {
    const parsed = parseSince(options.since, Date.now());
    if (!parsed.ok) throw new CliFailure('usage', parsed.message);
    since = parsed.since;
  }
  const paths = await openHome();
  const rows = await readUsage(paths, since, options.by);
  if (options.json) {
    printJson((rows ?? []).map(toJson));
  } else if (rows === undefined || (rows.length === 0 && since === undefined)) {
    printData('no usage recorded yet');
  } else if (rows.length === 0) {
    printData(`no usage recorded since ${new Date(since ?? 0).toISOString()}`);
  } else {
    printData(formatUsageTable(rows, options.by));
  }
}
