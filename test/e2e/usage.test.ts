// `iris usage` against a state.db seeded through the store module.
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/migrations.js';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { closeTo } from '../helpers/documents.js';
import type { SeededUsage } from '../helpers/dashboard-page.js';

let dir: string;
let home: string;
let statePath: string;
beforeEach(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
  statePath = join(home, 'state.db');
});
afterEach(() => removeDir(dir));

const iris = (args: string[]) => runIris(args, { home });
const HOUR = 3_600_000;

async function seed(records: readonly SeededUsage[]): Promise<void> {
  await mkdir(home, { recursive: true, mode: 0o700 });
  const store = await openSqliteStore(statePath);
  try {
    const session = await store.createSession({ source: 'cli', provider: 'anthropic', model: 'claude-sonnet-4-5' });
    for (const record of records) await store.recordUsage({ sessionId: session.id, source: 'cli', cacheWriteTokens: 0, ...record });
  } finally {
    await store.close();
  }
}

function calls(now: number): SeededUsage[] {
  const base = { at: now - HOUR, cachedTokens: 0 };
  return [
    { ...base, provider: 'anthropic', model: 'claude-sonnet-4-5', task: 'main', inputTokens: 48_210, outputTokens: 3_904, cachedTokens: 20_000, cacheWriteTokens: 1_500, costUsd: 0.204 },
    { ...base, provider: 'anthropic', model: 'claude-sonnet-4-5', task: 'vision', inputTokens: 1_000, outputTokens: 50, costUsd: null },
    { ...base, provider: 'openai', model: 'gpt-5-mini', task: 'title_generation', inputTokens: 300, outputTokens: 12, costUsd: 0.0001 },
    { ...base, provider: 'openai', model: 'gpt-5-mini', task: 'main', inputTokens: 12_000, outputTokens: 800, cachedTokens: 4_000, costUsd: 0.0123 },
    { ...base, provider: 'custom', model: 'llama-3.3-70b', task: 'compression', inputTokens: 5_000, outputTokens: 400, costUsd: null },
    // Two days old: outside --since 24h.
    { ...base, at: now - 48 * HOUR, provider: 'openai', model: 'gpt-5-mini', task: 'main', inputTokens: 1_000_000, outputTokens: 1, costUsd: 1.5 },
  ];
}

