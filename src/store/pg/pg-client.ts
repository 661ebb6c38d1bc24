// The connection class of every PostgreSQL pool of Iris (pg-pool.ts), which differs from the
// driver's in two ways:
//
// - It always has an 'error' listener. pg-pool listens for errors only on idle connections; one
//   checked out (inside a transaction, or between two queries of it) that the server drops — a
//   restart's 57P01 "terminating connection due to administrator command" — emitted 'error' with
//   nobody listening, and the process died. Now the error only makes the connection unusable: the
//   query in flight fails (a StoreError the caller handles), and the pool discards it on release.
// - Every query parameter is escaped for PostgreSQL's text (pg-text.ts); results are restored by
//   the pool's type parsers (pg-pool.ts).
import pg from 'pg';
import { escapePgParam } from './pg-text.js';

type QueryArgs = [config: unknown, values?: unknown, callback?: unknown];

/** The parameters of one `query` call, escaped; a submittable (a cursor) is passed on untouched. */
export function escapeQueryArgs(args: QueryArgs): QueryArgs {
  const [config, values, callback] = args;
  if (config !== null && typeof config === 'object' && typeof (config as { submit?: unknown }).submit === 'function') return args;
  if (Array.isArray(values)) return [config, values.map(escapePgParam), callback];
  if (config !== null && typeof config === 'object' && Array.isArray((config as { values?: unknown }).values)) {
    return [{ ...config, values: (config as { values: unknown[] }).values.map(escapePgParam) }, values, callback];
  }
  return args;
}

export class IrisPgClient extends pg.Client {
  /** The last connection error, for whoever wonders why the connection went (never thrown here). */
  lastError: Error | undefined;

  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on('error', (err) => {
      this.lastError = err;
    });
  }

  // The driver's overloads all arrive here as (config, values?, callback?).
  override query(...args: unknown[]): never {
    const escaped = escapeQueryArgs(args as QueryArgs);
    return (super.query as (...a: unknown[]) => never)(...escaped);
  }
}
