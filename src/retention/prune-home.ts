// One prune of a home (DECISIONS "Retention"): the cut-offs from `retention.*`, then the store
// (sessions, skill loads, usage folded into per-day totals) and the curator's report files.
// `iris store prune` and the gateway's hourly prune both call this, so they remove the same things.
import { retentionCutoffs, type RetentionCounts, type RetentionCutoffs, type RetentionSettings } from '../domain/retention.js';
import type { Store } from '../store/types.js';
import { pruneCuratorReports } from './curator-reports.js';

export type HomePrune = { readonly cutoffs: RetentionCutoffs; readonly counts: RetentionCounts };

export async function pruneHome(store: Store, homeDir: string, settings: RetentionSettings, now: number, options: { readonly dryRun: boolean }): Promise<HomePrune> {
  const cutoffs = retentionCutoffs(settings, now);
  const counts = options.dryRun ? await store.retention.plan(cutoffs) : await store.retention.prune(cutoffs);
  const reports = await pruneCuratorReports(homeDir, cutoffs.curatorReportsKept, options.dryRun);
  return { cutoffs, counts: { ...counts, curatorReports: reports.length } };
}

/** Did the prune remove (or would it remove) anything at all? */
export function prunedAnything(counts: RetentionCounts): boolean {
  return Object.values(counts.sessions).some((n) => n > 0) || counts.skillLoads > 0 || counts.usageRowsFolded > 0 || counts.curatorReports > 0;
}

/** The counts as `iris store prune --json` and the gateway's log give them. */
export function pruneCountsJson(counts: RetentionCounts): Record<string, unknown> {
  return {
    sessions: { ...counts.sessions },
    skill_loads: counts.skillLoads,
    usage_rows_folded: counts.usageRowsFolded,
    usage_day_rows: counts.usageDayRows,
    curator_reports: counts.curatorReports,
  };
}
