// Usage records and the grouped summary, on both stores (SQLite and PostgreSQL).
import { beforeEach, describe, expect, it } from 'vitest';
import { STORE_BACKENDS, useStores } from '../../test/helpers/store-backends.js';
import type { Store, UsageRecord, UsageRow } from './types.js';
import { compareUsageRows } from './usage-summary.js';

const call = (fields: Partial<UsageRecord> & Pick<UsageRecord, 'provider' | 'model' | 'task'>): UsageRecord => ({
  sessionId: null,
  source: 'cli',
  at: 1_000,
  inputTokens: 100,
  outputTokens: 10,
  cachedTokens: 0,
  cacheWriteTokens: 0,
  costUsd: null,
  ...fields,
});

// Costs are binary fractions, so the sums are exact.
const CALLS: readonly UsageRecord[] = [
  call({ provider: 'anthropic', model: 'claude-sonnet-4-5', task: 'main', at: 1_000, inputTokens: 1000, outputTokens: 200, cachedTokens: 800, costUsd: 0.25 }),
  call({ provider: 'anthropic', model: 'claude-sonnet-4-5', task: 'main', at: 2_000, inputTokens: 2000, outputTokens: 300, cachedTokens: 1000, costUsd: 0.5 }),
  call({ provider: 'anthropic', model: 'claude-sonnet-4-5', task: 'vision', at: 3_000, inputTokens: 500, outputTokens: 50, costUsd: null }),
  call({ provider: 'openai', model: 'gpt-5-mini', task: 'title_generation', at: 4_000, inputTokens: 300, outputTokens: 12, costUsd: 0.125 }),
  call({ provider: 'custom', model: 'llama-3.3-70b', task: 'compression', at: 5_000, inputTokens: 4000, outputTokens: 400, costUsd: null }),
  call({ provider: 'custom', model: 'llama-3.3-70b', task: 'main', at: 6_000, inputTokens: 100, outputTokens: 10, costUsd: null }),
];

