// The usage ledger's vocabulary, shared by the store, `iris usage`, the dashboard API and the
// Usage page: how usage is grouped, whose run a call served (its source), and the UTC day a call
// falls on.

export const USAGE_GROUPS = ['model', 'task', 'day', 'source'] as const;
export type UsageGroupBy = (typeof USAGE_GROUPS)[number];

export function isUsageGroup(value: string): value is UsageGroupBy {
  return (USAGE_GROUPS as readonly string[]).includes(value);
}

/**
 * Whose run a model call served: `cli` (a command at the terminal), `dashboard` (the dashboard's
 * chat and buttons), `webhook:<route>` (a webhook run, its title call included), `platform:<name>`
 * (a chat-platform conversation), `gateway` (the gateway's own scheduled work: the curator).
 */
export type UsageSource = 'cli' | 'dashboard' | 'gateway' | `webhook:${string}` | `platform:${string}`;

export const webhookUsageSource = (route: string): UsageSource => `webhook:${route}`;
export const platformUsageSource = (platform: string): UsageSource => `platform:${platform}`;

export const DAY_MS = 86_400_000;

/** The UTC day of an instant (epoch milliseconds), as `2026-11-28`. */
export function utcDay(at: number): string {
  return new Date(Math.floor(at / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
}

/** One row of `iris usage --json` (and of `GET /api/usage?by=…`): the group under its key and under the name of the grouping. */
export type UsageJsonRow = {
  readonly key: string;
  readonly model?: string;
  readonly provider?: string;
  readonly task?: string;
  readonly day?: string;
  readonly source?: string;
  readonly calls: number;
  /** Every input token, those read from and written to the prompt cache included. */
  readonly input_tokens: number;
  readonly output_tokens: number;
  /** Input tokens read from the prompt cache. */
  readonly cached_tokens: number;
  /** Input tokens written to the prompt cache. */
  readonly cache_write_tokens: number;
  /** The known costs' sum; null when no call of the group had a price (then every call is unpriced). */
  readonly cost_usd: number | null;
  /** Calls whose price is unknown: not in cost_usd, never counted as 0. */
  readonly unpriced_calls: number;
  /** By model: the tasks it served; otherwise the models (`provider · model`) that served the group. */
  readonly served: readonly string[];
};

/** The sum of rows: a known cost when any row has one (else null), the unpriced calls counted apart. */
export function usageTotal(rows: readonly UsageJsonRow[]): UsageJsonRow {
  const sum = (pick: (row: UsageJsonRow) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const priced = rows.filter((row) => row.cost_usd !== null);
  return {
    key: 'total',
    calls: sum((row) => row.calls),
    input_tokens: sum((row) => row.input_tokens),
    output_tokens: sum((row) => row.output_tokens),
    cached_tokens: sum((row) => row.cached_tokens),
    cache_write_tokens: sum((row) => row.cache_write_tokens),
    cost_usd: priced.length === 0 ? null : priced.reduce((total, row) => total + (row.cost_usd ?? 0), 0),
    unpriced_calls: sum((row) => row.unpriced_calls),
    served: [],
  };
}
