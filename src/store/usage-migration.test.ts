// The usage ledger's migration on a store written before it (SQLite 7 → 8, PostgreSQL 8 → 9):
// every old row keeps its id and figures, gets the source of its session (`platform:` before a
// platform's bare name), `cli` without a session, and 0 cache-write tokens; afterwards a deleted
// session leaves its usage rows as they are.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import { adminQuery, dropSchema, freshSchemaName, PG_TEST_URL } from '../../test/helpers/postgres.js';
import { MIGRATIONS } from './migrations.js';
import { PG_MIGRATIONS } from './pg/pg-migrations.js';
import { openPostgresStore } from './pg/pg-store.js';
import { openSqliteStore } from './sqlite-store.js';
import type { Store } from './types.js';

const SESSIONS = [
  ['s-cli', 'cli'],
  ['s-hook', 'webhook:pr-review'],
  ['s-tg', 'telegram'],
  ['s-dash', 'dashboard'],
];
// [id, session, cost]: s-gone was deleted before (the old foreign key had set it NULL).
const OLD_USAGE: ReadonlyArray<readonly [number, string | null, number | null]> = [
  [1, 's-cli', 0.5],
  [2, 's-hook', null],
  [3, 's-tg', 0.25],
  [4, 's-dash', 1],
  [5, null, 0.125],
];
const EXPECTED = [
  { id: 1, session_id: 's-cli', source: 'cli', cache_write_tokens: 0, cost_usd: 0.5 },
  { id: 2, session_id: 's-hook', source: 'webhook:pr-review', cache_write_tokens: 0, cost_usd: null },
  { id: 3, session_id: 's-tg', source: 'platform:telegram', cache_write_tokens: 0, cost_usd: 0.25 },
  { id: 4, session_id: 's-dash', source: 'dashboard', cache_write_tokens: 0, cost_usd: 1 },
  { id: 5, session_id: null, source: 'cli', cache_write_tokens: 0, cost_usd: 0.125 },
];
const ROWS_SQL = 'SELECT id, session_id, source, cache_write_tokens, cost_usd FROM usage ORDER BY id';

const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

describe('sqlite: 7 → 8', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir('iris-store-');
  });
  afterEach(() => removeDir(dir));

  it('derives each old row\'s source, keeps ids and figures, and drops the foreign key', async () => {
    const path = join(dir, 'state.db');
    const db = new Database(path);
    db.exec('CREATE TABLE schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT');
    for (const migration of MIGRATIONS.filter((m) => m.version <= 7)) {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_version VALUES (?, ?, 1)').run(migration.version, migration.description);
    }
    for (const [id, source] of SESSIONS) db.prepare("INSERT INTO sessions VALUES (?, ?, NULL, 'p', 'm', 'idle', 1, 1)").run(id, source);
    for (const [id, session, cost] of OLD_USAGE) {
      db.prepare("INSERT INTO usage (id, session_id, at, provider, model, task, input_tokens, output_tokens, cached_tokens, cost_usd) VALUES (?, ?, 5, 'p', 'm', 'main', 10, 1, 0, ?)").run(id, session, cost);
    }
    db.close();

    const store = await openSqliteStore(path);
    stores.push(store);
    expect(await store.deleteSessions(['s-tg'])).toEqual(['s-tg']);
    const after = new Database(path, { readonly: true });
    try {
      expect(after.prepare(ROWS_SQL).all()).toEqual(EXPECTED);
      expect(after.prepare("SELECT count(*) AS n FROM pragma_foreign_key_list('usage')").get()).toEqual({ n: 0 });
      expect(after.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'usage' ORDER BY name").pluck().all()).toEqual(['usage_by_at', 'usage_by_session']);
    } finally {
      after.close();
    }
    expect((await store.usageSummary({ by: 'source' })).map((row) => [row.key, row.calls])).toEqual([
      ['dashboard', 1],
      ['cli', 2],
      ['platform:telegram', 1],
      ['webhook:pr-review', 1],
    ]);
  });
});

describe('postgres: 8 → 9', () => {
  const schema = freshSchemaName();
  afterAll(() => dropSchema(schema));

  it('derives each old row\'s source, keeps ids and figures, and drops the foreign key', async () => {
    await adminQuery(`CREATE SCHEMA ${schema}`);
    const q = (sql: string, values: unknown[] = []) => adminQuery(sql, values, PG_TEST_URL, schema);
    await q('CREATE TABLE schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at BIGINT NOT NULL)');
    for (const migration of PG_MIGRATIONS.filter((m) => m.version <= 8)) {
      await q(migration.sql);
      await q('INSERT INTO schema_version VALUES ($1, $2, 1)', [migration.version, migration.description]);
    }
    for (const [id, source] of SESSIONS) await q("INSERT INTO sessions VALUES ($1, $2, NULL, 'p', 'm', 'idle', 1, 1)", [id, source]);
    for (const [id, session, cost] of OLD_USAGE) {
      await q("INSERT INTO usage (id, session_id, at, provider, model, task, input_tokens, output_tokens, cached_tokens, cost_usd) VALUES ($1, $2, 5, 'p', 'm', 'main', 10, 1, 0, $3)", [id, session, cost]);
    }

    const store = await openPostgresStore(PG_TEST_URL, { schema, poolSize: 2 });
    stores.push(store);
    expect(await store.deleteSessions(['s-tg'])).toEqual(['s-tg']);
    expect((await q(ROWS_SQL)).rows).toEqual(EXPECTED);
    expect((await q("SELECT count(*) AS n FROM pg_constraint WHERE conrelid = 'usage'::regclass AND contype = 'f'")).rows).toEqual([{ n: 0 }]);
    await expect(q("INSERT INTO usage (session_id, source, at, provider, model, task, input_tokens, output_tokens, cached_tokens, cache_write_tokens) VALUES (NULL, '', 1, 'p', 'm', 'main', 1, 1, 0, 0)")).rejects.toThrow('usage_source_not_empty');
  });
});
