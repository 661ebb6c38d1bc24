// A side-job a command runs outside any session (a skill search) still costs money: its usage is
// recorded under its task with no session, so `iris usage --by task` counts it.
import { costOf, priceFor } from '../providers/catalog.js';
import type { Usage } from '../providers/wire/types.js';
import { callModel, type RoutingDeps, type RoutingSnapshot, type TaskCompletion, type TaskReport, type TaskRequest } from '../routing/call-model.js';
import type { SlotId } from '../routing/resolve.js';
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

/** Where a sessionless call's usage goes: the store's recordUsage, or a command's own writer. */
export type RecordUsage = (record: UsageRecord) => Promise<void>;

/**
 * callModel for a side-job outside any session, its usage recorded with no session: the one way
 * such calls are made (profile descriptions, kanban, the curator, skills search, approval scores,
 * vision and web summaries outside a turn), so every model call shows in `iris usage`.
 */
export async function callCounted(
  slot: SlotId,
  request: TaskRequest,
  routes: RoutingSnapshot,
  routing: RoutingDeps,
  record: RecordUsage,
  now: () => number = Date.now,
): Promise<TaskCompletion> {
  const result = await callModel(slot, request, routes, routing);
  const usage = sessionlessUsage(result.report, result.ok ? result.usage : undefined, now());
  if (usage) await record(usage);
  return result;
}
