// Retention on PostgreSQL: the same SQL and batches as SQLite's (../retention.ts). Each batch is
// its own statement (autocommit), a day's fold one transaction; several gateways pruning at once
// is harmless: a fold that lost the race finds no rows left for its day.
import { SESSION_KINDS, type RetentionCutoffs, type RetentionCounts, type SessionKind } from '../../domain/retention.js';
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
} from '../retention-sql.js';
import type { StoreRetention } from '../types.js';
import type { PgContext } from './pg-context.js';
import { named } from './pg-named.js';
import { inTransaction } from './pg-pool.js';

const UNPRICED = 'count(*) FILTER (WHERE cost_usd IS NULL)';

export function createPgRetention({ pool, guarded }: PgContext): StoreRetention {
  async function count(sql: string, before: number): Promise<number> {
    const { text, values } = named(sql, { before });
    const result = await pool.query<{ n: number }>(text, values);
    return Number(result.rows[0]?.n ?? 0);
  }

  async function drain(sql: string, before: number): Promise<number> {
    const { text, values } = named(sql, { before });
    let total = 0;
    for (;;) {
      const removed = (await pool.query(text, values)).rowCount ?? 0;
      total += removed;
      if (removed === 0) return total;
    }
  }

  async function foldUsage(before: number): Promise<{ rows: number; dayRows: number }> {
    let rows = 0;
    let dayRows = 0;
    for (;;) {
      const oldest = named(OLDEST_DETAIL_DAY_SQL, { before });
      const at = (await pool.query<{ at: number | null }>(oldest.text, oldest.values)).rows[0]?.at;
      if (at === null || at === undefined) return { rows, dayRows };
      const bounds = dayBounds(Number(at));
      const done = await inTransaction(pool, async (client) => {
        const fold = named(foldUsageDaySql(UNPRICED), bounds);
        const remove = named(DELETE_USAGE_DAY_SQL, bounds);
        const folded = (await client.query(fold.text, fold.values)).rowCount ?? 0;
        return { dayRows: folded, rows: (await client.query(remove.text, remove.values)).rowCount ?? 0 };
      });
      rows += done.rows;
      dayRows += done.dayRows;
    }
  }

  async function perKind(work: (kind: SessionKind, before: number) => Promise<number>, cutoffs: RetentionCutoffs): Promise<Record<SessionKind, number>> {
    const counts = { cli: 0, dashboard: 0, webhook: 0, platform: 0 };
    for (const kind of SESSION_KINDS) {
      const before = cutoffs.sessionsBefore[kind];
      if (before !== undefined) counts[kind] = await work(kind, before);
    }
    return counts;
  }

  return {
    plan: (cutoffs) =>
      guarded(async (): Promise<RetentionCounts> => {
        const before = cutoffs.usageDetailBefore;
        return {
          sessions: await perKind((kind, cutoff) => count(countSessionsSql(kind), cutoff), cutoffs),
          skillLoads: cutoffs.skillLoadsBefore === undefined ? 0 : await count(COUNT_SKILL_LOADS_SQL, cutoffs.skillLoadsBefore),
          usageRowsFolded: before === undefined ? 0 : await count(COUNT_USAGE_DETAIL_SQL, before),
          usageDayRows: before === undefined ? 0 : await count(COUNT_USAGE_DAY_ROWS_SQL, before),
          curatorReports: 0,
        };
      }),
    prune: (cutoffs) =>
      guarded(async (): Promise<RetentionCounts> => {
        const sessions = await perKind((kind, cutoff) => drain(deleteSessionsSql(kind), cutoff), cutoffs);
        const skillLoads = cutoffs.skillLoadsBefore === undefined ? 0 : await drain(DELETE_SKILL_LOADS_SQL, cutoffs.skillLoadsBefore);
        const usage = cutoffs.usageDetailBefore === undefined ? { rows: 0, dayRows: 0 } : await foldUsage(cutoffs.usageDetailBefore);
        return { sessions, skillLoads, usageRowsFolded: usage.rows, usageDayRows: usage.dayRows, curatorReports: 0 };
      }),
  };
}
