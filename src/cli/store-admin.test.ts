// store-admin.ts: the pending migrations, and status/migrate on a real PostgreSQL schema (read
// without writing; migrating twice is once).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminQuery, dropSchema, freshSchemaName, PG_TEST_URL } from '../../test/helpers/postgres.js';
import { MIGRATIONS } from '../store/migrations.js';
import { PG_MIGRATIONS } from '../store/pg/pg-migrations.js';
import { migrateStore, pendingMigrations, readStoreStatus } from './store-admin.js';

describe('pendingMigrations', () => {
  it('lists the migrations above the version found, in order', () => {
    expect(pendingMigrations(MIGRATIONS, 5).map((m) => m.version)).toEqual([6, 7, 8, 9, 10]);
    expect(pendingMigrations(MIGRATIONS, 10)).toEqual([]);
    expect(pendingMigrations(PG_MIGRATIONS, 7).map((m) => m.version)).toEqual([8, 9, 10, 11]);
    expect(pendingMigrations(PG_MIGRATIONS, 7)[0]).toEqual({ version: 8, description: 'sharing across processes: run leases, the shared rate-limit window' });
    expect(pendingMigrations(PG_MIGRATIONS, 99)).toEqual([]);
  });
});

describe('status and migrate on PostgreSQL', () => {
  let schema: string;
  let url: string;
  beforeEach(async () => {
    schema = freshSchemaName('iris_admin');
    await adminQuery(`CREATE SCHEMA ${schema}`);
    url = `postgres://postgres:pw@127.0.0.1:5432/test?options=-c%20search_path%3D${schema}`;
  });
  afterEach(() => dropSchema(schema));

  it('reads an empty schema without writing, migrates it once, then finds it current', async () => {
    const target = { backend: 'postgres', url, leaseSeconds: 30 } as const;
    const location = `postgres://postgres:***@127.0.0.1:5432/test?options=-c%20search_path%3D${schema}`;
    const before = await readStoreStatus(target);
    expect(before).toMatchObject({ backend: 'postgres', location, exists: true, version: 0, known: 11 });
    expect(before.pending).toHaveLength(11);
    expect((await adminQuery('SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1', [schema], PG_TEST_URL)).rows[0]).toEqual({ n: 0 });
    expect(await migrateStore(target, () => 5)).toEqual({ from: 0, to: 11 });
    expect(await migrateStore(target, () => 6)).toEqual({ from: 11, to: 11 });
    expect((await adminQuery('SELECT DISTINCT applied_at FROM schema_version', [], PG_TEST_URL, schema)).rows).toEqual([{ applied_at: 5 }]);
    expect(await readStoreStatus(target)).toEqual({ backend: 'postgres', location, exists: true, version: 11, known: 11, pending: [] });
  });
});
