// copy-plan.ts: every table of SQLite's schema is copied, parents first; the target decision for
// every kind of target, with and without --force; batches that stay under PostgreSQL's
// parameter limit.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../sqlite-store.js';
import { batchRows, COPY_TABLES, countMismatches, decideTarget, insertStatement, MAX_PARAMETERS, PG_DATA_TABLES, type TargetFacts } from './copy-plan.js';

const WHERE = 'postgres://u@h:5432/db';
const IRIS_TABLES = ['schema_version', ...PG_DATA_TABLES];
const empty = (tables: readonly string[]): Record<string, number> => Object.fromEntries(tables.filter((t) => t !== 'schema_version').map((t) => [t, 0]));

describe('COPY_TABLES', () => {
  it('names every table of a fresh state.db but schema_version, each once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'iris-copy-plan-'));
    try {
      await (await openSqliteStore(join(dir, 'state.db'))).close();
      const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
      const db = new Database(join(dir, 'state.db'), { readonly: true });
      const names = db.prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all().map((r) => r.name);
      db.close();
      expect(COPY_TABLES.map((t) => t.name).sort()).toEqual(names.filter((n) => n !== 'schema_version'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('puts sessions before every table that points at a session, and orders kanban tasks by id (parents first)', () => {
    const at = (name: string) => COPY_TABLES.findIndex((t) => t.name === name);
    for (const child of ['messages', 'usage', 'skill_loads']) expect(at('sessions')).toBeLessThan(at(child));
    expect(COPY_TABLES[at('kanban_tasks')]!.orderBy).toBe('id');
    expect(COPY_TABLES.filter((t) => t.identity).map((t) => t.name)).toEqual(['usage', 'webhook_events', 'kanban_tasks', 'skill_loads', 'platform_inbound', 'platform_outbox']);
  });
});

describe('decideTarget', () => {
  const decide = (facts: TargetFacts, force: boolean) => decideTarget(facts, { force, knownVersion: 8 }, WHERE);

  it('takes an empty schema, and Iris\'s schema with no rows, without --force', () => {
    expect(decide({ tables: [], version: 0, rows: {} }, false)).toEqual({ ok: true, replace: false });
    expect(decide({ tables: IRIS_TABLES, version: 8, rows: empty(IRIS_TABLES) }, false)).toEqual({ ok: true, replace: false });
    expect(decide({ tables: ['schema_version', 'sessions'], version: 1, rows: { sessions: 0 } }, false)).toEqual({ ok: true, replace: false });
  });

  it('refuses Iris rows without --force, naming the tables that hold them, and replaces them with it', () => {
    const facts = { tables: IRIS_TABLES, version: 8, rows: { ...empty(IRIS_TABLES), sessions: 2, usage: 5 } };
    expect(decide(facts, false)).toEqual({ ok: false, code: 'not_empty', message: `${WHERE} already holds Iris rows (sessions: 2, usage: 5); pass --force to replace them; nothing was copied` });
    expect(decide(facts, true)).toEqual({ ok: true, replace: true });
  });

  it('counts the shared rate-limit window as Iris rows', () => {
    expect(decide({ tables: IRIS_TABLES, version: 8, rows: { ...empty(IRIS_TABLES), rate_limit_buckets: 1 } }, false)).toMatchObject({ ok: false, code: 'not_empty' });
  });

  it('refuses another program\'s table beside Iris\'s schema without --force, and copies beside it with --force', () => {
    const facts = { tables: [...IRIS_TABLES, 'orders'], version: 8, rows: empty(IRIS_TABLES) };
    expect(decide(facts, false)).toEqual({ ok: false, code: 'foreign', message: `${WHERE} holds tables that are not Iris's (orders); give Iris a database (or schema) of its own, or pass --force to copy beside them; nothing was copied` });
    expect(decide(facts, true)).toEqual({ ok: true, replace: false });
  });

  it('refuses another program\'s tables with no Iris schema, even with --force', () => {
    const facts = { tables: ['orders'], version: 0, rows: {} };
    const refusal = { ok: false, code: 'foreign', message: `${WHERE} holds tables of another program (orders) and no Iris schema; give Iris a database (or schema) of its own; nothing was copied` };
    expect(decide(facts, false)).toEqual(refusal);
    expect(decide(facts, true)).toEqual(refusal);
  });

  it('refuses a schema written by a newer Iris, even with --force', () => {
    const refusal = { ok: false, code: 'newer_schema', message: `${WHERE} was written by a newer Iris (schema version 9; this version knows up to 8); nothing was copied` };
    expect(decide({ tables: IRIS_TABLES, version: 9, rows: empty(IRIS_TABLES) }, false)).toEqual(refusal);
    expect(decide({ tables: IRIS_TABLES, version: 9, rows: empty(IRIS_TABLES) }, true)).toEqual(refusal);
  });
});

describe('batching', () => {
  it('keeps one INSERT under 65535 parameters and at most 500 rows', () => {
    expect(batchRows(8)).toBe(500);
    expect(batchRows(200)).toBe(327);
    expect(batchRows(200) * 200).toBeLessThanOrEqual(MAX_PARAMETERS);
    expect(batchRows(65_535)).toBe(1);
    expect(batchRows(100_000)).toBe(1);
    expect(() => batchRows(0)).toThrow(RangeError);
  });

  it('numbers the parameters row by row', () => {
    expect(insertStatement('t', ['a', 'b'], 1)).toBe('INSERT INTO t (a, b) VALUES ($1, $2)');
    expect(insertStatement('t', ['a', 'b', 'c'], 2)).toBe('INSERT INTO t (a, b, c) VALUES ($1, $2, $3), ($4, $5, $6)');
  });

  it('names every table whose copied count differs', () => {
    expect(countMismatches({ a: 1, b: 2 }, { a: 1, b: 2 })).toEqual([]);
    expect(countMismatches({ a: 1, b: 2 }, { a: 0, b: 2 })).toEqual(['a: 1 in SQLite, 0 in PostgreSQL']);
  });
});
