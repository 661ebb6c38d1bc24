// What every PostgreSQL table module is built from: the pool, the clock, the failure mapping, and
// who this process is when it holds a lease.
import type { PgPool } from './pg-pool.js';

export type PgContext = {
  readonly pool: PgPool;
  /** Epoch milliseconds (injectable for tests). */
  readonly now: () => number;
  /** Runs `work`; any failure leaves as a StoreError naming the database. */
  readonly guarded: <T>(work: () => Promise<T>) => Promise<T>;
  /** The database in messages: the URL without its password (and the schema, if not the default). */
  readonly where: string;
  /**
   * This process as a lease holder: `host:pid:start` (pg-lease.ts). Rows it claims carry it, and
   * its leases are renewed while it lives.
   */
  readonly worker: string;
  /** How long a claim holds without renewal (store.lease_seconds). */
  readonly leaseMs: number;
  /** The schema, when not the server's default: NOTIFY channels are named with it (pg-wakeups.ts). */
  readonly schema: string | undefined;
};
