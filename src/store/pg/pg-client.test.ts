// Every connection of the store's pool survives the server dropping it, checked out or idle: a
// restart's 57P01 ("terminating connection due to administrator command") sent to a connection
// inside a transaction used to reach an 'error' event nobody listened to, and killed the process.
import { afterEach, describe, expect, it } from 'vitest';
import { adminQuery, PG_TEST_URL } from '../../../test/helpers/postgres.js';
import { escapeQueryArgs } from './pg-client.js';
import { createPgPool, isPgUnreachable, type PgPool } from './pg-pool.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('escapeQueryArgs', () => {
  it('escapes positional values, a config object\'s values, and leaves a submittable alone', () => {
    expect(escapeQueryArgs(['SELECT $1', ['a\u0000']])).toEqual(['SELECT $1', ['a\uFDD00'], undefined]);
    expect(escapeQueryArgs([{ name: 'n', text: 'SELECT $1', values: [['x\u0000'], 2] }])).toEqual([{ name: 'n', text: 'SELECT $1', values: [['x\uFDD00'], 2] }, undefined, undefined]);
    const cursor = { submit: () => {}, values: ['a\u0000'] };
    expect(escapeQueryArgs([cursor])[0]).toBe(cursor);
  });
});

describe('a pooled connection the server drops', () => {
  let pool: PgPool | undefined;
  afterEach(async () => {
    await pool?.end().catch(() => {});
    pool = undefined;
  });

  it('checked out and idle inside a transaction: the process lives, the next query gets a new connection', async () => {
    pool = createPgPool(PG_TEST_URL, { max: 2 });
    const client = await pool.connect();
    await client.query('BEGIN');
    const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    // What a restart does to every backend: 57P01 to the client, then the socket closes.
    await adminQuery('SELECT pg_terminate_backend($1)', [pid]);
    await pause(200);
    const failed = await client.query('SELECT 1').then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failed).toBeInstanceOf(Error);
    expect(isPgUnreachable(failed)).toBe(true);
    client.release(failed as Error);
    expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one).toBe(1);
  });

  it('idle in the pool: discarded, and the next query connects again', async () => {
    pool = createPgPool(PG_TEST_URL, { max: 1 });
    const pid = (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    await adminQuery('SELECT pg_terminate_backend($1)', [pid]);
    await pause(200);
    expect((await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid).not.toBe(pid);
  });

  it('a server that refuses connections is reported as unreachable, not as a refused statement', async () => {
    pool = createPgPool('postgres://postgres@127.0.0.1:1/test', { max: 1, connectTimeoutMs: 1_000 });
    const failed = await pool.query('SELECT 1').then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isPgUnreachable(failed)).toBe(true);
    expect(isPgUnreachable(Object.assign(new Error('invalid input syntax for type bigint'), { code: '22P02' }))).toBe(false);
  });
});
