// The store contract suite's two backends. A store test file runs its cases once per backend:
//
//   describe.each(STORE_BACKENDS)('$name', (backend) => {
//     const stores = useStores(backend);          // in the describe: registers the hooks
//     beforeEach(async () => { store = await stores.open({ now: () => clock }); });
//     ...
//   });
//
// SQLite: a new state.db in a temporary folder for every open. PostgreSQL: one fresh schema per
// test file (created at its first open, dropped after the file), emptied before every test, so
// each test starts from an empty store as on SQLite. Every store opened is closed after its test.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach } from 'vitest';
import { openPostgresStore } from '../../src/store/pg/pg-store.js';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/types.js';
import { makeTempDir, removeDir } from './iris.js';
import { adminQuery, dropSchema, freshSchemaName, PG_TEST_URL } from './postgres.js';

export type BackendName = 'sqlite' | 'postgres';

export type OpenOptions = {
  readonly now?: () => number;
  /** SQLite only: the gateway's writer thread (`server: true`). */
  readonly server?: boolean;
  /** PostgreSQL only. */
  readonly leaseSeconds?: number;
  /** PostgreSQL only: the store's lease-holder id (`host:pid:start`), as if it were another process. */
  readonly worker?: string;
};

export type StoreBackend = { readonly name: BackendName };

export const STORE_BACKENDS: readonly StoreBackend[] = [{ name: 'sqlite' }, { name: 'postgres' }];

export type StoreOpener = {
  /** A new empty store (the first open of each test empties it; later opens reopen the same data). */
  open(options?: OpenOptions): Promise<Store>;
  /** Opens the same data again, as a second process would (a second store on the same file or schema). */
  reopen(options?: OpenOptions): Promise<Store>;
  /** The SQLite file or the PostgreSQL schema of this test. */
  readonly location: () => string;
  /**
   * Runs one SQL statement on the test's database behind the store's back (to damage a row, or to
   * look at what was written), with `?` placeholders on both backends; returns the rows (none for
   * a statement that returns none).
   */
  sql(text: string, values?: readonly unknown[]): Promise<Record<string, unknown>[]>;
};

/** Registers the hooks that give each test of `backend` an empty store and clean up after it. */
export function useStores(backend: StoreBackend): StoreOpener {
  const open: Store[] = [];
  let dir: string | undefined;
  let schema: string | undefined;
  let fresh = true;

  afterEach(async () => {
    for (const store of open.splice(0).reverse()) await store.close();
    if (dir) await removeDir(dir);
    dir = undefined;
    fresh = true;
  });
  afterAll(async () => {
    if (schema) await dropSchema(schema);
  });

  async function openOne(options: OpenOptions): Promise<Store> {
    if (backend.name === 'sqlite') {
      dir ??= await makeTempDir('iris-store-');
      const store = await openSqliteStore(join(dir, 'state.db'), { now: options.now, server: options.server });
      open.push(store);
      return store;
    }
    schema ??= freshSchemaName();
    if (fresh) await emptySchema(schema);
    const store = await openPostgresStore(PG_TEST_URL, { schema, now: options.now, leaseSeconds: options.leaseSeconds, worker: options.worker, poolSize: 4 });
    open.push(store);
    return store;
  }

  return {
    async open(options = {}) {
      if (backend.name === 'sqlite' && dir) {
        await removeDir(dir);
        dir = undefined;
      }
      const store = await openOne(options);
      fresh = false;
      return store;
    },
    async reopen(options = {}) {
      fresh = false;
      return openOne(options);
    },
    location: () => (backend.name === 'sqlite' ? join(dir ?? '', 'state.db') : (schema ?? '')),
    async sql(text, values = []) {
      if (backend.name === 'sqlite') {
        const db = new Database(join(dir ?? '', 'state.db'));
        try {
          db.pragma('foreign_keys = ON');
          const statement = db.prepare(text);
          return statement.reader ? (statement.all(...values) as Record<string, unknown>[]) : (statement.run(...values), []);
        } finally {
          db.close();
        }
      }
      let n = 0;
      const positional = text.replace(/\?/g, () => `$${++n}`);
      const result = await adminQuery(positional, [...values], PG_TEST_URL, schema);
      return result.rows as Record<string, unknown>[];
    },
  };
}

/** Deletes every row of the schema's Iris tables (keeping the migrated schema) and restarts the ids. */
async function emptySchema(schema: string): Promise<void> {
  const tables = await adminQuery(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' AND table_name <> 'schema_version'",
    [schema],
  );
  if (tables.rows.length === 0) return;
  const names = tables.rows.map((row: { table_name: string }) => `${schema}."${row.table_name}"`).join(', ');
  await adminQuery(`TRUNCATE ${names} RESTART IDENTITY CASCADE`);
}
