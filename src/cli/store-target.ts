// Which store a command opens (store/open-store.ts decides; this reads what it decides from):
// IRIS_STORE_URL from the process or $IRIS_HOME/.env, else config.yaml's `store.url`, else
// $IRIS_HOME/state.db. A command that has loaded its config already passes it; the rest read
// config.yaml quietly (its problems are reported by the commands that use the rest of it).
import { effectiveEnv, readEnvFile } from '../config/env-file.js';
import type { Env, HomePaths } from '../config/home.js';
import type { Config } from '../config/schema.js';
import { loadConfig } from '../config/store.js';
import { StoreError, type StoreErrorCode } from '../store/errors.js';
import { openStoreAt, storeTarget, type OpenStoreOptions, type StoreTarget } from '../store/open-store.js';
import type { Store } from '../store/types.js';
import { CliFailure, type CliErrorCode } from './exit-codes.js';

export async function cliStoreTarget(paths: HomePaths, options: { readonly env?: Env; readonly config?: Pick<Config, 'store'> } = {}): Promise<StoreTarget> {
  const env = options.env ?? (await homeEnv(paths));
  const config = options.config ?? (await quietConfig(paths));
  return storeTarget(paths.statePath, env, config);
}

async function homeEnv(paths: HomePaths): Promise<Env> {
  const read = await readEnvFile(paths);
  return read.ok ? effectiveEnv(read.values, process.env) : process.env;
}

async function quietConfig(paths: HomePaths): Promise<Pick<Config, 'store'> | undefined> {
  const loaded = await loadConfig(paths);
  return loaded.ok ? loaded.config : undefined;
}

// Until exit-codes.ts knows the store's codes, every store failure is "could not finish" (exit 1).
const CLI_CODE_BY_STORE_CODE: Readonly<Record<StoreErrorCode, CliErrorCode>> = {
  corrupt: 'io_error',
  newer_schema: 'io_error',
  readonly: 'io_error',
  busy: 'io_error',
  not_found: 'io_error',
  conflict: 'io_error',
  invalid: 'io_error',
  io: 'io_error',
};

/** A store failure as the one line a command ends with. */
export function storeFailure(err: unknown): unknown {
  return err instanceof StoreError ? new CliFailure(CLI_CODE_BY_STORE_CODE[err.code], err.message) : err;
}

/** Opens the store at `target`, runs `work`, closes it; a store failure is one line and exit 1. */
export async function withStoreAt<T>(target: StoreTarget, work: (store: Store) => Promise<T>, options: OpenStoreOptions = {}): Promise<T> {
  try {
    const store = await openStoreAt(target, options);
    try {
      return await work(store);
    } finally {
      await store.close();
    }
  } catch (err) {
    throw storeFailure(err);
  }
}
