// PR threads on SQLite (pr-thread-types.ts): one row per route and PR, patched field by field in
// one statement, so two events of different PRs never touch each other's row.
import type BetterSqlite3 from 'better-sqlite3';
import type { PrThread, PrThreadPatch, PrThreads } from './pr-thread-types.js';

/** A row of pr_threads (shared with pg/pg-pr-threads.ts). */
export type PrThreadRow = {
  route: string;
  pr_key: string;
  session_id: string | null;
  reviewed_sha: string | null;
  summary_comment_id: string | null;
  paused: number;
  refusal_sent: number;
  updated_at: number;
};

export const toThread = (row: PrThreadRow): PrThread => ({
  route: row.route,
  prKey: row.pr_key,
  sessionId: row.session_id,
  reviewedSha: row.reviewed_sha,
  summaryCommentId: row.summary_comment_id,
  paused: row.paused === 1,
  refusalSent: row.refusal_sent === 1,
  updatedAt: row.updated_at,
});

/** Column per patch field: the one list the upsert is built from. */
export const PR_THREAD_COLUMNS = {
  sessionId: 'session_id',
  reviewedSha: 'reviewed_sha',
  summaryCommentId: 'summary_comment_id',
  paused: 'paused',
  refusalSent: 'refusal_sent',
} as const satisfies Record<keyof PrThreadPatch, string>;

export function createSqlitePrThreads(db: BetterSqlite3.Database, now: () => number, guarded: <T>(work: () => T) => Promise<T>): PrThreads {
  const get = db.prepare<[string, string], PrThreadRow>('SELECT * FROM pr_threads WHERE route = ? AND pr_key = ?');
  const insert = db.prepare<[string, string, number]>('INSERT INTO pr_threads (route, pr_key, updated_at) VALUES (?, ?, ?) ON CONFLICT (route, pr_key) DO NOTHING');
  const prune = db.prepare<[number]>('DELETE FROM pr_threads WHERE updated_at < ? AND paused = 0');
  // One statement per set of patched fields, made once.
  const updates = new Map<string, BetterSqlite3.Statement>();
  const update = db.transaction((route: string, prKey: string, patch: PrThreadPatch): PrThreadRow => {
    const at = now();
    insert.run(route, prKey, at);
    const fields = (Object.keys(PR_THREAD_COLUMNS) as Array<keyof PrThreadPatch>).filter((key) => patch[key] !== undefined);
    const values = fields.map((key) => {
      const value = patch[key];
      return typeof value === 'boolean' ? Number(value) : value;
    });
    const shape = fields.join(',');
    let statement = updates.get(shape);
    if (statement === undefined) {
      const sets = [...fields.map((key) => `${PR_THREAD_COLUMNS[key]} = ?`), 'updated_at = ?'].join(', ');
      statement = db.prepare(`UPDATE pr_threads SET ${sets} WHERE route = ? AND pr_key = ?`);
      updates.set(shape, statement);
    }
    statement.run(...values, at, route, prKey);
    return get.get(route, prKey)!;
  });
  return {
    get: (route, prKey) =>
      guarded(() => {
        const row = get.get(route, prKey);
        return row && toThread(row);
      }),
    update: (route, prKey, patch) => guarded(() => toThread(update.immediate(route, prKey, patch))),
    prune: (before) => guarded(() => prune.run(before).changes),
  };
}
