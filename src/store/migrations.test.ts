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
  it('are numbered 1, 2, 3… with no gap, and the schema version is the last', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, index) => index + 1));
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
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
    const insert = db.prepare('INSERT INTO usage (at, provider, model, task, input_tokens, output_tokens, cached_tokens, cost_usd) VALUES (1, ?, ?, ?, ?, ?, ?, ?)');
    expect(() => insert.run('p', 'm', 't', -1, 0, 0, null)).toThrow('CHECK constraint failed');
    expect(() => insert.run('p', 'm', 't', 0, 0, 0, -0.1)).toThrow('CHECK constraint failed');
    expect(() => insert.run('p', 'm', 't', 'many', 0, 0, null)).toThrow('cannot store TEXT value in INTEGER column usage.input_tokens');
  });
});
