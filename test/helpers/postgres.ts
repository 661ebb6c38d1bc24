// The PostgreSQL the tests use: postgres://127.0.0.1:5432/test (trust auth) unless
// IRIS_TEST_PG_URL names another. The store tests never skip their PostgreSQL half: when the
// server does not answer, the run stops at once with the one command that starts it
// (test/setup/postgres.ts, vitest's globalSetup).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { numericTypeParser } from '../../src/store/pg/pg-pool.js';

export const PG_TEST_URL = process.env.IRIS_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** What starts Debian's PostgreSQL cluster on this kind of machine. */
export const PG_START_COMMAND = 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start';

/** Why PostgreSQL cannot be used for the tests, or undefined when it answers. */
export async function postgresProblem(url: string = PG_TEST_URL): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    return `the store tests run on PostgreSQL too, and ${url} does not answer (${detail}); start it with: ${PG_START_COMMAND} (or set IRIS_TEST_PG_URL to a database the tests may create schemas in)`;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A schema name of its own for one test file (or one e2e test). */
export function freshSchemaName(prefix = 'iris_t'): string {
  return `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

/**
 * Runs one statement on the test database outside any store (schema setup and teardown, or
 * looking behind a store's back when `schema` is given). BIGINTs come back as numbers, as from the store.
 */
export async function adminQuery(sql: string, values: unknown[] = [], url: string = PG_TEST_URL, schema?: string): Promise<pg.QueryResult> {
  const client = new pg.Client({
    connectionString: url,
    types: { getTypeParser: numericTypeParser as typeof pg.types.getTypeParser },
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  });
  await client.connect();
  try {
    return await client.query(sql, values);
  } finally {
    await client.end();
  }
}

export async function dropSchema(schema: string, url: string = PG_TEST_URL): Promise<void> {
  await adminQuery(`DROP SCHEMA IF EXISTS ${schema} CASCADE`, [], url);
}

/** The URL of one schema of the database at `url` (create it first: a missing schema would fall back to public). */
export function schemaUrl(schema: string, url: string = PG_TEST_URL): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  return parsed.toString();
}
