// A usage row's totals in the snake_case JSON that `iris usage --json` and the dashboard API share.
import type { UsageRow } from './types.js';

export function usageTotalsJson(row: UsageRow) {
  return {
    calls: row.calls,
    input_tokens: row.inputTokens,
    output_tokens: row.outputTokens,
    cached_tokens: row.cachedTokens,
    cost_usd: row.costUsd,
    unpriced_calls: row.unpricedCalls,
  };
}
