// The CLI's way into the store for commands that only read or tidy what exists (`iris usage`,
// `iris sessions`): with SQLite, a missing state.db is "nothing recorded yet", never created;
// PostgreSQL has no missing-file case (opening migrates an empty database, as every process does).
// A store failure is one line and exit 1.
import { stat } from 'node:fs/promises';
import type { HomePaths } from '../config/home.js';
import type { Store } from '../store/types.js';
import { cliStoreTarget, withStoreAt } from './store-target.js';

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (err) {
    // Anything but "not there" (EACCES…) is left for the open to report.
    return (err as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** Runs `work` on the home's store; `missing` answers instead when it is SQLite and there is no state.db yet. */
export async function withExistingStore<T>(paths: HomePaths, work: (store: Store) => Promise<T>, missing: () => T): Promise<T> {
  const target = await cliStoreTarget(paths);
  if (target.backend === 'postgres') return withStoreAt(target, work);
  if (!(await exists(target.path))) return missing();
  return withStoreAt(target, work, { mustExist: true });
}
