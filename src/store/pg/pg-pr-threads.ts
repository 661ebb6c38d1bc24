// PR threads on PostgreSQL (pr-thread-types.ts, pr-threads.ts is the SQLite twin): one row per
// route and PR, created or patched field by field in one upsert, so two events of different PRs
// never touch each other's row and two of the same PR never lose each other's fields.
import type { PrThreadPatch, PrThreads } from '../pr-thread-types.js';
import { PR_THREAD_COLUMNS, toThread, type PrThreadRow } from '../pr-threads.js';
import type { PgContext } from './pg-context.js';

/** The upsert of the patched fields (only those change on an existing row; updated_at always does). */
export function prThreadUpsert(route: string, prKey: string, patch: PrThreadPatch, at: number): { text: string; values: unknown[] } {
  const fields = (Object.keys(PR_THREAD_COLUMNS) as Array<keyof PrThreadPatch>).filter((key) => patch[key] !== undefined);
  const columns = ['route', 'pr_key', 'updated_at', ...fields.map((key) => PR_THREAD_COLUMNS[key])];
  const values = [route, prKey, at, ...fields.map((key) => (typeof patch[key] === 'boolean' ? Number(patch[key]) : patch[key]))];
  const placeholders = columns.map((_, index) => `$${index + 1}`).join(', ');
  const sets = columns
    .slice(2)
    .map((column) => `${column} = excluded.${column}`)
    .join(', ');
  return {
    text: `INSERT INTO pr_threads (${columns.join(', ')}) VALUES (${placeholders}) ON CONFLICT (route, pr_key) DO UPDATE SET ${sets} RETURNING *`,
    values,
  };
}

export function createPgPrThreads(ctx: PgContext): PrThreads {
  const { pool, guarded, now } = ctx;
  return {
    get: (route, prKey) =>
      guarded(async () => {
        const row = (await pool.query<PrThreadRow>('SELECT * FROM pr_threads WHERE route = $1 AND pr_key = $2', [route, prKey])).rows[0];
        return row && toThread(row);
      }),
    update: (route, prKey, patch) =>
      guarded(async () => {
        const upsert = prThreadUpsert(route, prKey, patch, now());
        return toThread((await pool.query<PrThreadRow>(upsert.text, upsert.values)).rows[0]!);
      }),
    prune: (before) => guarded(async () => (await pool.query('DELETE FROM pr_threads WHERE updated_at < $1 AND paused = 0', [before])).rowCount ?? 0),
  };
}
