// What the store keeps and for how long (DECISIONS "Retention"), as pure rules: which kind of
// session a source is, and the cut-offs a prune removes before. The store, `iris store prune` and
// the gateway's hourly prune all start from retentionCutoffs, so they never disagree.
import { DAY_MS } from './usage-ledger.js';

export const SESSION_KINDS = ['cli', 'dashboard', 'webhook', 'platform'] as const;
export type SessionKind = (typeof SESSION_KINDS)[number];

/** A session's kind from its source: `cli`, `dashboard`, `webhook:<route>`, or a platform's name. */
export function sessionKind(source: string): SessionKind {
  if (source === 'cli' || source === 'dashboard') return source;
  if (source.startsWith('webhook:')) return 'webhook';
  return 'platform';
}

/** The retention settings as config.yaml holds them (`retention.*`). */
export type RetentionSettings = {
  readonly sessions_days: Readonly<Record<SessionKind, number>>;
  readonly skill_loads_days: number;
  readonly curator_reports: number;
  readonly usage_detail_days: number;
};

/**
 * What a prune removes, as instants (epoch ms): sessions of a kind last active before its cut-off
 * (a kind without one is kept), skill loads before theirs, and usage detail rows before
 * `usageDetailBefore`, which is always the start of a UTC day, so whole days are folded. A setting
 * of 0 keeps everything of its kind; `curatorReportsKept` undefined keeps every report.
 */
export type RetentionCutoffs = {
  readonly sessionsBefore: Readonly<Partial<Record<SessionKind, number>>>;
  readonly skillLoadsBefore: number | undefined;
  readonly usageDetailBefore: number | undefined;
  readonly curatorReportsKept: number | undefined;
};

const before = (now: number, days: number): number | undefined => (days > 0 ? now - days * DAY_MS : undefined);

export function retentionCutoffs(settings: RetentionSettings, now: number): RetentionCutoffs {
  const sessionsBefore: Partial<Record<SessionKind, number>> = {};
  for (const kind of SESSION_KINDS) {
    const cutoff = before(now, settings.sessions_days[kind]);
    if (cutoff !== undefined) sessionsBefore[kind] = cutoff;
  }
  const usage = before(now, settings.usage_detail_days);
  return {
    sessionsBefore,
    skillLoadsBefore: before(now, settings.skill_loads_days),
    // Whole UTC days only: a day's detail rows become that day's totals, all at once.
    usageDetailBefore: usage === undefined ? undefined : Math.floor(usage / DAY_MS) * DAY_MS,
    curatorReportsKept: settings.curator_reports > 0 ? settings.curator_reports : undefined,
  };
}

/** What a prune removed, or (a dry run) would remove. */
export type RetentionCounts = {
  readonly sessions: Readonly<Record<SessionKind, number>>;
  readonly skillLoads: number;
  /** Usage detail rows folded into per-day totals. */
  readonly usageRowsFolded: number;
  /** The per-day total rows those became (a dry run: the days they fall on). */
  readonly usageDayRows: number;
  readonly curatorReports: number;
};

export const NOTHING_PRUNED: RetentionCounts = Object.freeze({
  sessions: Object.freeze({ cli: 0, dashboard: 0, webhook: 0, platform: 0 }),
  skillLoads: 0,
  usageRowsFolded: 0,
  usageDayRows: 0,
  curatorReports: 0,
});
