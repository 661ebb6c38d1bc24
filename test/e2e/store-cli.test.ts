// `iris store status|migrate|copy` through bin/iris against a temporary IRIS_HOME and, for
// PostgreSQL, a fresh schema of the test database per test. The store URL carries a password
// (trust auth ignores it) that must never be printed.
import { createRequire } from 'node:module';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminQuery, dropSchema, freshSchemaName } from '../helpers/postgres.js';
import { makeTempDir, removeDir, runIris, type RunResult } from '../helpers/iris.js';
import { fillSqliteStore } from '../helpers/store-fixture.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

let dir: string;
let home: string;
let schema: string;
/** What the commands are given: with a password. */
let url: string;
/** What they may print instead: the password masked. */
let shown: string;

beforeEach(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
  schema = freshSchemaName('iris_cli');
  await adminQuery(`CREATE SCHEMA ${schema}`);
  url = `postgres://postgres:secret@127.0.0.1:5432/test?options=-c%20search_path%3D${schema}`;
  shown = `postgres://postgres:***@127.0.0.1:5432/test?options=-c%20search_path%3D${schema}`;
});
afterEach(async () => {
  await dropSchema(schema);
  await removeDir(dir);
});

const iris = (args: string[], env: Record<string, string> = {}) => runIris(args, { home, env });
const statePath = () => join(home, 'state.db');
const noSecret = (run: RunResult) => expect(`${run.stdout}${run.stderr}`).not.toContain('secret');
const pg = async (sql: string) => (await adminQuery(sql, [], undefined, schema)).rows as Record<string, unknown>[];
const countIn = async (table: string) => (await pg(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;

function sqliteRows(table: string, orderBy: string): Record<string, unknown>[] {
  const db = new Database(statePath(), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(`SELECT * FROM ${table} ORDER BY ${orderBy}`).all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

const SQLITE_PENDING = [
  '  1  sessions, messages, usage',
  '  2  webhook inbox and dedup records',
  '  3  webhook deliveries that may have reached the code host',
  '  4  kanban board tasks',
  '  5  skill loads, for the curator',
  '  6  chat platforms: inbound messages, outbox, conversations, pairing',
  '  7  pull-request reviews: a lane per PR, coalesced pushes, PR threads',
  '  8  usage ledger: the source of every call, cache-write tokens, usage apart from its session',
  '  9  pull-request review findings and review plans',
  '  10  retention: usage per-day totals, an index for session deletes',
];

describe('iris store status and migrate on SQLite', () => {
  it('reports a home with no state.db without creating one, then migrates it once; the second migrate is a no-op', async () => {
    const before = await iris(['store', 'status']);
    expect(before).toEqual({
      code: 0,
      stderr: '',
      stdout: [
        'backend: sqlite',
        `location: ${statePath()}`,
        'schema version: none yet (state.db is created on first use; this Iris knows 10)',
        'pending migrations: 10 (applied by iris store migrate, or by the next process that opens the store)',
        ...SQLITE_PENDING,
        '',
      ].join('\n'),
    });
    await expect(readFile(statePath())).rejects.toThrow(/ENOENT/);
    expect(await iris(['store', 'migrate'])).toEqual({ code: 0, stderr: '', stdout: `migrated ${statePath()} from schema version 0 to 10\n` });
    expect(await iris(['store', 'migrate'])).toEqual({ code: 0, stderr: '', stdout: `${statePath()} is at schema version 10 already; nothing to migrate\n` });
    const after = await iris(['store', 'status', '--json']);
    expect(after.code).toBe(0);
    expect(JSON.parse(after.stdout)).toEqual({ backend: 'sqlite', location: statePath(), exists: true, schema_version: 10, known_version: 10, pending: [] });
  });
});

describe('iris store status and migrate on PostgreSQL', () => {
  it('via IRIS_STORE_URL: an empty schema, migrated once, then current; the password never printed', async () => {
    const env = { IRIS_STORE_URL: url };
    const before = await iris(['store', 'status'], env);
    expect(before.code).toBe(0);
    expect(before.stdout.split('\n').slice(0, 4)).toEqual([
      'backend: postgres',
      `location: ${shown}`,
      'schema version: none yet (this Iris knows 11)',
      'pending migrations: 11 (applied by iris store migrate, or by the next process that opens the store)',
    ]);
    expect(before.stdout).toContain('  8  sharing across processes: run leases, the shared rate-limit window\n');
    expect(await pg("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")).toEqual([]);

    const first = await iris(['store', 'migrate'], env);
    expect(first).toEqual({ code: 0, stderr: '', stdout: `migrated ${shown} from schema version 0 to 11\n` });
    const second = await iris(['store', 'migrate'], env);
    expect(second).toEqual({ code: 0, stderr: '', stdout: `${shown} is at schema version 11 already; nothing to migrate\n` });
    expect(await pg('SELECT version FROM schema_version ORDER BY version')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((version) => ({ version })));
    const after = await iris(['store', 'status'], env);
    expect(after).toEqual({ code: 0, stderr: '', stdout: `backend: postgres\nlocation: ${shown}\nschema version: 11 (this Iris knows 11)\npending migrations: none\n` });
    for (const run of [before, first, second, after]) noSecret(run);
  });

  it('via IRIS_STORE_URL in $IRIS_HOME/.env, as every process reads it', async () => {
    await writeFile(join(home, '.env'), `IRIS_STORE_URL=${url}\n`, { mode: 0o600 });
    const run = await iris(['store', 'migrate']);
    expect(run).toEqual({ code: 0, stderr: '', stdout: `migrated ${shown} from schema version 0 to 11\n` });
    await expect(readFile(statePath())).rejects.toThrow(/ENOENT/);
  });

  it('via config.yaml store.url, as JSON', async () => {
    await writeFile(join(home, 'config.yaml'), `store:\n  url: "${url}"\n`, { mode: 0o600 });
    expect((await iris(['store', 'migrate'])).code).toBe(0);
    const status = await iris(['store', 'status', '--json']);
    expect(status.code).toBe(0);
    expect(status.stderr).toBe('');
    expect(JSON.parse(status.stdout)).toEqual({ backend: 'postgres', location: shown, exists: true, schema_version: 11, known_version: 11, pending: [] });
    noSecret(status);
  });

  it('iris doctor probes PostgreSQL and names it, without the password', async () => {
    expect((await iris(['store', 'migrate'], { IRIS_STORE_URL: url })).code).toBe(0);
    const run = await iris(['doctor', '--offline', '--json'], { IRIS_STORE_URL: url });
    const store = (JSON.parse(run.stdout) as { checks: { id: string }[] }).checks.find((check) => check.id === 'store');
    expect(store).toEqual({ id: 'store', name: 'store', status: 'ok', finding: `PostgreSQL at postgres://[redacted]@127.0.0.1:5432/test?options=-c%20search_path%3D${schema} answers, schema version 11 (current)` });
    noSecret(run);
  });

  it('an unreachable server is one line and exit 1, without the password', async () => {
    const run = await iris(['store', 'status'], { IRIS_STORE_URL: 'postgres://postgres:secret@127.0.0.1:1/test' });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^iris: error: cannot reach PostgreSQL at postgres:\/\/\S+@127\.0\.0\.1:1\/test \(connect ECONNREFUSED 127\.0\.0\.1:1\); is the server running\?\n$/);
    noSecret(run);
  });
});

/** The tables PostgreSQL's version 8 gives a lease (worker, lease_until). */
const LEASED = new Set(['webhook_events', 'platform_inbound', 'platform_outbox']);

const COPY_TABLE_LINES = (counts: Record<string, number>) =>
  [
    'TABLE                    ROWS',
    ...Object.entries(counts).map(([name, n]) => `${name.padEnd(23)}  ${String(n).padStart(4)}`),
  ].join('\n');

describe('iris store copy', () => {
  it('moves every table with its ids and times, verifies the counts, and leaves state.db as it was', async () => {
    const counts = await fillSqliteStore(statePath());
    const before = await readFile(statePath());
    const run = await iris(['store', 'copy', '--to', url]);
    expect(run).toEqual({
      code: 0,
      stderr: '',
      stdout: `copied ${statePath()} to ${shown} (schema version 11, migrated from 0):\n${COPY_TABLE_LINES(counts)}\nevery table holds as many rows as in SQLite; state.db was left as it was\n`,
    });
    noSecret(run);
    expect((await readFile(statePath())).equals(before)).toBe(true);
    for (const [table, orderBy] of [
      ['sessions', 'id'],
      ['messages', 'session_id, seq'],
      ['usage', 'id'],
      ['webhook_events', 'id'],
      ['kanban_tasks', 'id'],
      ['platform_inbound', 'id'],
      ['platform_pairing', 'platform, code'],
      ['pr_threads', 'route, pr_key'],
    ] as const) {
      const copied = await pg(`SELECT * FROM ${table} ORDER BY ${orderBy}`);
      // PostgreSQL's version 8 columns (worker, lease_until) are null on every copied row.
      expect(copied.map(({ worker, lease_until }) => [worker, lease_until]), table).toEqual(copied.map(() => (LEASED.has(table) ? [null, null] : [undefined, undefined])));
      expect(copied.map(({ worker: _w, lease_until: _l, ...rest }) => rest), table).toEqual(sqliteRows(table, orderBy));
      expect(copied.length, table).toBe(counts[table]);
    }
    // The PostgreSQL store reads what was copied.
    const sessions = await iris(['sessions', 'list', '--json'], { IRIS_STORE_URL: url });
    expect(sessions.code).toBe(0);
    expect((JSON.parse(sessions.stdout) as { title: string | null; messages: number }[]).map((s) => [s.title, s.messages])).toEqual([
      [null, 1],
      ['first', 2],
    ]);
  });

  it('refuses a target holding Iris rows without --force, changing nothing; --force replaces them without doubling', async () => {
    const counts = await fillSqliteStore(statePath());
    expect((await iris(['store', 'copy', '--to', url])).code).toBe(0);
    await pg("UPDATE kanban_tasks SET title = 'edited in PostgreSQL' WHERE id = 1");
    const refused = await iris(['store', 'copy', '--to', url]);
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr: `iris: error: postgres://[redacted]@127.0.0.1:5432/test?options=-c%20search_path%3D${schema} already holds Iris rows (sessions: 2, messages: 3, usage: 3, webhook_events: 2, webhook_dedup: 2, kanban_tasks: 2, skill_loads: 1, platform_inbound: 1, platform_outbox: 1, platform_sessions: 1, platform_pairing: 1, platform_cursors: 1, platform_approved_users: 1, pr_threads: 1, pr_findings: 1, pr_review_plans: 1); pass --force to replace them; nothing was copied\n`,
    });
    noSecret(refused);
    expect(await pg('SELECT title FROM kanban_tasks WHERE id = 1')).toEqual([{ title: 'edited in PostgreSQL' }]);

    const forced = await iris(['store', 'copy', '--to', url, '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stdout.split('\n')[0]).toBe(`copied ${statePath()} to ${shown} (schema version 11), replacing the Iris rows that were there (--force):`);
    noSecret(forced);
    for (const [table, n] of Object.entries(counts)) expect(await countIn(table), table).toBe(n);
    expect(await pg('SELECT title FROM kanban_tasks WHERE id = 1')).toEqual([{ title: 'parent' }]);
  });

  it('refuses a schema holding another program\'s table, leaving it alone', async () => {
    await fillSqliteStore(statePath());
    await pg('CREATE TABLE orders (id int); INSERT INTO orders VALUES (7)');
    const run = await iris(['store', 'copy', '--to', url, '--force']);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `iris: error: postgres://[redacted]@127.0.0.1:5432/test?options=-c%20search_path%3D${schema} holds tables of another program (orders) and no Iris schema; give Iris a database (or schema) of its own; nothing was copied\n`,
    });
    expect(await pg("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")).toEqual([{ table_name: 'orders' }]);
  });

  it('bad input: a URL that is not postgres:// (exit 2), no state.db (exit 1), an unreachable server (exit 1)', async () => {
    const notPg = await iris(['store', 'copy', '--to', 'mysql://root:secret@127.0.0.1/db']);
    expect(notPg).toEqual({ code: 2, stdout: '', stderr: 'iris: error: --to must be a postgres:// URL (got mysql://[redacted]@127.0.0.1/db)\n' });
    const noSource = await iris(['store', 'copy', '--to', url]);
    expect(noSource).toEqual({ code: 1, stdout: '', stderr: `iris: error: no SQLite store at ${statePath()}: nothing to copy\n` });
    await fillSqliteStore(statePath());
    const unreachable = await iris(['store', 'copy', '--to', 'postgres://postgres:secret@127.0.0.1:1/test']);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stdout).toBe('');
    expect(unreachable.stderr).toMatch(/^iris: error: cannot reach PostgreSQL at postgres:\/\/\S+@127\.0\.0\.1:1\/test \(connect ECONNREFUSED 127\.0\.0\.1:1\); is the server running\?\n$/);
    for (const run of [notPg, noSource, unreachable]) noSecret(run);
    const missing = await iris(['store', 'copy']);
    expect(missing.code).toBe(2);
  });
});
