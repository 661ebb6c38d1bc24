// `iris store prune` on both stores: --dry-run lists and removes nothing; off a terminal it needs
// --yes; with it, old automation sessions, skill loads and curator reports go, and old usage is
// folded into per-day totals while every `iris usage --json` grouping prints what it printed before.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/store/pg/pg-store.js';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/types.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { adminQuery, dropSchema, freshSchemaName, schemaUrl } from '../helpers/postgres.js';

const DAY = 86_400_000;
const NOW = Date.now();

async function seed(store: Store, clock: { at: number }): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  const session = async (name: string, source: string, daysAgo: number) => {
    clock.at = NOW - daysAgo * DAY;
    const created = await store.createSession({ source, provider: 'p', model: 'm' });
    await store.appendMessages(created.id, [{ role: 'user', content: `${name} says hi` }]);
    ids[name] = created.id;
  };
  await session('oldRun', 'webhook:pr', 45);
  await session('newRun', 'webhook:pr', 5);
  await session('oldChat', 'cli', 500);
  await session('oldTelegram', 'telegram', 120);
  for (let day = 0; day < 100; day += 1) {
    for (const [task, cost] of [['main', 0.013 * (day + 1)], ['title_generation', null]] as const) {
      // Days 91 to 99 ago are before the cut-off (the start of the UTC day 90 days ago): 9 days, 2 rows each.
      await store.recordUsage({ sessionId: null, source: day % 2 ? 'cli' : 'webhook:pr', at: NOW - day * DAY - 1000, provider: 'openai', model: 'gpt-4.1', task, inputTokens: 100 + day, outputTokens: 10, cachedTokens: 5, cacheWriteTokens: 1, costUsd: cost });
    }
  }
  await store.skillLoads.record('lint', null, NOW - 400 * DAY);
  await store.skillLoads.record('lint', null, NOW - 10 * DAY);
  return ids;
}

describe.each(['sqlite', 'postgres'] as const)('iris store prune on %s', (backend) => {
  let home: string;
  let schema: string;
  let env: Record<string, string>;
  let ids: Record<string, string>;

  beforeEach(async () => {
    home = await makeTempDir('iris-prune-');
    env = { IRIS_HOME: home };
    const clock = { at: NOW };
    let store: Store;
    if (backend === 'postgres') {
      schema = freshSchemaName('iris_prune');
      await adminQuery(`CREATE SCHEMA ${schema}`);
      env.IRIS_STORE_URL = schemaUrl(schema);
      store = await openPostgresStore(env.IRIS_STORE_URL, { now: () => clock.at });
    } else {
      store = await openSqliteStore(join(home, 'state.db'), { now: () => clock.at });
    }
    try {
      ids = await seed(store, clock);
    } finally {
      await store.close();
    }
    await mkdir(join(home, 'curator'), { recursive: true });
    for (let i = 1; i <= 52; i += 1) await writeFile(join(home, 'curator', `2026-${String(Math.ceil(i / 28)).padStart(2, '0')}-${String(((i - 1) % 28) + 1).padStart(2, '0')}.md`), `report ${i}\n`);
    await writeFile(join(home, 'curator', 'notes.txt'), 'mine\n');
  });

  afterEach(async () => {
    if (backend === 'postgres') await dropSchema(schema);
    await removeDir(home);
  });

  const usage = async () => {
    const out: unknown[] = [];
    for (const by of ['model', 'task', 'day', 'source']) {
      const result = await runIris(['usage', '--by', by, '--json'], { home, env });
      expect(result.code, result.stderr).toBe(0);
      out.push(JSON.parse(result.stdout));
    }
    return out;
  };
  const sessionIds = async () => {
    const result = await runIris(['sessions', 'list', '--json'], { home, env });
    return (JSON.parse(result.stdout) as Array<{ id: string }>).map((s) => s.id).sort();
  };

  it('lists, asks for --yes off a terminal, prunes, and iris usage prints the same figures', async () => {
    const before = await usage();
    const expectedCounts = { sessions: { cli: 0, dashboard: 0, webhook: 1, platform: 1 }, skill_loads: 1, usage_rows_folded: 18, usage_day_rows: 18, curator_reports: 2 };

    const dry = await runIris(['store', 'prune', '--dry-run', '--json'], { home, env });
    expect(dry.code, dry.stderr).toBe(0);
    const plan = JSON.parse(dry.stdout) as Record<string, unknown>;
    expect({ ...plan, cutoffs: undefined }).toEqual({ dry_run: true, cutoffs: undefined, ...expectedCounts });
    expect((plan.cutoffs as Record<string, unknown>).curator_reports_kept).toBe(50);
    expect((await sessionIds()).length).toBe(4);

    const refused = await runIris(['store', 'prune'], { home, env });
    expect([refused.code, refused.stderr.trim().split('\n').at(-1)]).toEqual([2, 'iris: error: iris store prune asks before removing anything: run it on a terminal, or pass --yes']);
    expect((await sessionIds()).length).toBe(4);

    const pruned = await runIris(['store', 'prune', '--yes', '--json'], { home, env });
    expect(pruned.code, pruned.stderr).toBe(0);
    expect({ ...JSON.parse(pruned.stdout), cutoffs: undefined }).toEqual({ dry_run: false, cutoffs: undefined, ...expectedCounts });

    expect(await sessionIds()).toEqual([ids.newRun!, ids.oldChat!].sort());
    expect(await usage()).toEqual(before);
    const reports = (await readdir(join(home, 'curator'))).sort();
    expect([reports.length, reports.includes('notes.txt'), reports.includes('2026-01-01.md'), reports.includes('2026-02-24.md')]).toEqual([51, true, false, true]);

    const again = await runIris(['store', 'prune', '--yes'], { home, env });
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(again.stdout).toContain('usage detail: 0 rows before');
  });
});
