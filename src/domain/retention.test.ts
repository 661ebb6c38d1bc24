import { describe, expect, it } from 'vitest';
import { retentionCutoffs, sessionKind } from './retention.js';

const DAY = 86_400_000;
const DEFAULTS = { sessions_days: { cli: 0, dashboard: 0, webhook: 30, platform: 90 }, skill_loads_days: 365, curator_reports: 50, usage_detail_days: 90 };

describe('sessionKind', () => {
  it('names the kind of every source', () => {
    expect(['cli', 'dashboard', 'webhook:pr-review', 'telegram', 'platform:slack', 'webhooks'].map(sessionKind)).toEqual([
      'cli',
      'dashboard',
      'webhook',
      'platform',
      'platform',
      'platform',
    ]);
  });
});

describe('retentionCutoffs', () => {
  const now = Date.UTC(2026, 10, 28, 15, 30);
  it('keeps CLI and dashboard chats, prunes automation by its days, and folds usage by whole UTC days', () => {
    expect(retentionCutoffs(DEFAULTS, now)).toEqual({
      sessionsBefore: { webhook: now - 30 * DAY, platform: now - 90 * DAY },
      skillLoadsBefore: now - 365 * DAY,
      usageDetailBefore: Date.UTC(2026, 7, 30),
      curatorReportsKept: 50,
    });
  });
  it('0 keeps everything of its kind', () => {
    const keepAll = { sessions_days: { cli: 0, dashboard: 0, webhook: 0, platform: 0 }, skill_loads_days: 0, curator_reports: 0, usage_detail_days: 0 };
    expect(retentionCutoffs(keepAll, now)).toEqual({ sessionsBefore: {}, skillLoadsBefore: undefined, usageDetailBefore: undefined, curatorReportsKept: undefined });
  });
  it('a one-day usage window at midnight folds everything before yesterday', () => {
    const midnight = Date.UTC(2026, 10, 28);
    expect(retentionCutoffs({ ...DEFAULTS, usage_detail_days: 1 }, midnight).usageDetailBefore).toBe(Date.UTC(2026, 10, 27));
  });
});
