// copySqliteToPg against a real PostgreSQL, a schema of its own per test: every row moved with
// its ids and times, sequences past the copied ids, batches larger than one INSERT, and a count
// mismatch rolled back whole.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminQuery, dropSchema, freshSchemaName, PG_TEST_URL } from '../../../test/helpers/postgres.js';
import { fillSqliteStore } from '../../../test/helpers/store-fixture.js';
import { PG_SCHEMA_VERSION } from '../pg/pg-migrations.js';
import { openPostgresStore } from '../pg/pg-store.js';
import { copySqliteToPg } from './copy-to-pg.js';

let dir: string;
let statePath: string;
let schema: string;
let url: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'iris-copy-'));
  statePath = join(dir, 'state.db');
  schema = freshSchemaName('iris_copy');
  await adminQuery(`CREATE SCHEMA ${schema}`);
  url = `${PG_TEST_URL}?options=-c%20search_path%3D${schema}`;
});
afterEach(async () => {
  await dropSchema(schema);
  await rm(dir, { recursive: true, force: true });
});

const idsOf = async (table: string): Promise<number[]> => (await adminQuery(`SELECT id FROM ${table} ORDER BY id`, [], PG_TEST_URL, schema)).rows.map((r: { id: number }) => r.id);

describe('copySqliteToPg', () => {
  it('copies 1,200 usage rows (three INSERT batches) keeping every id, and the next id follows the last', async () => {
    const counts = await fillSqliteStore(statePath, { usageRows: 1_200 });
    const result = await copySqliteToPg(statePath, url, { force: false });
    expect(result).toMatchObject({ ok: true, migrated: { from: 0, to: PG_SCHEMA_VERSION }, replaced: false });
    expect(Object.fromEntries(result.ok ? result.counts : [])).toEqual(counts);
    const ids = await idsOf('usage');
    expect(ids).toEqual(Array.from({ length: 1_200 }, (_, i) => i + 1));
    const store = await openPostgresStore(url);
    try {
      await store.recordUsage({ sessionId: null, at: 1, provider: 'p', model: 'm', task: 'main', inputTokens: 1, outputTokens: 1, cachedTokens: 0, cacheWriteTokens: 0, source: 'cli', costUsd: null });
    } finally {
      await store.close();
    }
    expect((await adminQuery('SELECT max(id) AS id FROM usage', [], PG_TEST_URL, schema)).rows[0]).toEqual({ id: 1_201 });
  });

  it('reads the sessions and messages back through the PostgreSQL store as they were in SQLite', async () => {
    await fillSqliteStore(statePath);
    const before = await readFile(statePath);
    expect((await copySqliteToPg(statePath, url, { force: false })).ok).toBe(true);
    expect((await readFile(statePath)).equals(before)).toBe(true);
    const store = await openPostgresStore(url);
    try {
      const sessions = await store.listSessions();
      expect(sessions.map((s) => [s.title, s.source, s.messageCount])).toEqual([
        [null, 'webhook:github', 1],
        ['first', 'cli', 2],
      ]);
      expect(await store.loadMessages(sessions[1]!.id)).toEqual([
        { role: 'user', content: 'hello "quoted" Ünïcödé ✓' },
        { role: 'assistant', content: 'hi' },
      ]);
    } finally {
      await store.close();
    }
  });

  it('rolls the whole copy back when a table\'s count differs (a trigger drops the usage rows)', async () => {
    await fillSqliteStore(statePath);
    const migrated = await openPostgresStore(url);
    await migrated.close();
    await adminQuery(`CREATE FUNCTION ${schema}.drop_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`);
    await adminQuery(`CREATE TRIGGER drop_usage BEFORE INSERT ON ${schema}.usage FOR EACH ROW EXECUTE FUNCTION ${schema}.drop_row()`);
    const result = await copySqliteToPg(statePath, url, { force: false });
    expect(result).toEqual({ ok: false, code: 'mismatch', message: "the copy's row counts differ (usage: 3 in SQLite, 0 in PostgreSQL); nothing was copied" });
    expect((await adminQuery('SELECT count(*)::int AS n FROM sessions', [], PG_TEST_URL, schema)).rows[0]).toEqual({ n: 0 });
    expect((await adminQuery('SELECT count(*)::int AS n FROM kanban_tasks', [], PG_TEST_URL, schema)).rows[0]).toEqual({ n: 0 });
  });
});
