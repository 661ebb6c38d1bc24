// Every model call is written to the usage ledger under its task and the source of the run it
// served. A side-job a command runs outside any session (a skill search) still costs money: its
// usage is recorded with no session, so `iris usage --by task` counts it.
import type { UsageSource } from '../domain/usage-ledger.js';
import { costOf, priceFor } from '../providers/catalog.js';
import type { Usage } from '../providers/wire/types.js';
import { callModel, type RoutingDeps, type RoutingSnapshot, type TaskCompletion, type TaskReport, type TaskRequest } from '../routing/call-model.js';
import type { SlotId } from '../routing/resolve.js';
import type { UsageRecord } from '../store/types.js';

/** Where a call was made: whose run it served, and the session, if any. */
export type UsagePlace = { readonly source: UsageSource; readonly sessionId: string | null };

/** The ledger record of one call, or undefined when no model served it or no usage came back. */
export function usageRecordOf(report: TaskReport, usage: Usage | undefined, at: number, place: UsagePlace): UsageRecord | undefined {
  if (!report.served || !usage) return undefined;
  const { provider, model } = report.served;
  return {
    sessionId: place.sessionId,
    source: place.source,
    at,
    provider,
    model,
    task: report.slot,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cachedTokens: usage.cachedInputTokens,
    cacheWriteTokens: usage.cacheWriteInputTokens,
    costUsd: costOf(priceFor(provider, model), usage),
  };
}

/** Where a call's usage goes: the store's recordUsage, or a command's own writer. */
export type RecordUsage = (record: UsageRecord) => Promise<void>;

/** A sessionless call's ledger: whose run it served, and the writer. */
export type UsageSink = { readonly source: UsageSource; readonly record: RecordUsage };

/**
 * callModel for a side-job outside any session, its usage recorded with no session under the
 * sink's source: the one way such calls are made (profile descriptions, kanban, the curator,
 * skills search, approval scores, vision and web summaries outside a turn), so every model call
 * shows in `iris usage`.
 */
export async function callCounted(
  slot: SlotId,
  request: TaskRequest,
  routes: RoutingSnapshot,
  routing: RoutingDeps,
  sink: UsageSink,
  now: () => number = Date.now,
): Promise<TaskCompletion> {
  const result = await callModel(slot, request, routes, routing);
  const usage = usageRecordOf(result.report, result.ok ? result.usage : undefined, now(), { source: sink.source, sessionId: null });
  if (usage) await sink.record(usage);
  return result;
}
