// Whether the store opens and which schema version it carries, without changing anything.
// PostgreSQL: a connection and a read of schema_version (readPgStoreFacts). SQLite's state.db:
// openSqliteStore migrates and narrows modes, and even a read-only SQLite connection to a WAL
// database creates the -wal and -shm files (with the database's mode) when they are missing. So:
// with no -wal file the main file holds every commit, and a private in-memory copy of it is read;
// with one, a writer owns the companions already and a read-only connection adds nothing.
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { toStoreError } from '../store/errors.js';
import { readSchemaVersion } from '../store/migrations.js';
import { readPgSchemaVersion } from '../store/pg/pg-migrations.js';
import { createPgPool, redactStoreUrl, toPgStoreError } from '../store/pg/pg-pool.js';
import type { StoreFacts } from './checks/store.js';

// A native addon, loaded at run time as sqlite-store.ts does.
const loadCommonJs = createRequire(import.meta.url);

/** A lock held longer than this is reported as busy. */
const BUSY_TIMEOUT_MS = 2_000;
/** Larger files are opened read-only in place rather than copied into memory. */
const MAX_COPY_BYTES = 256 * 1024 * 1024;
/** Header bytes 18 and 19: the write and read format versions, 2 for WAL. */
const FORMAT_VERSION_OFFSETS = [18, 19] as const;

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** An in-memory database cannot be in WAL mode: the copy's header says rollback journal instead. */
export function inMemoryCopy(bytes: Buffer): Buffer {
  for (const offset of FORMAT_VERSION_OFFSETS) if (bytes[offset] === 2) bytes[offset] = 1;
  return bytes;
}

type Opened = { readonly version: number; readonly freeBytes: number };

function versionOf(open: () => BetterSqlite3.Database, path: string): Opened {
  const db = open();
  try {
    const pageSize = Number(db.pragma('page_size', { simple: true }));
    return { version: readSchemaVersion(db, path), freeBytes: Number(db.pragma('freelist_count', { simple: true })) * pageSize };
  } finally {
    db.close();
  }
}

async function sizeOf(path: string): Promise<number> {
  return stat(path).then(
    (info) => info.size,
    () => 0,
  );
}

async function openedFacts(path: string, fileBytes: number, opened: Opened): Promise<StoreFacts> {
  return { kind: 'opened', path, version: opened.version, space: { fileBytes, walBytes: await sizeOf(`${path}-wal`), freeBytes: opened.freeBytes } };
}

export async function readStoreFacts(path: string): Promise<StoreFacts> {
  let size = Infinity;
  try {
    size = (await stat(path)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'absent', path };
  }
  try {
    const Database = loadCommonJs('better-sqlite3') as typeof BetterSqlite3;
    const inPlace = () => new Database(path, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    if (size > MAX_COPY_BYTES || (await exists(`${path}-wal`))) return await openedFacts(path, size, versionOf(inPlace, path));
    const bytes = await readFile(path);
    try {
      return await openedFacts(path, size, versionOf(() => new Database(inMemoryCopy(bytes), { readonly: true }), path));
    } catch {
      // A copy torn by a checkpoint running during the read, or an odd file: let SQLite itself say.
      return await openedFacts(path, size, versionOf(inPlace, path));
    }
  } catch (err) {
    const error = toStoreError(err, path);
    return { kind: 'error', path, code: error.code, message: error.message };
  }
}

/** PostgreSQL: connects and reads the schema version, writing nothing. */
export async function readPgStoreFacts(url: string): Promise<StoreFacts> {
  const location = redactStoreUrl(url);
  const pool = createPgPool(url, { max: 1, connectTimeoutMs: BUSY_TIMEOUT_MS });
  try {
    return { kind: 'pg_opened', location, version: await readPgSchemaVersion(pool, location) };
  } catch (err) {
    const error = toPgStoreError(err, location);
    return { kind: 'pg_error', location, code: error.code, message: error.message };
  } finally {
    await pool.end().catch(() => {});
  }
}
