import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import { migrate, MIGRATIONS, readSchemaVersion, SCHEMA_VERSION } from './migrations.js';

let dir: string;
let db: Database.Database;
beforeEach(async () => {
  dir = await makeTempDir('iris-store-');
  db = new Database(join(dir, 'state.db'));
});
afterEach(async () => {
  db.close();
  await removeDir(dir);
});

describe('migrations', () => {
  // Branches take their numbers ahead of merging, so a number may be missing here for a while.
  it('are numbered upwards from 1, and the schema version is the last', () => {
    const versions = MIGRATIONS.map((m) => m.version);
    expect(versions[0]).toBe(1);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    expect(SCHEMA_VERSION).toBe(versions[versions.length - 1]);
  });

  it('take an empty file from version 0 to the last, and then do nothing', () => {
    expect(readSchemaVersion(db, 'state.db')).toBe(0);
    expect(migrate(db, 'state.db', 5)).toEqual({ from: 0, to: SCHEMA_VERSION });
    expect(readSchemaVersion(db, 'state.db')).toBe(SCHEMA_VERSION);
    expect(migrate(db, 'state.db', 6)).toEqual({ from: SCHEMA_VERSION, to: SCHEMA_VERSION });
    expect(db.prepare('SELECT count(*) FROM schema_version').pluck().get()).toBe(MIGRATIONS.length);
  });

  it('refuse a newer file inside the transaction, leaving it as it was', () => {
    db.exec('CREATE TABLE schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT');
    db.prepare('INSERT INTO schema_version VALUES (?, ?, ?)').run(SCHEMA_VERSION + 1, 'future', 1);
    expect(() => migrate(db, 'state.db', 5)).toThrow(
      expect.objectContaining({ code: 'newer_schema' }),
    );
    expect(db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all()).toEqual(['schema_version']);
  });

  it('reject a negative token count or cost at the database too', () => {
    migrate(db, 'state.db', 5);
    const insert = db.prepare("INSERT INTO usage (at, source, provider, model, task, input_tokens, output_tokens, cached_tokens, cache_write_tokens, cost_usd) VALUES (1, 'cli', ?, ?, ?, ?, ?, ?, 0, ?)");
    expect(() => insert.run('p', 'm', 't', -1, 0, 0, null)).toThrow('CHECK constraint failed');
    expect(() => insert.run('p', 'm', 't', 0, 0, 0, -0.1)).toThrow('CHECK constraint failed');
    expect(() => insert.run('p', 'm', 't', 'many', 0, 0, null)).toThrow('cannot store TEXT value in INTEGER column usage.input_tokens');
  });

  it('index every foreign key a delete walks (a session delete never scans a whole table)', () => {
    migrate(db, 'state.db', 5);
    const tables = db.prepare<[], string>("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all();
    const unindexed: string[] = [];
    for (const table of tables) {
      const keys = db.pragma(`foreign_key_list(${table})`) as Array<{ from: string; table: string }>;
      const leading = (db.pragma(`index_list(${table})`) as Array<{ name: string }>).map(
        (index) => (db.pragma(`index_info(${index.name})`) as Array<{ seqno: number; name: string }>).find((column) => column.seqno === 0)?.name,
      );
      for (const key of keys) if (!leading.includes(key.from)) unindexed.push(`${table}.${key.from} → ${key.table}`);
    }
    expect(unindexed).toEqual([]);
  });

  it('keep skill loads after their session is deleted (unlinked)', () => {
    migrate(db, 'state.db', 5);
    db.prepare("INSERT INTO sessions VALUES ('s1', 'cli', NULL, 'p', 'm', 'idle', 1, 1)").run();
    db.pragma('foreign_keys = ON');
    db.prepare("INSERT INTO skill_loads (skill, session_id, at) VALUES ('deploy', 's1', 10)").run();
    db.prepare("DELETE FROM sessions WHERE id = 's1'").run();
    expect(db.prepare('SELECT skill, session_id AS session, at FROM skill_loads').all()).toEqual([{ skill: 'deploy', session: null, at: 10 }]);
  });
});