describe('iris usage', () => {
  it('says nothing is recorded, and does not create state.db, when there is none', async () => {
    expect(await iris(['usage'])).toEqual({ code: 0, stdout: 'no usage recorded yet\n', stderr: '' });
    expect(await iris(['usage', '--json', '--by', 'task'])).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
    await expect(stat(statePath)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('prints a table by model: known costs, unknown ones, and a total', async () => {
    await seed(calls(Date.now()));
    const result = await iris(['usage', '--since', '24h']);
    expect(result).toEqual({
      code: 0,
      stderr: '',
      stdout: [
        'model                          calls   input  output  cached  cache write  cost',
        'anthropic · claude-sonnet-4-5      2  49,210   3,954  20,000        1,500  $0.2040 + 1 unpriced',
        'openai · gpt-5-mini                2  12,300     812   4,000            0  $0.0124',
        'custom · llama-3.3-70b             1   5,000     400       0            0  unpriced',
        'total                              5  66,510   5,166  24,000        1,500  $0.2164 + 2 unpriced',
        '',
      ].join('\n'),
    });
  });

  it('groups by task, and counts every call without --since', async () => {
    await seed(calls(Date.now()));
    const result = await iris(['usage', '--by', 'task']);
    expect(result).toEqual({
      code: 0,
      stderr: '',
      stdout: [
        'task              calls      input  output  cached  cache write  cost',
        'main                  3  1,060,210   4,705  24,000        1,500  $1.7163',
        'title_generation      1        300      12       0            0  $0.0001',
        'compression           1      5,000     400       0            0  unpriced',
        'vision                1      1,000      50       0            0  unpriced',
        'total                 6  1,066,510   5,167  24,000        1,500  $1.7164 + 2 unpriced',
        '',
      ].join('\n'),
    });
  });

  it('prints the rows as JSON with --json', async () => {
    await seed(calls(Date.now()));
    const result = await iris(['usage', '--since', '24h', '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual([
      {
        key: 'anthropic · claude-sonnet-4-5',
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        calls: 2,
        input_tokens: 49_210,
        output_tokens: 3_954,
        cached_tokens: 20_000,
        cache_write_tokens: 1_500,
        cost_usd: 0.204,
        unpriced_calls: 1,
        served: ['main', 'vision'],
      },
      {
        key: 'openai · gpt-5-mini',
        provider: 'openai',
        model: 'gpt-5-mini',
        calls: 2,
        input_tokens: 12_300,
        output_tokens: 812,
        cached_tokens: 4_000,
        cache_write_tokens: 0,
        cost_usd: closeTo(0.0124, 10),
        unpriced_calls: 0,
        served: ['main', 'title_generation'],
      },
      {
        key: 'custom · llama-3.3-70b',
        provider: 'custom',
        model: 'llama-3.3-70b',
        calls: 1,
        input_tokens: 5_000,
        output_tokens: 400,
        cached_tokens: 0,
        cache_write_tokens: 0,
        cost_usd: null,
        unpriced_calls: 1,
        served: ['compression'],
      },
    ]);
  });

  it('groups by UTC day (oldest first) and by source, within --since and --until', async () => {
    const day = (iso: string) => Date.parse(iso);
    await seed([
      { at: day('2026-11-20T23:59:59.999Z'), provider: 'openai', model: 'gpt-5', task: 'main', inputTokens: 100, outputTokens: 10, cachedTokens: 0, costUsd: 0.5 },
      { at: day('2026-11-21T00:00:00Z'), provider: 'openai', model: 'gpt-5', task: 'main', inputTokens: 200, outputTokens: 20, cachedTokens: 50, costUsd: 0.25, source: 'webhook:pr-review' },
      { at: day('2026-11-21T12:00:00Z'), provider: 'anthropic', model: 'claude-x', task: 'title_generation', inputTokens: 300, outputTokens: 3, cachedTokens: 0, cacheWriteTokens: 30, costUsd: null, source: 'webhook:pr-review' },
      { at: day('2026-11-22T00:00:00Z'), provider: 'openai', model: 'gpt-5', task: 'main', inputTokens: 1, outputTokens: 1, cachedTokens: 0, costUsd: 1, source: 'platform:telegram' },
    ]);
    const byDay = await iris(['usage', '--by', 'day', '--since', '2026-11-20T00:00Z', '--until', '2026-11-22T00:00Z', '--json']);
    expect(byDay).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(byDay.stdout)).toEqual([
      { key: '2026-11-20', day: '2026-11-20', calls: 1, input_tokens: 100, output_tokens: 10, cached_tokens: 0, cache_write_tokens: 0, cost_usd: 0.5, unpriced_calls: 0, served: ['openai · gpt-5'] },
      { key: '2026-11-21', day: '2026-11-21', calls: 2, input_tokens: 500, output_tokens: 23, cached_tokens: 50, cache_write_tokens: 30, cost_usd: 0.25, unpriced_calls: 1, served: ['anthropic · claude-x', 'openai · gpt-5'] },
    ]);
    const bySource = await iris(['usage', '--by', 'source', '--json']);
    expect(JSON.parse(bySource.stdout)).toEqual([
      { key: 'platform:telegram', source: 'platform:telegram', calls: 1, input_tokens: 1, output_tokens: 1, cached_tokens: 0, cache_write_tokens: 0, cost_usd: 1, unpriced_calls: 0, served: ['openai · gpt-5'] },
      { key: 'cli', source: 'cli', calls: 1, input_tokens: 100, output_tokens: 10, cached_tokens: 0, cache_write_tokens: 0, cost_usd: 0.5, unpriced_calls: 0, served: ['openai · gpt-5'] },
      { key: 'webhook:pr-review', source: 'webhook:pr-review', calls: 2, input_tokens: 500, output_tokens: 23, cached_tokens: 50, cache_write_tokens: 30, cost_usd: 0.25, unpriced_calls: 1, served: ['anthropic · claude-x', 'openai · gpt-5'] },
    ]);
    expect(await iris(['usage', '--by', 'source', '--until', '2026-11-21T00:00Z'])).toEqual({
      code: 0,
      stderr: '',
      stdout: ['source  calls  input  output  cached  cache write  cost', 'cli         1    100      10       0            0  $0.5000', ''].join('\n'),
    });
  });

  it('prints one row without a total, and says when the window is empty', async () => {
    const now = Date.now();
    await seed([{ at: now - 3 * HOUR, provider: 'openai', model: 'gpt-5', task: 'main', inputTokens: 10, outputTokens: 2, cachedTokens: 0, costUsd: 0.00001 }]);
    expect((await iris(['usage'])).stdout).toBe(
      ['model           calls  input  output  cached  cache write  cost', 'openai · gpt-5      1     10       2       0            0  <$0.0001', ''].join('\n'),
    );
    const empty = await iris(['usage', '--since', '2h']);
    expect(empty.code).toBe(0);
    expect(empty.stderr).toBe('');
    expect(empty.stdout).toMatch(/^no usage recorded since \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z\n$/);
  });

  it.each([
    [['--since', '7x'], 'iris: error: --since "7x" is not valid (use a span such as 30m, 24h, 7d or 2w, or a date such as 2026-11-01)\n'],
    [['--since', '2999-01-01'], 'iris: error: --since "2999-01-01" is in the future\n'],
    [['--by', 'week'], "iris: error: option '--by <group>' argument 'week' is invalid. Allowed choices are model, task, day, source. (see iris usage --help)\n"],
    [['--until', 'later'], 'iris: error: --until "later" is not valid (use a span such as 30m, 24h, 7d or 2w, or a date such as 2026-11-01)\n'],
    [['--since', '2d', '--until', '3d'], 'iris: error: --until "3d" is not after --since "2d"; nothing falls between them\n'],
  ])('rejects %j with exit 2 and one line', async (args, stderr) => {
    expect(await iris(['usage', ...args])).toEqual({ code: 2, stdout: '', stderr });
    await expect(stat(statePath)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('several processes opening an empty state.db at once migrate it once', async () => {
    await mkdir(home, { recursive: true, mode: 0o700 });
    await writeFile(statePath, '', { mode: 0o600 });
    const results = await Promise.all(Array.from({ length: 6 }, () => iris(['usage'])));
    expect(results).toEqual(Array.from({ length: 6 }, () => ({ code: 0, stdout: 'no usage recorded yet\n', stderr: '' })));
    const db = new Database(statePath, { readonly: true });
    try {
      expect(db.prepare('SELECT version FROM schema_version ORDER BY version').pluck().all()).toEqual(MIGRATIONS.map((m) => m.version));
    } finally {
      db.close();
    }
  });

  it('refuses a state.db from a newer Iris with exit 1, naming the file', async () => {
    await mkdir(home, { recursive: true, mode: 0o700 });
    await writeFile(statePath, '', { mode: 0o600 });
    const db = new Database(statePath);
    db.exec('CREATE TABLE schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at INTEGER NOT NULL)');
    db.prepare('INSERT INTO schema_version VALUES (?, ?, ?)').run(SCHEMA_VERSION + 1, 'future', 1);
    db.close();
    expect(await iris(['usage'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `iris: error: ${statePath} was written by a newer version of Iris (schema version ${SCHEMA_VERSION + 1}; this version knows up to ${SCHEMA_VERSION}); upgrade Iris to use it (the file was not changed)\n`,
    });
  });

  it('refuses a state.db that is not a database with exit 1', async () => {
    await mkdir(home, { recursive: true, mode: 0o700 });
    await writeFile(statePath, 'not sqlite\n'.repeat(100), { mode: 0o600 });
    expect(await iris(['usage'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `iris: error: ${statePath} is damaged or not an SQLite database (file is not a database); move it aside and Iris starts a new one\n`,
    });
  });
});
