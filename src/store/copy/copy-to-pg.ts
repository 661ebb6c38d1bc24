// `iris store copy --to postgres://…`: moves the SQLite home (state.db) to PostgreSQL. The
// decisions are copy-plan.ts's; this file does the reading and writing:
//
// 1. state.db is opened through the store once (an older schema is migrated, as any open does),
//    then read through a read-only connection inside one read transaction: one snapshot, even
//    while a gateway writes.
// 2. The target is looked at before anything is written (decideTarget); a refused target is left
//    exactly as it was.
// 3. The target is migrated to the current schema (under the migration lock, pg-migrations.ts),
//    then, in ONE transaction: Iris's rows are removed when replacing (--force), every table is
//    copied in batches of multi-row INSERTs keeping every id and time, each identity sequence is
//    set past the copied ids, and each table's row count is compared with SQLite's. A mismatch
//    rolls the whole copy back.
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { errorMessage } from '../../domain/error-message.js';
import { StoreError } from '../errors.js';
import { readPgSchemaVersion, migratePg, PG_SCHEMA_VERSION, tablesOf } from '../pg/pg-migrations.js';
import { createPgPool, inTransaction, redactStoreUrl, toPgStoreError, type PgClient, type Queryable } from '../pg/pg-pool.js';
import { isPostgresUrl } from '../pg/pg-store.js';
import { openSqliteStore } from '../sqlite-store.js';
import { batchRows, COPY_TABLES, countMismatches, decideTarget, insertStatement, PG_DATA_TABLES, type CopyTable, type TargetFacts } from './copy-plan.js';

export type CopyFailure = 'bad_url' | 'no_source' | 'source' | 'refused' | 'unreachable' | 'mismatch' | 'failed';

export type CopyResult =
  | {
      readonly ok: true;
      readonly source: string;
      /** The target's URL without its password. */
      readonly target: string;
      /** The target's schema version before the copy, and after. */
      readonly migrated: { readonly from: number; readonly to: number };
      /** Rows copied, by table, in copy order (each verified against SQLite's count). */
      readonly counts: ReadonlyArray<readonly [string, number]>;
      /** Iris's rows that were there were replaced (--force). */
      readonly replaced: boolean;
    }
  | { readonly ok: false; readonly code: CopyFailure; readonly message: string };

const loadCommonJs = createRequire(import.meta.url);
const BUSY_TIMEOUT_MS = 5_000;

class CopyMismatch extends Error {}

/** better-sqlite3's errors carry SQLite's result code name (`SQLITE_BUSY`…). */
function isSqliteError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_');
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    (err: NodeJS.ErrnoException) => err.code !== 'ENOENT',
  );
}

function sourceColumns(db: BetterSqlite3.Database, table: string): string[] {
  return db.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}') ORDER BY cid`).all().map((row) => row.name);
}

function sourceCount(db: BetterSqlite3.Database, table: string): number {
  return db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? 0;
}

async function readTargetFacts(db: Queryable, where: string): Promise<TargetFacts> {
  const tables = await tablesOf(db);
  const version = tables.includes('schema_version') ? await readPgSchemaVersion(db, where) : 0;
  const rows: Record<string, number> = {};
  for (const name of PG_DATA_TABLES) {
    if (!tables.includes(name)) continue;
    const result = await db.query<{ n: number }>(`SELECT count(*)::bigint AS n FROM ${name}`);
    rows[name] = result.rows[0]?.n ?? 0;
  }
  return { tables, version, rows };
}

async function copyTable(db: BetterSqlite3.Database, client: PgClient, table: CopyTable): Promise<void> {
  const columns = sourceColumns(db, table.name);
  const size = batchRows(columns.length);
  const flush = async (batch: unknown[][]) => {
    if (batch.length === 0) return;
    await client.query(insertStatement(table.name, columns, batch.length), batch.flat());
  };
  let batch: unknown[][] = [];
  const rows = db.prepare(`SELECT ${columns.join(', ')} FROM ${table.name} ORDER BY ${table.orderBy}`).raw(true).iterate() as IterableIterator<unknown[]>;
  for (const row of rows) {
    batch.push(row);
    if (batch.length === size) {
      await flush(batch);
      batch = [];
    }
  }
  await flush(batch);
  if (table.identity) {
    await client.query(`SELECT setval(pg_get_serial_sequence($1, 'id'), GREATEST(coalesce(max(id), 0), 1), max(id) IS NOT NULL) FROM ${table.name}`, [table.name]);
  }
}

