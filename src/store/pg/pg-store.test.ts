// Opening the PostgreSQL store on the real server: migrations (once, under the advisory lock, when
// several processes open a fresh schema at once), refusals (a newer schema, another program's
// tables), the password never in a message, the shared rate limit and LISTEN/NOTIFY wakes.
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminQuery, dropSchema, freshSchemaName, PG_TEST_URL } from '../../../test/helpers/postgres.js';
import type { Store } from '../types.js';
import { PG_MIGRATIONS, PG_SCHEMA_VERSION } from './pg-migrations.js';
import { redactStoreUrl } from './pg-pool.js';
import { openPostgresStore } from './pg-store.js';

const schemas: string[] = [];
const opened: Store[] = [];
let schema: string;
beforeEach(() => {
  schema = freshSchemaName();
  schemas.push(schema);
});
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});
afterAll(async () => {
  for (const name of schemas) await dropSchema(name);
});

async function open(options: Parameters<typeof openPostgresStore>[1] = {}): Promise<Store> {
  const store = await openPostgresStore(PG_TEST_URL, { schema, poolSize: 3, ...options });
  opened.push(store);
  return store;
}

describe('migrations', () => {
  it('four processes opening a fresh schema at once migrate it once, to the latest version', async () => {
    await Promise.all([open(), open(), open(), open()]);
    const rows = await adminQuery('SELECT version, description FROM schema_version ORDER BY version', [], PG_TEST_URL, schema);
    expect(rows.rows).toEqual(PG_MIGRATIONS.map((m) => ({ version: m.version, description: m.description })));
    expect(PG_SCHEMA_VERSION).toBe(11);
  });

  it('refuses a schema written by a newer Iris and changes nothing', async () => {
    await (await open()).close();
    await adminQuery("INSERT INTO schema_version (version, description, applied_at) VALUES (99, 'future', 1)", [], PG_TEST_URL, schema);
    await expect(open()).rejects.toMatchObject({
      name: 'StoreError',
      code: 'newer_schema',
      message: `${redactStoreUrl(PG_TEST_URL)} (schema ${schema}) was written by a newer version of Iris (schema version 99; this version knows up to ${PG_SCHEMA_VERSION}); upgrade Iris to use it (nothing was changed)`,
    });
  });

  it("refuses a schema holding another program's tables", async () => {
    await adminQuery(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.invoices (id int)`);
    await expect(open()).rejects.toMatchObject({ code: 'corrupt', message: expect.stringContaining('holds tables of another program (invoices)') as unknown });
    const tables = await adminQuery("SELECT table_name FROM information_schema.tables WHERE table_schema = $1", [schema]);
    expect(tables.rows).toEqual([{ table_name: 'invoices' }]);
  });

  it('mustExist refuses an unmigrated schema instead of migrating it', async () => {
    await expect(open({ mustExist: true })).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('run `iris store migrate`') as unknown });
  });
});

describe('connection failures', () => {
  it('names the server without its password', async () => {
    const url = 'postgres://iris:hunter2-secret@127.0.0.1:1/test';
    const failure = await openPostgresStore(url, { schema }).then(
      () => undefined,
      (err: unknown) => err as Error,
    );
    expect(failure).toMatchObject({ name: 'StoreError', code: 'io' });
    expect(failure?.message).toContain('cannot reach PostgreSQL at postgres://iris:***@127.0.0.1:1/test');
    expect(failure?.message).not.toContain('hunter2');
  });

  it('masks a password given in the query string too', () => {
    expect(redactStoreUrl('postgres://iris@db:5432/iris?password=s3cret&sslmode=require&sslpassword=k3y')).toBe(
      'postgres://iris@db:5432/iris?password=***&sslmode=require&sslpassword=***',
    );
  });

  it('refuses a URL that is not postgres://', async () => {
    await expect(openPostgresStore('mysql://127.0.0.1/test')).rejects.toMatchObject({ code: 'invalid' });
  });
});

describe('the shared rate limit', () => {
  it('lets in `limit` requests per window across stores, says when to retry, and refunds', async () => {
    let clock = 1_000_000;
    const a = await open({ now: () => clock });
    const b = await open({ now: () => clock });
    const limiters = [a.rateLimits!, b.rateLimits!];
    const decisions = await Promise.all(Array.from({ length: 12 }, (_, i) => limiters[i % 2]!.take('route-x', 10, 60_000)));
    expect(decisions.filter((d) => d.ok)).toHaveLength(10);
    expect(decisions.filter((d) => !d.ok)).toEqual([
      { ok: false, retryAfterSeconds: 61 },
      { ok: false, retryAfterSeconds: 61 },
    ]);
    // Another key has a window of its own.
    expect(await a.rateLimits!.take('route-y', 10, 60_000)).toEqual({ ok: true });
    // A refund gives one place back.
    await b.rateLimits!.refund('route-x');
    expect(await a.rateLimits!.take('route-x', 10, 60_000)).toEqual({ ok: true });
    expect(await a.rateLimits!.take('route-x', 10, 60_000)).toMatchObject({ ok: false });
    // Half a minute later the window still holds them; a full window plus its bucket later it does not.
    clock += 30_000;
    expect(await a.rateLimits!.take('route-x', 10, 60_000)).toEqual({ ok: false, retryAfterSeconds: 31 });
    clock += 31_000;
    expect(await a.rateLimits!.take('route-x', 10, 60_000)).toEqual({ ok: true });
  });

  it('never lets in more than the limit in any window when requests keep coming', async () => {
    let clock = 5_000_000;
    const store = await open({ now: () => clock });
    const admitted: number[] = [];
    for (let t = 0; t < 180_000; t += 250) {
      clock = 5_000_000 + t;
      if ((await store.rateLimits!.take('busy', 20, 60_000)).ok) admitted.push(clock);
    }
    for (const start of admitted) expect(admitted.filter((at) => at >= start && at < start + 60_000).length).toBeLessThanOrEqual(20);
    // …and lets in about the limit per window (not far fewer).
    expect(admitted.length).toBeGreaterThanOrEqual(50);
  });
});

describe('wakeups', () => {
  it('a NOTIFY on one store wakes a subscriber on another, per channel', async () => {
    const listener = await open();
    const other = await open();
    const woken: string[] = [];
    await listener.wakeups!.subscribe('inbox', () => woken.push('inbox'));
    await listener.wakeups!.subscribe('outbox', () => woken.push('outbox'));
    await adminQuery(`SELECT pg_notify('iris_outbox_${schema}', '')`);
    await expect.poll(() => woken, { timeout: 5_000 }).toEqual(['outbox']);
    expect(other.backend).toBe('postgres');
  });
});