describe.each(STORE_BACKENDS)('$name', (backend) => {
const stores = useStores(backend);
let store: Store;
let path: string;
beforeEach(async () => {
  store = await stores.open();
  path = store.location;
});

async function seed(records: readonly UsageRecord[] = CALLS): Promise<void> {
  for (const record of records) await store.recordUsage(record);
}

describe('usageSummary', () => {
  it('is empty before any call', async () => {
    expect(await store.usageSummary({ by: 'model' })).toEqual([]);
    expect(await store.usageSummary({ by: 'task' })).toEqual([]);
  });

  it('by model: sums, known costs only, unpriced calls counted, the tasks served', async () => {
    await seed();
    expect(await store.usageSummary({ by: 'model' })).toEqual<UsageRow[]>([
      {
        key: 'anthropic · claude-sonnet-4-5',
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        calls: 3,
        inputTokens: 3500,
        outputTokens: 550,
        cachedTokens: 1800,
        cacheWriteTokens: 0,
        costUsd: 0.75,
        unpricedCalls: 1,
        served: ['main', 'vision'],
      },
      {
        key: 'openai · gpt-5-mini',
        provider: 'openai',
        model: 'gpt-5-mini',
        calls: 1,
        inputTokens: 300,
        outputTokens: 12,
        cachedTokens: 0,
        cacheWriteTokens: 0,
        costUsd: 0.125,
        unpricedCalls: 0,
        served: ['title_generation'],
      },
      {
        key: 'custom · llama-3.3-70b',
        provider: 'custom',
        model: 'llama-3.3-70b',
        calls: 2,
        inputTokens: 4100,
        outputTokens: 410,
        cachedTokens: 0,
        cacheWriteTokens: 0,
        costUsd: null,
        unpricedCalls: 2,
        served: ['compression', 'main'],
      },
    ]);
  });

  it('by task: the models that served each task', async () => {
    await seed();
    expect(await store.usageSummary({ by: 'task' })).toEqual<UsageRow[]>([
      {
        key: 'main',
        calls: 3,
        inputTokens: 3100,
        outputTokens: 510,
        cachedTokens: 1800,
        cacheWriteTokens: 0,
        costUsd: 0.75,
        unpricedCalls: 1,
        served: ['anthropic · claude-sonnet-4-5', 'custom · llama-3.3-70b'],
      },
      { key: 'title_generation', calls: 1, inputTokens: 300, outputTokens: 12, cachedTokens: 0, cacheWriteTokens: 0, costUsd: 0.125, unpricedCalls: 0, served: ['openai · gpt-5-mini'] },
      { key: 'compression', calls: 1, inputTokens: 4000, outputTokens: 400, cachedTokens: 0, cacheWriteTokens: 0, costUsd: null, unpricedCalls: 1, served: ['custom · llama-3.3-70b'] },
      { key: 'vision', calls: 1, inputTokens: 500, outputTokens: 50, cachedTokens: 0, cacheWriteTokens: 0, costUsd: null, unpricedCalls: 1, served: ['anthropic · claude-sonnet-4-5'] },
    ]);
  });

  it('since: counts calls at or after the instant', async () => {
    await seed();
    const rows = await store.usageSummary({ by: 'model', since: 3_000 });
    expect(rows.map((row) => [row.key, row.calls, row.costUsd, row.unpricedCalls])).toEqual([
      ['openai · gpt-5-mini', 1, 0.125, 0],
      ['custom · llama-3.3-70b', 2, null, 2],
      ['anthropic · claude-sonnet-4-5', 1, null, 1],
    ]);
    expect(await store.usageSummary({ by: 'task', since: 6_001 })).toEqual([]);
  });

  it('records usage of a session deleted meanwhile: a call that ends after the delete still counts', async () => {
    const session = await store.createSession({ source: 'cli', provider: 'openai', model: 'gpt-5-mini' });
    await store.recordUsage(call({ sessionId: session.id, provider: 'openai', model: 'gpt-5-mini', task: 'main', costUsd: 0 }));
    expect(await store.deleteSessions([session.id])).toEqual([session.id]);
    await store.recordUsage(call({ sessionId: session.id, provider: 'openai', model: 'gpt-5-mini', task: 'title_generation', costUsd: 0.125 }));
    expect(await store.usageSummary({ by: 'model' })).toMatchObject([{ key: 'openai · gpt-5-mini', calls: 2, costUsd: 0.125, unpricedCalls: 0 }]);
  });

  it('a usage row outlives its session unchanged, through the store and behind its back', async () => {
    const session = await store.createSession({ source: 'telegram', provider: 'openai', model: 'gpt-5' });
    await store.recordUsage(call({ sessionId: session.id, source: 'platform:telegram', provider: 'openai', model: 'gpt-5', task: 'main', cachedTokens: 40, cacheWriteTokens: 60, costUsd: 0.5 }));
    const before = await stores.sql('SELECT * FROM usage');
    expect(before).toHaveLength(1);
    expect(await store.deleteSessions([session.id])).toEqual([session.id]);
    const other = await store.createSession({ source: 'cli', provider: 'openai', model: 'gpt-5' });
    await store.recordUsage(call({ sessionId: other.id, provider: 'openai', model: 'gpt-5', task: 'main', costUsd: 0.25 }));
    await stores.sql('DELETE FROM sessions WHERE id = ?', [other.id]);
    const after = await stores.sql('SELECT * FROM usage ORDER BY id');
    expect(after[0]).toEqual(before[0]);
    expect(after[1]).toMatchObject({ session_id: other.id, source: 'cli' });
    expect(await store.usageSummary({ by: 'source' })).toEqual<UsageRow[]>([
      { key: 'platform:telegram', calls: 1, inputTokens: 100, outputTokens: 10, cachedTokens: 40, cacheWriteTokens: 60, costUsd: 0.5, unpricedCalls: 0, served: ['openai · gpt-5'] },
      { key: 'cli', calls: 1, inputTokens: 100, outputTokens: 10, cachedTokens: 0, cacheWriteTokens: 0, costUsd: 0.25, unpricedCalls: 0, served: ['openai · gpt-5'] },
    ]);
  });

  it('by day: UTC days oldest first, a day ending at its last millisecond; until is exclusive', async () => {
    const at = (iso: string) => Date.parse(iso);
    await seed([
      call({ provider: 'openai', model: 'gpt-5', task: 'main', at: at('2026-11-27T23:59:59.999Z'), costUsd: 0.5, cacheWriteTokens: 7 }),
      call({ provider: 'custom', model: 'free', task: 'vision', at: at('2026-11-28T00:00:00.000Z') }),
      call({ provider: 'openai', model: 'gpt-5', task: 'main', at: at('2026-11-28T18:30:00.000Z'), costUsd: 0.25 }),
      call({ provider: 'openai', model: 'gpt-5', task: 'main', at: at('2026-11-29T00:00:00.000Z'), costUsd: 1 }),
    ]);
    expect(await store.usageSummary({ by: 'day', until: at('2026-11-29T00:00:00.000Z') })).toEqual<UsageRow[]>([
      { key: '2026-11-27', calls: 1, inputTokens: 100, outputTokens: 10, cachedTokens: 0, cacheWriteTokens: 7, costUsd: 0.5, unpricedCalls: 0, served: ['openai · gpt-5'] },
      { key: '2026-11-28', calls: 2, inputTokens: 200, outputTokens: 20, cachedTokens: 0, cacheWriteTokens: 0, costUsd: 0.25, unpricedCalls: 1, served: ['custom · free', 'openai · gpt-5'] },
    ]);
    expect((await store.usageSummary({ by: 'day', since: at('2026-11-28T00:00:00.000Z') })).map((row) => [row.key, row.calls])).toEqual([
      ['2026-11-28', 2],
      ['2026-11-29', 1],
    ]);
    expect(await store.usageSummary({ by: 'source', since: at('2026-11-28T00:00:00.000Z'), until: at('2026-11-28T00:00:00.001Z') })).toMatchObject([{ key: 'cli', calls: 1, costUsd: null, unpricedCalls: 1 }]);
  });

  it.each([
    [{ inputTokens: -1 }, 'inputTokens must be a whole number >= 0 (got -1)'],
    [{ outputTokens: 1.5 }, 'outputTokens must be a whole number >= 0 (got 1.5)'],
    [{ cachedTokens: Number.NaN }, 'cachedTokens must be a whole number >= 0 (got NaN)'],
    [{ costUsd: Number.NaN }, 'costUsd must be null or a number >= 0 (got NaN)'],
    [{ costUsd: -0.5 }, 'costUsd must be null or a number >= 0 (got -0.5)'],
    [{ at: Number.POSITIVE_INFINITY }, 'at must be epoch milliseconds (got Infinity)'],
    [{ task: '' }, 'task must be a non-empty string'],
    [{ source: '' as 'cli' }, 'source must be a non-empty string'],
    [{ cacheWriteTokens: -3 }, 'cacheWriteTokens must be a whole number >= 0 (got -3)'],
  ] as const)('refuses %j without writing', async (fields, problem) => {
    await expect(store.recordUsage(call({ provider: 'openai', model: 'gpt-5', task: 'main', ...fields }))).rejects.toMatchObject({
      code: 'invalid',
      message: `${path}: usage cannot be stored: ${problem}`,
    });
    expect(await store.usageSummary({ by: 'model' })).toEqual([]);
  });
});
});

describe('compareUsageRows', () => {
  const row = (key: string, costUsd: number | null, calls: number): UsageRow => ({
    key,
    calls,
    inputTokens: 0,
    outputTokens: 0,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    costUsd,
    unpricedCalls: costUsd === null ? calls : 0,
    served: [],
  });

  it('orders by cost, then calls, then key; a group with no known cost goes last', () => {
    const rows = [row('e', null, 9), row('d', 0, 1), row('c', 0.5, 1), row('b', 0.5, 3), row('a', 0.5, 3), row('f', null, 10)];
    expect(rows.sort(compareUsageRows).map((r) => r.key)).toEqual(['a', 'b', 'c', 'd', 'f', 'e']);
  });
});
