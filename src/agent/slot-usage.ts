// A side-job a command runs outside any session (a skill search) still costs money: its usage is
// recorded under its task with no session, so `iris usage --by task` counts it.
import { costOf, priceFor } from '../providers/catalog.js';
import type { Usage } from '../providers/wire/types.js';
import type { TaskReport } from '../routing/call-model.js';
import type { UsageRecord } from '../store/types.js';

export function sessionlessUsage(report: TaskReport, usage: Usage | undefined, at: number): UsageRecord | undefined {
  if (!report.served || !usage) return undefined;
  const { provider, model } = report.served;
  return {
    sessionId: null,
    at,
    provider,
    model,
    task: report.slot,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cachedTokens: usage.cachedInputTokens,
    costUsd: costOf(priceFor(provider, model), usage),
  };
}
