// `iris store status` and `iris store migrate` for either backend: the schema version a store
// carries (read without writing), the migrations it still needs, and running them on demand.
import { readPgStoreFacts, readStoreFacts } from '../doctor/store-probe.js';
import { StoreError } from '../store/errors.js';
import { MIGRATIONS, SCHEMA_VERSION, type Migration } from '../store/migrations.js';
import type { StoreTarget } from '../store/open-store.js';
import { migratePg, PG_MIGRATIONS, PG_SCHEMA_VERSION } from '../store/pg/pg-migrations.js';
import { createPgPool, redactStoreUrl, toPgStoreError } from '../store/pg/pg-pool.js';
import { openSqliteStore } from '../store/sqlite-store.js';

export type StoreStatus = {
  readonly backend: StoreTarget['backend'];
  /** The SQLite file, or the PostgreSQL URL without its password. */
  readonly location: string;
  /** False for an SQLite file not created yet (made on first use). */
  readonly exists: boolean;
  /** The schema version found (0: none yet). */
  readonly version: number;
  /** The newest version this Iris knows for the backend. */
  readonly known: number;
  /** What the next open (or `iris store migrate`) applies, in order. */
  readonly pending: readonly Pick<Migration, 'version' | 'description'>[];
};

const knownMigrations = (backend: StoreTarget['backend']) => (backend === 'postgres' ? PG_MIGRATIONS : MIGRATIONS);

/** Pure: the migrations above `found`. */
export function pendingMigrations(migrations: readonly Migration[], found: number): Pick<Migration, 'version' | 'description'>[] {
  return migrations.filter((m) => m.version > found).map(({ version, description }) => ({ version, description }));
}

export function storeLocation(target: StoreTarget): string {
  return target.backend === 'postgres' ? redactStoreUrl(target.url) : target.path;
}

/** Reads the store's schema version without writing anything; an unusable store throws its StoreError. */
export async function readStoreStatus(target: StoreTarget): Promise<StoreStatus> {
  const location = storeLocation(target);
  const known = target.backend === 'postgres' ? PG_SCHEMA_VERSION : SCHEMA_VERSION;
  const facts = target.backend === 'postgres' ? await readPgStoreFacts(target.url) : await readStoreFacts(target.path);
  if (facts.kind === 'error' || facts.kind === 'pg_error') throw new StoreError(facts.code, facts.message);
  const version = facts.kind === 'absent' ? 0 : facts.version;
  return { backend: target.backend, location, exists: facts.kind !== 'absent', version, known, pending: pendingMigrations(knownMigrations(target.backend), version) };
}

/** Applies the pending migrations (SQLite: by opening, which creates a missing file; PostgreSQL: under the advisory lock). */
export async function migrateStore(target: StoreTarget, now: () => number = Date.now): Promise<{ readonly from: number; readonly to: number }> {
  if (target.backend === 'sqlite') {
    const before = await readStoreStatus(target);
    const store = await openSqliteStore(target.path, { now });
    await store.close();
    return { from: before.version, to: SCHEMA_VERSION };
  }
  const where = redactStoreUrl(target.url);
  const pool = createPgPool(target.url, { max: 1 });
  try {
    return await migratePg(pool, where, now());
  } catch (err) {
    throw toPgStoreError(err, where);
  } finally {
    await pool.end().catch(() => {});
  }
}
