// Retention on both stores: old sessions of each kind go (with their messages, never a running
// one), old skill loads go, and old usage detail rows become per-day totals while every figure
// `iris usage` shows stays exactly what it was.
import { beforeEach, describe, expect, it } from 'vitest';
import { STORE_BACKENDS, useStores } from '../../test/helpers/store-backends.js';
import { retentionCutoffs, type RetentionSettings } from '../domain/retention.js';
import { USAGE_GROUPS } from '../domain/usage-ledger.js';
import type { Store, UsageRecord } from './types.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 28, 12);
const SETTINGS: RetentionSettings = { sessions_days: { cli: 0, dashboard: 0, webhook: 30, platform: 90 }, skill_loads_days: 365, curator_reports: 50, usage_detail_days: 90 };

/** Usage over 120 days: three calls a day in two models, slots and sources, some unpriced, odd costs. */
function usageRecords(): UsageRecord[] {
  const records: UsageRecord[] = [];
  for (let day = 0; day < 120; day += 1) {
    const base = NOW - (day + 1) * DAY + 3_600_000;
    records.push(
      { sessionId: null, source: 'cli', at: base, provider: 'anthropic', model: 'claude-sonnet-4-5', task: 'main', inputTokens: 1000 + day, outputTokens: 200, cachedTokens: 300, cacheWriteTokens: 7, costUsd: 0.0123 + day / 7 },
      { sessionId: null, source: 'webhook:pr', at: base + 60_000, provider: 'openai', model: 'gpt-5-mini', task: 'title_generation', inputTokens: 90, outputTokens: 9, cachedTokens: 0, cacheWriteTokens: 0, costUsd: 0.1 },
      { sessionId: null, source: 'platform:telegram', at: base + 120_000, provider: 'custom', model: 'llama', task: 'compression', inputTokens: 500, outputTokens: 50, cachedTokens: 0, cacheWriteTokens: 0, costUsd: null },
    );
  }
  return records;
}

describe.each(STORE_BACKENDS)('$name', (backend) => {
  const stores = useStores(backend);
  let store: Store;
  let clock = NOW;
  beforeEach(async () => {
    clock = NOW;
    store = await stores.open({ now: () => clock });
  });

  async function sessionAt(source: string, at: number, status?: 'running'): Promise<string> {
    clock = at;
    const session = await store.createSession({ source, provider: 'p', model: 'm' });
    await store.appendMessages(session.id, [{ role: 'user', content: `hello from ${source}` }]);
    if (status) await store.updateSession(session.id, { status });
    clock = NOW;
    return session.id;
  }

  const summaries = async (since?: number) =>
    Promise.all(USAGE_GROUPS.map((by) => store.usageSummary({ by, ...(since === undefined ? {} : { since }) })));

  it('removes old automation sessions with their messages, keeps chats and running ones, and says so first', async () => {
    const oldWebhook = await sessionAt('webhook:pr', NOW - 31 * DAY);
    const newWebhook = await sessionAt('webhook:pr', NOW - 29 * DAY);
    const oldPlatform = await sessionAt('telegram', NOW - 91 * DAY);
    const midPlatform = await sessionAt('slack', NOW - 60 * DAY);
    const oldCli = await sessionAt('cli', NOW - 400 * DAY);
    const oldDashboard = await sessionAt('dashboard', NOW - 400 * DAY);
    const running = await sessionAt('webhook:pr', NOW - 40 * DAY, 'running');
    await store.skillLoads.record('lint', oldWebhook, NOW - 31 * DAY);
    await store.skillLoads.record('lint', null, NOW - 366 * DAY);
    await store.skillLoads.record('lint', null, NOW - 364 * DAY);
    const cutoffs = retentionCutoffs(SETTINGS, NOW);

    const expected = { sessions: { cli: 0, dashboard: 0, webhook: 1, platform: 1 }, skillLoads: 1, usageRowsFolded: 0, usageDayRows: 0, curatorReports: 0 };
    expect(await store.retention.plan(cutoffs)).toEqual(expected);
    expect((await store.listSessions()).length).toBe(7);
    expect(await store.retention.prune(cutoffs)).toEqual(expected);

    expect((await store.listSessions()).map((s) => s.id).sort()).toEqual([newWebhook, midPlatform, oldCli, oldDashboard, running].sort());
    expect(await stores.sql('SELECT count(*) AS n FROM messages WHERE session_id IN (?, ?)', [oldWebhook, oldPlatform])).toEqual([{ n: 0 }]);
    // The skill load of a deleted session stays (unlinked); only the one older than a year goes.
    expect(await stores.sql('SELECT session_id FROM skill_loads ORDER BY at')).toEqual([{ session_id: null }, { session_id: null }]);
    expect(await store.retention.prune(cutoffs)).toEqual({ ...expected, sessions: { cli: 0, dashboard: 0, webhook: 0, platform: 0 }, skillLoads: 0 });
  });

  it('folds usage older than 90 days into per-day totals: every grouping, and windows on day boundaries, show the same figures', async () => {
    for (const record of usageRecords()) await store.recordUsage(record);
    const since = NOW - 100 * DAY - (NOW % DAY);
    const before = [await summaries(), await summaries(since)];
    const cutoffs = retentionCutoffs(SETTINGS, NOW);

    // Days 91 to 120 ago (30 days), before the cut-off day: 90 rows, each day's three become three totals.
    const plan = await store.retention.plan(cutoffs);
    expect([plan.usageRowsFolded, plan.usageDayRows]).toEqual([90, 90]);
    expect(await store.retention.prune(cutoffs)).toMatchObject({ usageRowsFolded: 90, usageDayRows: 90 });
    expect(await stores.sql('SELECT count(*) AS n FROM usage')).toEqual([{ n: 360 }]);

    expect([await summaries(), await summaries(since)]).toEqual(before);
    // Folding again changes nothing.
    expect(await store.retention.prune(cutoffs)).toMatchObject({ usageRowsFolded: 0, usageDayRows: 0 });
    expect([await summaries(), await summaries(since)]).toEqual(before);
  });

  it('folds a day of many calls into one row per model, slot and source, counting its unpriced calls', async () => {
    const day = NOW - 200 * DAY - (NOW % DAY);
    for (let i = 0; i < 5; i += 1) {
      await store.recordUsage({ sessionId: null, source: 'cli', at: day + i * 1000, provider: 'x', model: 'y', task: 'main', inputTokens: 10, outputTokens: 1, cachedTokens: 2, cacheWriteTokens: 3, costUsd: i < 2 ? null : 0.5 });
    }
    await store.retention.prune(retentionCutoffs(SETTINGS, NOW));
    expect(await stores.sql('SELECT session_id, at, input_tokens, output_tokens, cached_tokens, cache_write_tokens, cost_usd, calls, unpriced_calls FROM usage')).toEqual([
      { session_id: null, at: day, input_tokens: 50, output_tokens: 5, cached_tokens: 10, cache_write_tokens: 15, cost_usd: 1.5, calls: 5, unpriced_calls: 2 },
    ]);
    expect(await store.usageSummary({ by: 'model' })).toEqual([
      { key: 'x · y', provider: 'x', model: 'y', calls: 5, inputTokens: 50, outputTokens: 5, cachedTokens: 10, cacheWriteTokens: 15, costUsd: 1.5, unpricedCalls: 2, served: ['main'] },
    ]);
  });
});
