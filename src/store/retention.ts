// Retention on SQLite (DECISIONS "Retention"): counts what a prune would remove, and removes it in
// short batches, each its own IMMEDIATE transaction, so the gateway's writes wait at most one
// batch. Usage detail rows are folded into per-day totals a day at a time (insert the totals and
// delete the rows in one transaction), so `iris usage` shows the same figures before and after.
import type BetterSqlite3 from 'better-sqlite3';
import { SESSION_KINDS, type RetentionCutoffs, type RetentionCounts, type SessionKind } from '../domain/retention.js';
import {
  COUNT_SKILL_LOADS_SQL,
  COUNT_USAGE_DAY_ROWS_SQL,
  COUNT_USAGE_DETAIL_SQL,
  countSessionsSql,
  dayBounds,
  DELETE_SKILL_LOADS_SQL,
  DELETE_USAGE_DAY_SQL,
  deleteSessionsSql,
  foldUsageDaySql,
  OLDEST_DETAIL_DAY_SQL,
} from './retention-sql.js';
import type { StoreRetention } from './types.js';

type Db = BetterSqlite3.Database;
type Guarded = <T>(work: () => T) => Promise<T>;

const count = (db: Db, sql: string, before: number): number => (db.prepare<[{ before: number }], { n: number }>(sql).get({ before })?.n ?? 0);

/** Runs one batch statement until it removes nothing; returns the rows removed. */
function drain(db: Db, sql: string, before: number): number {
  const statement = db.prepare(sql);
  const batch = db.transaction(() => statement.run({ before }).changes);
  let total = 0;
  for (;;) {
    const removed = batch.immediate();
    total += removed;
    if (removed === 0) return total;
  }
}

function foldUsage(db: Db, before: number): { rows: number; dayRows: number } {
  const oldest = db.prepare<[{ before: number }], { at: number | null }>(OLDEST_DETAIL_DAY_SQL);
  const fold = db.prepare(foldUsageDaySql('sum(cost_usd IS NULL)'));
  const remove = db.prepare(DELETE_USAGE_DAY_SQL);
  const foldDay = db.transaction((bounds: { day: number; dayEnd: number }) => {
    const dayRows = fold.run(bounds).changes;
    return { dayRows, rows: remove.run(bounds).changes };
  });
  let rows = 0;
  let dayRows = 0;
  for (;;) {
    const at = oldest.get({ before })?.at;
    if (at === null || at === undefined) return { rows, dayRows };
    const done = foldDay.immediate(dayBounds(at));
    rows += done.rows;
    dayRows += done.dayRows;
  }
}

function perKind(work: (kind: SessionKind, before: number) => number, cutoffs: RetentionCutoffs): Record<SessionKind, number> {
  const counts = { cli: 0, dashboard: 0, webhook: 0, platform: 0 };
  for (const kind of SESSION_KINDS) {
    const before = cutoffs.sessionsBefore[kind];
    if (before !== undefined) counts[kind] = work(kind, before);
  }
  return counts;
}

export function createSqliteRetention(db: Db, guarded: Guarded): StoreRetention {
  return {
    plan: (cutoffs) =>
      guarded((): RetentionCounts => {
        const usage =
          cutoffs.usageDetailBefore === undefined
            ? { rows: 0, dayRows: 0 }
            : { rows: count(db, COUNT_USAGE_DETAIL_SQL, cutoffs.usageDetailBefore), dayRows: count(db, COUNT_USAGE_DAY_ROWS_SQL, cutoffs.usageDetailBefore) };
        return {
          sessions: perKind((kind, before) => count(db, countSessionsSql(kind), before), cutoffs),
          skillLoads: cutoffs.skillLoadsBefore === undefined ? 0 : count(db, COUNT_SKILL_LOADS_SQL, cutoffs.skillLoadsBefore),
          usageRowsFolded: usage.rows,
          usageDayRows: usage.dayRows,
          curatorReports: 0,
        };
      }),
    prune: (cutoffs) =>
      guarded((): RetentionCounts => {
        const sessions = perKind((kind, before) => drain(db, deleteSessionsSql(kind), before), cutoffs);
        const skillLoads = cutoffs.skillLoadsBefore === undefined ? 0 : drain(db, DELETE_SKILL_LOADS_SQL, cutoffs.skillLoadsBefore);
        const usage = cutoffs.usageDetailBefore === undefined ? { rows: 0, dayRows: 0 } : foldUsage(db, cutoffs.usageDetailBefore);
        return { sessions, skillLoads, usageRowsFolded: usage.rows, usageDayRows: usage.dayRows, curatorReports: 0 };
      }),
  };
}
