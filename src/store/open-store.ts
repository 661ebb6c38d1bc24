// Which store a process opens: PostgreSQL when `store.url` (or IRIS_STORE_URL, which wins) is a
// postgres:// URL, else SQLite at $IRIS_HOME/state.db. Every command and the gateway open the
// store through here, so they all agree on where state lives.
import { openSqliteStore, type SqliteStoreOptions } from './sqlite-store.js';
import type { Store } from './types.js';

export const STORE_URL_ENV = 'IRIS_STORE_URL';

export type StoreTarget =
  | { readonly backend: 'sqlite'; readonly path: string }
  | { readonly backend: 'postgres'; readonly url: string; readonly leaseSeconds: number };

/** config.yaml's `store` section as the config layer validated it (the store does not import the config). */
export type StoreSettings = { readonly store: { readonly url: string; readonly lease_seconds: number } };

/** Pure: where the store is, from the environment and the config (an unreadable config counts as none). */
export function storeTarget(statePath: string, env: Readonly<Record<string, string | undefined>>, config?: StoreSettings): StoreTarget {
  const fromEnv = env[STORE_URL_ENV]?.trim();
  const url = fromEnv || config?.store.url || '';
  if (url === '') return { backend: 'sqlite', path: statePath };
  return { backend: 'postgres', url, leaseSeconds: config?.store.lease_seconds ?? 30 };
}

export type OpenStoreOptions = Pick<SqliteStoreOptions, 'mustExist' | 'server' | 'now'> & {
  /** PostgreSQL: a lease renewal failed in the background (logged by the gateway). */
  readonly onBackgroundError?: (err: unknown) => void;
};

export async function openStoreAt(target: StoreTarget, options: OpenStoreOptions = {}): Promise<Store> {
  if (target.backend === 'sqlite') return openSqliteStore(target.path, options);
  // Loaded only here: a SQLite home never pays for the PostgreSQL driver at start-up.
  const { openPostgresStore } = await import('./pg/pg-store.js');
  return openPostgresStore(target.url, { now: options.now, leaseSeconds: target.leaseSeconds, mustExist: options.mustExist, onBackgroundError: options.onBackgroundError });
}
