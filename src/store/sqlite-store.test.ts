// Opening state.db: file modes, migrations, and the files that must be refused. Real SQLite
// files in a temporary folder; no mocks.
import { createHash } from 'node:crypto';
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
import { openSqliteStore } from './sqlite-store.js';
import type { Store } from './types.js';

let dir: string;
let path: string;
const opened: Store[] = [];
beforeEach(async () => {
  dir = await makeTempDir('iris-store-');
  path = join(dir, 'state.db');
});
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  await removeDir(dir);
});

async function open(options: Parameters<typeof openSqliteStore>[1] = {}): Promise<Store> {
  const store = await openSqliteStore(path, options);
  opened.push(store);
  return store;
}

const modeOf = async (file: string) => (await stat(file)).mode & 0o777;
const exists = (file: string) => stat(file).then(
  () => true,
  () => false,
);
const digest = async (file: string) => createHash('sha256').update(await readFile(file)).digest('hex');

/** A second, plain connection to the same file, for looking underneath the store. */
function raw(options: Database.Options = {}): Database.Database {
  return new Database(path, { fileMustExist: true, ...options });
}

describe('openSqliteStore: files', () => {
  it('creates state.db, -wal and -shm as 0600 even under a permissive umask', async () => {
    const previous = process.umask(0o000);
    try {
      await open();
    } finally {
      process.umask(previous);
    }
    expect(await modeOf(path)).toBe(0o600);
    expect(await modeOf(`${path}-wal`)).toBe(0o600);
    expect(await modeOf(`${path}-shm`)).toBe(0o600);
  });

  it('later -wal and -shm files, made by any connection, inherit the 0600 of state.db', async () => {
    await (await openSqliteStore(path)).close();
    expect(await exists(`${path}-wal`)).toBe(false);
    const previous = process.umask(0o000);
    const db = raw();
    try {
      db.prepare("INSERT INTO sessions VALUES ('x', 'cli', NULL, 'p', 'm', 'idle', 1, 1)").run();
      expect(await modeOf(`${path}-wal`)).toBe(0o600);
      expect(await modeOf(`${path}-shm`)).toBe(0o600);
    } finally {
      db.close();
      process.umask(previous);
    }
  });

  it('narrows an existing state.db and its companions that are looser', async () => {
    await (await openSqliteStore(path)).close();
    await chmod(path, 0o644);
    await writeFile(`${path}-shm`, '');
    await chmod(`${path}-shm`, 0o666);
    await open();
    expect(await modeOf(path)).toBe(0o600);
    expect(await modeOf(`${path}-shm`)).toBe(0o600);
    expect(await modeOf(`${path}-wal`)).toBe(0o600);
  });

  it('with mustExist, never creates the file', async () => {
    await expect(openSqliteStore(path, { mustExist: true })).rejects.toMatchObject({
      name: 'StoreError',
      code: 'io',
      message: `cannot use ${path}: unable to open database file`,
    });
    expect(await exists(path)).toBe(false);
  });

  it('names the path when the folder does not exist', async () => {
    const missing = join(dir, 'nope', 'state.db');
    await expect(openSqliteStore(missing)).rejects.toMatchObject({
      code: 'io',
      message: `cannot use ${missing}: ENOENT: no such file or directory, open '${missing}'`,
    });
  });
});

