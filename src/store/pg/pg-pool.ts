// The PostgreSQL connection pool behind the PostgreSQL store, and the few helpers every table
// module shares: a transaction, the store's name for messages (the URL without its password), and
// the mapping of driver failures to StoreError.
//
// Numbers: BIGINT (epoch milliseconds, ids) and NUMERIC (what SUM of a BIGINT returns) arrive as
// JavaScript numbers, as they do from SQLite. Every value Iris stores fits a double exactly
// (times in ms, token counts, row ids), so nothing is lost; the parsers are set on this pool only,
// never globally on the driver.
import pg from 'pg';
import { StoreError } from '../errors.js';
import { errorMessage } from '../../domain/error-message.js';
import { IrisPgClient } from './pg-client.js';
import { restorePgText } from './pg-text.js';

export type PgPool = pg.Pool;
export type PgClient = pg.PoolClient;
/** What a query runs on: the pool (one statement, autocommit) or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

const INT8_OID = 20;
const NUMERIC_OID = 1700;
const TEXT_OIDS = new Set([25, 1043]); // text, varchar
const TEXT_ARRAY_OIDS = new Set([1009, 1015]); // text[], varchar[]

const toNumber = (value: string): number => Number(value);

/**
 * BIGINT and NUMERIC as numbers; text (and arrays of it) restored from PostgreSQL's escape
 * (pg-text.ts); every other type as the driver parses it.
 */
export function numericTypeParser(oid: number, format?: string): (value: string) => unknown {
  if (oid === INT8_OID || oid === NUMERIC_OID) return toNumber;
  if (TEXT_OIDS.has(oid)) return restorePgText;
  const parse = pg.types.getTypeParser(oid, (format ?? 'text') as 'text') as (value: string) => unknown;
  if (TEXT_ARRAY_OIDS.has(oid)) return (value) => (parse(value) as (string | null)[]).map((item) => (item === null ? null : restorePgText(item)));
  return parse;
}

const typeParsers = { getTypeParser: numericTypeParser as typeof pg.types.getTypeParser };

export type PgPoolOptions = {
  /** Connections at most (default 10). */
  readonly max?: number;
  /**
   * The schema every table lives in (default: the server's search_path, normally `public`). The
   * tests give each file a schema of its own.
   */
  readonly schema?: string;
  /** A connection attempt gives up after this (default 5 s). */
  readonly connectTimeoutMs?: number;
};

/** A schema name safe to put into SQL unquoted: lower-case letters, digits and `_`. */
export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function createPgPool(url: string, options: PgPoolOptions = {}): PgPool {
  if (options.schema !== undefined && !SCHEMA_NAME.test(options.schema)) {
    throw new StoreError('invalid', `the PostgreSQL schema name ${JSON.stringify(options.schema)} is not a plain name (a-z, 0-9, _)`);
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    types: typeParsers,
    // Each connection looks in the store's schema first (and creates its tables there).
    ...(options.schema === undefined ? {} : { options: `-c search_path=${options.schema}` }),
    application_name: 'iris',
    // Listens for errors while checked out too, and escapes text for PostgreSQL (pg-client.ts).
    Client: IrisPgClient,
  });
  // An idle connection that the server drops (a restart, a network cut) must not crash the
  // process: the pool discards it and the next query opens another.
  pool.on('error', () => {});
  return pool;
}

/** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
export async function inTransaction<T>(pool: PgPool, work: (client: PgClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    try {
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    }
  } finally {
    client.release();
  }
}

/**
 * Runs `work` again (up to `attempts` in all) when PostgreSQL gave it up as a deadlock victim or a
 * serialization failure: `work` is one statement or one transaction, all-or-nothing, so running it
 * again is safe.
 */
export async function inRetried<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      const state = sqlState(err);
      if (attempt >= attempts || (state !== '40P01' && state !== '40001')) throw err;
    }
  }
}

/** `inTransaction`, tried again as `inRetried` says. */
export function inRetriedTransaction<T>(pool: PgPool, work: (client: PgClient) => Promise<T>, attempts = 3): Promise<T> {
  return inRetried(() => inTransaction(pool, work), attempts);
}

/** The URL to show: `postgres://user@host:5432/db`, never the password. */
export function redactStoreUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    // The driver also takes a password (and a client key's) from the query string.
    for (const name of ['password', 'sslpassword']) if (parsed.searchParams.has(name)) parsed.searchParams.set(name, '***');
    return parsed.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

/** PostgreSQL's SQLSTATE of a driver error (`23505` unique violation…). */
export function sqlState(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH', 'EAI_AGAIN', 'EPIPE']);
const UNREACHABLE_TEXT = /timeout exceeded when trying to connect|Connection terminated|not queryable|the database system is (starting up|shutting down|in recovery)/i;

/**
 * Whether a failure (a driver error, or a StoreError made of one) says PostgreSQL could not be
 * reached, rather than that this one statement was refused: a connection refused or cut, a server
 * shutting down or starting (SQLSTATE class 08 and 57P0x). Retrying item by item is then useless.
 */
export function isPgUnreachable(err: unknown): boolean {
  const raw = err instanceof StoreError ? err.cause : err;
  const code = (raw as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
  const state = sqlState(raw);
  if (state !== undefined && (state.startsWith('08') || /^57P0[1-4]$/.test(state))) return true;
  return UNREACHABLE_TEXT.test(errorMessage(raw));
}

/** Turns a driver failure into a StoreError naming the database (`where`, password-free). */
export function toPgStoreError(err: unknown, where: string): StoreError {
  if (err instanceof StoreError) return err;
  const detail = errorMessage(err);
  const state = sqlState(err);
  const code = (err as { code?: unknown } | null)?.code;
  const options = { cause: err };
  if ((typeof code === 'string' && CONNECTION_CODES.has(code)) || isPgUnreachable(err)) {
    return new StoreError('io', `cannot reach PostgreSQL at ${where} (${detail}); is the server running?`, options);
  }
  if (state === '23503') return new StoreError('not_found', `${where}: no such session (${detail})`, options);
  if (state === '23505') return new StoreError('conflict', `${where}: ${detail}`, options);
  if (state?.startsWith('23') || state === '22P02' || state === '22003' || state === '22021') {
    return new StoreError('invalid', `${where}: ${detail}`, options);
  }
  if (state === '40001' || state === '40P01' || state === '55P03') {
    return new StoreError('busy', `${where} is busy (${detail}); try again`, options);
  }
  if (state === '25006' || state === '42501') return new StoreError('readonly', `${where} cannot be written (${detail})`, options);
  return new StoreError('io', `cannot use ${where}: ${detail}`, options);
}
