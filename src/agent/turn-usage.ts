// What one turn spent: every model call it made (the main model's, and side-jobs such as the
// title or compression), as `iris chat -q --json` reports it.
import type { Usage } from '../providers/wire/types.js';

export type TurnUsage = {
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** USD; null as soon as one call's price is unknown, so a partial sum never reads as the total. */
  readonly costUsd: number | null;
};

export const NO_USAGE: TurnUsage = Object.freeze({ calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 });

export function addUsage(total: TurnUsage, usage: Usage, costUsd: number | null): TurnUsage {
  return {
    calls: total.calls + 1,
    inputTokens: total.inputTokens + usage.inputTokens,
    outputTokens: total.outputTokens + usage.outputTokens,
    costUsd: total.costUsd === null || costUsd === null ? null : total.costUsd + costUsd,
  };
}