describe('openSqliteStore: schema', () => {
  it('migrates an empty file to the current version, in WAL mode with foreign keys on', async () => {
    await open({ now: () => 1_700_000_000_000 });
    const db = raw({ readonly: true });
    try {
      expect(db.prepare('SELECT version, description, applied_at FROM schema_version ORDER BY version').all()).toEqual(
        MIGRATIONS.map((m) => ({ version: m.version, description: m.description, applied_at: 1_700_000_000_000 })),
      );
      const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all();
      expect(tables).toEqual([
        'kanban_tasks',
        'messages',
        'platform_approved_users',
        'platform_cursors',
        'platform_inbound',
        'platform_outbox',
        'platform_pairing',
        'platform_sessions',
        'pr_findings',
        'pr_review_plans',
        'pr_threads',
        'schema_version',
        'sessions',
        'skill_loads',
        'usage',
        'webhook_dedup',
        'webhook_events',
      ]);
      const indexes = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all();
      expect(indexes).toEqual([
        'kanban_tasks_by_parent',
        'kanban_tasks_by_status',
        'platform_inbound_by_updated',
        'platform_inbound_waiting',
        'platform_outbox_by_updated',
        'platform_outbox_origin',
        'platform_outbox_pending',
        'platform_pairing_by_user',
        'pr_findings_by_comment',
        'sessions_by_source',
        'sessions_by_updated_at',
        'skill_loads_by_at',
        'skill_loads_by_session',
        'usage_by_at',
        'usage_by_session',
        'webhook_events_by_lane',
        'webhook_events_by_state',
      ]);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      db.close();
    }
  });

  it('runs each migration once: a second open changes nothing', async () => {
    await (await openSqliteStore(path, { now: () => 1 })).close();
    await open({ now: () => 2 });
    const db = raw({ readonly: true });
    try {
      expect(db.prepare('SELECT applied_at FROM schema_version').pluck().all()).toEqual(MIGRATIONS.map(() => 1));
    } finally {
      db.close();
    }
  });

  it('refuses a file from a newer version and leaves it byte for byte as it was', async () => {
    const db = new Database(path);
    db.exec('CREATE TABLE schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at INTEGER NOT NULL)');
    db.prepare('INSERT INTO schema_version VALUES (?, ?, ?)').run(SCHEMA_VERSION + 1, 'from the future', 1);
    db.close();
    const before = await digest(path);
    await expect(openSqliteStore(path)).rejects.toMatchObject({
      name: 'StoreError',
      code: 'newer_schema',
      message: `${path} was written by a newer version of Iris (schema version ${SCHEMA_VERSION + 1}; this version knows up to ${SCHEMA_VERSION}); upgrade Iris to use it (the file was not changed)`,
    });
    expect(await digest(path)).toBe(before);
    expect(await exists(`${path}-wal`)).toBe(false);
  });

  it('refuses a file that is not an SQLite database, unchanged', async () => {
    await writeFile(path, 'these are my notes, not a database\n'.repeat(200), { mode: 0o600 });
    const before = await digest(path);
    await expect(openSqliteStore(path)).rejects.toMatchObject({
      code: 'corrupt',
      message: `${path} is damaged or not an SQLite database (file is not a database); move it aside and Iris starts a new one`,
    });
    expect(await digest(path)).toBe(before);
  });

  it("refuses another program's SQLite database", async () => {
    const db = new Database(path);
    db.exec('CREATE TABLE bookmarks (url TEXT); CREATE TABLE tags (name TEXT)');
    db.close();
    await expect(openSqliteStore(path)).rejects.toMatchObject({
      code: 'corrupt',
      message: `${path} is an SQLite database of another program (tables: bookmarks, tags); move it aside and Iris starts a new one`,
    });
  });

  it('refuses a damaged database as corrupt', async () => {
    const store = await openSqliteStore(path);
    await store.createSession({ source: 'cli', provider: 'openai', model: 'gpt-5' });
    await store.close();
    // Overwrite every page after the first with noise.
    const bytes = await readFile(path);
    bytes.fill(0xa5, bytes.readUInt16BE(16));
    await writeFile(path, bytes);
    await expect(openSqliteStore(path)).rejects.toMatchObject({
      code: 'corrupt',
      message: `${path} is damaged or not an SQLite database (database disk image is malformed); move it aside and Iris starts a new one`,
    });
  });
});

describe('two connections to one file', () => {
  it('sees the other connection’s committed writes', async () => {
    const writer = await open();
    const reader = await open();
    const session = await writer.createSession({ source: 'gateway', provider: 'anthropic', model: 'claude-sonnet-4-5' });
    await writer.appendMessages(session.id, [{ role: 'user', content: 'from the gateway' }]);
    expect(await reader.getSession(session.id)).toEqual(await writer.getSession(session.id));
    expect(await reader.getSession(session.id)).toMatchObject({ id: session.id, source: 'gateway' });
    expect(await reader.loadMessages(session.id)).toEqual([{ role: 'user', content: 'from the gateway' }]);
    await reader.appendMessages(session.id, [{ role: 'assistant', content: 'and back' }]);
    expect(await writer.loadMessages(session.id)).toEqual([
      { role: 'user', content: 'from the gateway' },
      { role: 'assistant', content: 'and back' },
    ]);
  });

  it('waits for another writer up to the busy timeout, then fails with busy', async () => {
    const store = await open({ busyTimeoutMs: 50 });
    const session = await store.createSession({ source: 'cli', provider: 'openai', model: 'gpt-5' });
    const other = raw();
    try {
      other.exec('BEGIN IMMEDIATE');
      await expect(store.appendMessages(session.id, [{ role: 'user', content: 'blocked' }])).rejects.toMatchObject({
        name: 'StoreError',
        code: 'busy',
        message: `${path} is locked by another process (database is locked); try again`,
      });
      // Readers are not blocked by a writer in WAL mode.
      expect(await store.getSession(session.id)).toEqual(session);
      other.exec('COMMIT');
      await store.appendMessages(session.id, [{ role: 'user', content: 'now' }]);
      expect(await store.loadMessages(session.id)).toEqual([{ role: 'user', content: 'now' }]);
    } finally {
      other.close();
    }
  });
});

describe('close', () => {
  it('can be called twice; later calls fail with a StoreError', async () => {
    const store = await openSqliteStore(path);
    await store.close();
    await store.close();
    await expect(store.listSessions()).rejects.toMatchObject({ name: 'StoreError', code: 'io' });
  });
});
