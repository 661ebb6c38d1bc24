// The PostgreSQL Store: the same interface as SQLite's (../types.ts), for several processes on
// several hosts sharing one database. Opening connects, migrates if needed (under an advisory lock,
// pg-migrations.ts), refuses a newer or foreign schema, and starts renewing this process's leases.
//
// Every expected failure is a StoreError (../errors.ts) whose message names the database by its
// URL without the password.
import { StoreError } from '../errors.js';
import type { Store } from '../types.js';
import type { PgContext } from './pg-context.js';
import { startLeaseRenewer } from './pg-leases.js';
import { migratePg, newerPgSchemaError, PG_SCHEMA_VERSION, readPgSchemaVersion } from './pg-migrations.js';
import { createPgPool, redactStoreUrl, sqlState, toPgStoreError } from './pg-pool.js';
import { createPgRateLimits } from './pg-rate-limits.js';
import { createPgSessions } from './pg-sessions.js';
import { createPgUsage } from './pg-usage.js';
import { createPgRetention } from './pg-retention.js';
import { createPgSkillLoads } from './pg-skill-loads.js';
import { createPgWakeups } from './pg-wakeups.js';
import { formatWorkerId, thisWorker } from './pg-worker-id.js';
import { createPgWebhookInbox } from './pg-webhook-inbox.js';
import { createPgPlatformStore } from './pg-platform-state.js';
import { createPgKanbanBoard } from './pg-kanban-board.js';
import { createPgPrThreads } from './pg-pr-threads.js';
import { createPgPrFindings } from './pg-pr-findings.js';
import { createPgSessionBrowser } from './pg-session-browser.js';

export const DEFAULT_LEASE_SECONDS = 30;

export type PgStoreOptions = {
  /** Epoch milliseconds. */
  readonly now?: () => number;
  /** The schema to use (default: the server's search_path, normally `public`); tests use one per file. */
  readonly schema?: string;
  /** How long a claim holds without renewal (store.lease_seconds, default 30). */
  readonly leaseSeconds?: number;
  /** Connections at most (default 10). */
  readonly poolSize?: number;
  /** Open an already migrated database only; never create or change the schema (`iris store status`). */
  readonly mustExist?: boolean;
  /**
   * Who this store is as a lease holder (default: this process, `host:pid:start`). Tests give two
   * stores in one process ids of two processes on two hosts.
   */
  readonly worker?: string;
  /** Called when a background lease renewal fails (the next one is tried anyway). */
  readonly onBackgroundError?: (err: unknown) => void;
};

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

export async function openPostgresStore(url: string, options: PgStoreOptions = {}): Promise<Store> {
  const base = redactStoreUrl(url);
  const where = options.schema === undefined ? base : `${base} (schema ${options.schema})`;
  if (!isPostgresUrl(url)) throw new StoreError('invalid', `${where} is not a postgres:// URL`);
  const leaseSeconds = options.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  if (!(Number.isFinite(leaseSeconds) && leaseSeconds > 0)) throw new StoreError('invalid', `store.lease_seconds must be a number above 0 (got ${leaseSeconds})`);
  const now = options.now ?? Date.now;
  const pool = createPgPool(url, { max: options.poolSize, schema: options.schema });
  const guarded = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      throw toPgStoreError(err, where);
    }
  };
  try {
    await guarded(async () => {
      if (options.schema !== undefined) {
        // IF NOT EXISTS still races: two processes creating it at once, one fails on the catalog's key.
        await pool.query(`CREATE SCHEMA IF NOT EXISTS ${options.schema}`).catch((err: unknown) => {
          if (sqlState(err) !== '23505' && sqlState(err) !== '42P06') throw err;
        });
      }
      const found = await readPgSchemaVersion(pool, where);
      if (found > PG_SCHEMA_VERSION) throw newerPgSchemaError(where, found);
      if (found < PG_SCHEMA_VERSION) {
        if (options.mustExist) throw new StoreError('not_found', `${where} holds no Iris store at schema version ${PG_SCHEMA_VERSION} (found ${found}); run \`iris store migrate\``);
        await migratePg(pool, where, now());
      }
    });
  } catch (err) {
    await pool.end().catch(() => {});
    throw err;
  }
  const ctx: PgContext = { pool, now, guarded, where, worker: options.worker ?? formatWorkerId(thisWorker()), leaseMs: leaseSeconds * 1000, schema: options.schema };
  const renewer = startLeaseRenewer(ctx, options.onBackgroundError ?? (() => {}));
  const wakeups = createPgWakeups(url, options.schema);
  let closed = false;
  return {
    backend: 'postgres',
    location: where,
    ...createPgSessions(pool, now, guarded, where),
    ...createPgUsage(pool, guarded, where),
    webhooks: createPgWebhookInbox(ctx),
    kanban: createPgKanbanBoard(ctx),
    skillLoads: createPgSkillLoads(ctx),
    platforms: createPgPlatformStore(ctx),
    prThreads: createPgPrThreads(ctx),
    prFindings: createPgPrFindings(ctx),
    sessionBrowser: createPgSessionBrowser(ctx),
    retention: createPgRetention(ctx),
    wakeups,
    rateLimits: createPgRateLimits(ctx),
    close: async () => {
      if (closed) return;
      closed = true;
      renewer.stop();
      await wakeups.close();
      await pool.end();
    },
  };
}
