import { describe, expect, it } from 'vitest';
import { retentionCutoffs } from '../../domain/retention.js';
import { cutoffsJson, pruneLines } from './store-prune.js';

const NOW = Date.UTC(2026, 10, 28, 12);
const DEFAULTS = { sessions_days: { cli: 0, dashboard: 0, webhook: 30, platform: 90 }, skill_loads_days: 365, curator_reports: 50, usage_detail_days: 90 };
const COUNTS = { sessions: { cli: 0, dashboard: 0, webhook: 12, platform: 1 }, skillLoads: 3, usageRowsFolded: 1804, usageDayRows: 96, curatorReports: 1 };

describe('iris store prune: what it says', () => {
  it('names each cut-off, and "kept" for what is kept forever', () => {
    const cutoffs = retentionCutoffs(DEFAULTS, NOW);
    expect(pruneLines(COUNTS, cutoffs)).toEqual([
      '  sessions (with their messages): cli: kept, dashboard: kept, webhook: 12 (last active before 2026-10-29T12:00:00.000Z), platform: 1 (last active before 2026-08-30T12:00:00.000Z)',
      '  skill loads: 3 (before 2025-11-28T12:00:00.000Z)',
      '  usage detail: 1804 rows before 2026-08-30 folded into 96 per-day totals (iris usage shows the same figures)',
      '  curator reports: 1 (keeping the newest 50)',
    ]);
    const keepAll = retentionCutoffs({ sessions_days: { cli: 0, dashboard: 0, webhook: 0, platform: 0 }, skill_loads_days: 0, curator_reports: 0, usage_detail_days: 0 }, NOW);
    expect(pruneLines(COUNTS, keepAll)).toEqual([
      '  sessions (with their messages): cli: kept, dashboard: kept, webhook: kept, platform: kept',
      '  skill loads: kept',
      '  usage detail: kept',
      '  curator reports: kept',
    ]);
  });

  it('gives the cut-offs as ISO times in JSON, null for what is kept', () => {
    expect(cutoffsJson(retentionCutoffs(DEFAULTS, NOW))).toEqual({
      sessions_before: { cli: null, dashboard: null, webhook: '2026-10-29T12:00:00.000Z', platform: '2026-08-30T12:00:00.000Z' },
      skill_loads_before: '2025-11-28T12:00:00.000Z',
      usage_detail_before: '2026-08-30T00:00:00.000Z',
      curator_reports_kept: 50,
    });
  });
});
