// The CLI's way into state.db for commands that only read or tidy what exists (`iris usage`,
// `iris sessions`): a missing file is "nothing recorded yet", never created; a store failure is
// one line and exit 1.
import { stat } from 'node:fs/promises';
import { StoreError, type StoreErrorCode } from '../store/errors.js';
import { openSqliteStore } from '../store/sqlite-store.js';
import type { Store } from '../store/types.js';
import { CliFailure, type CliErrorCode } from './exit-codes.js';

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

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (err) {
    // Anything but "not there" (EACCES…) is left for the open to report.
    return (err as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** Runs `work` on the store at `statePath`; `missing` answers instead when there is no state.db yet. */
export async function withExistingStore<T>(statePath: string, work: (store: Store) => Promise<T>, missing: () => T): Promise<T> {
  if (!(await exists(statePath))) return missing();
  try {
    const store = await openSqliteStore(statePath, { mustExist: true });
    try {
      return await work(store);
    } finally {
      await store.close();
    }
  } catch (err) {
    if (err instanceof StoreError) throw new CliFailure(CLI_CODE_BY_STORE_CODE[err.code], err.message);
    throw err;
  }
}