async function targetCounts(client: PgClient): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of COPY_TABLES) {
    const result = await client.query<{ n: number }>(`SELECT count(*)::bigint AS n FROM ${table.name}`);
    counts[table.name] = result.rows[0]?.n ?? 0;
  }
  return counts;
}

/** Brings state.db to this Iris's schema (what any open does); nothing else is written to it. */
async function migrateSource(statePath: string): Promise<void> {
  const store = await openSqliteStore(statePath, { mustExist: true });
  await store.close();
}

export async function copySqliteToPg(statePath: string, url: string, options: { readonly force: boolean; readonly now?: () => number }): Promise<CopyResult> {
  const where = redactStoreUrl(url);
  if (!isPostgresUrl(url)) return { ok: false, code: 'bad_url', message: `--to must be a postgres:// URL (got ${where.startsWith('postgres://(') ? 'something else' : where})` };
  if (!(await exists(statePath))) return { ok: false, code: 'no_source', message: `no SQLite store at ${statePath}: nothing to copy` };
  try {
    await migrateSource(statePath);
  } catch (err) {
    return { ok: false, code: 'source', message: errorMessage(err) };
  }
  const Database = loadCommonJs('better-sqlite3') as typeof BetterSqlite3;
  const db = new Database(statePath, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  const pool = createPgPool(url, { max: 1 });
  try {
    db.exec('BEGIN');
    const known = new Set([...COPY_TABLES.map((t) => t.name), 'schema_version']);
    const unknown = db.prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all().map((r) => r.name).filter((n) => !known.has(n));
    if (unknown.length > 0) return { ok: false, code: 'source', message: `${statePath} holds tables this Iris cannot copy (${unknown.join(', ')}); nothing was copied` };
    const source: Record<string, number> = Object.fromEntries(COPY_TABLES.map((t) => [t.name, sourceCount(db, t.name)]));

    const facts = await readTargetFacts(pool, where);
    const decision = decideTarget(facts, { force: options.force, knownVersion: PG_SCHEMA_VERSION }, where);
    if (!decision.ok) return { ok: false, code: 'refused', message: decision.message };
    const migrated = await migratePg(pool, where, (options.now ?? Date.now)());
    await inTransaction(pool, async (client) => {
      if (decision.replace) await client.query(`TRUNCATE ${PG_DATA_TABLES.join(', ')} RESTART IDENTITY`);
      for (const table of COPY_TABLES) await copyTable(db, client, table);
      const mismatches = countMismatches(source, await targetCounts(client));
      if (mismatches.length > 0) throw new CopyMismatch(`the copy's row counts differ (${mismatches.join('; ')}); nothing was copied`);
    });
    return { ok: true, source: statePath, target: where, migrated, counts: COPY_TABLES.map((t) => [t.name, source[t.name]!] as const), replaced: decision.replace };
  } catch (err) {
    if (err instanceof CopyMismatch) return { ok: false, code: 'mismatch', message: err.message };
    if (isSqliteError(err)) return { ok: false, code: 'source', message: `cannot read ${statePath}: ${errorMessage(err)}; nothing was copied` };
    const error = toPgStoreError(err, where);
    if (error.code === 'io' && error.message.startsWith('cannot reach')) return { ok: false, code: 'unreachable', message: error.message };
    return { ok: false, code: 'failed', message: error instanceof StoreError ? error.message : errorMessage(err) };
  } finally {
    if (db.inTransaction) db.exec('COMMIT');
    db.close();
    await pool.end().catch(() => {});
  }
}
