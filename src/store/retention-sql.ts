// The SQL a prune runs, one text for both stores (`@name` parameters; pg-named.ts turns them into
// PostgreSQL's `$n`), and the few dialect differences passed in. Pure: no I/O.
import { DAY_MS } from '../domain/usage-ledger.js';
import type { SessionKind } from '../domain/retention.js';

/** How many rows one statement deletes: a prune never holds the write lock for long. */
export const PRUNE_BATCH = 500;

/** The sessions of a kind, by source (retention.ts's sessionKind, in SQL). */
const KIND_CONDITION: Readonly<Record<SessionKind, string>> = {
  cli: "source = 'cli'",
  dashboard: "source = 'dashboard'",
  webhook: "substr(source, 1, 8) = 'webhook:'",
  platform: "source NOT IN ('cli', 'dashboard') AND substr(source, 1, 8) <> 'webhook:'",
};

/** Sessions of the kind last active before @before, never a running one. */
const sessionsWhere = (kind: SessionKind) => `${KIND_CONDITION[kind]} AND updated_at < @before AND status <> 'running'`;

export const countSessionsSql = (kind: SessionKind) => `SELECT count(*) AS n FROM sessions WHERE ${sessionsWhere(kind)}`;

/** One batch; the status is checked again by the DELETE itself, so a session that started running meanwhile stays. */
export const deleteSessionsSql = (kind: SessionKind) =>
  `DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE ${sessionsWhere(kind)} ORDER BY updated_at LIMIT ${PRUNE_BATCH}) AND status <> 'running'`;

export const COUNT_SKILL_LOADS_SQL = 'SELECT count(*) AS n FROM skill_loads WHERE at < @before';
export const DELETE_SKILL_LOADS_SQL = `DELETE FROM skill_loads WHERE id IN (SELECT id FROM skill_loads WHERE at < @before ORDER BY id LIMIT ${PRUNE_BATCH})`;

/** A call's own usage row (`unpriced_calls` NULL), as opposed to a day's total. */
const DETAIL = 'unpriced_calls IS NULL';
const GROUP = 'provider, model, task, source';

/** Detail rows before @before, and the per-day totals they become. */
export const COUNT_USAGE_DETAIL_SQL = `SELECT count(*) AS n, count(DISTINCT at / ${DAY_MS}) AS days FROM usage WHERE ${DETAIL} AND at < @before`;
export const COUNT_USAGE_DAY_ROWS_SQL = `SELECT count(*) AS n FROM (SELECT 1 AS one FROM usage WHERE ${DETAIL} AND at < @before GROUP BY at / ${DAY_MS}, ${GROUP}) AS day_rows`;

/** The oldest day (its start, epoch ms) that still has detail rows before @before. */
export const OLDEST_DETAIL_DAY_SQL = `SELECT min(at) AS at FROM usage WHERE ${DETAIL} AND at < @before`;

/**
 * One UTC day's detail rows [@day, @dayEnd) as one total row per model, slot and source, stamped
 * with the day's start and no session. `unpriced` counts the calls with no known price (a dialect
 * difference); SUM over only unknown costs stays NULL, as in the summary.
 */
export const foldUsageDaySql = (unpriced: string) => `
  INSERT INTO usage (session_id, at, provider, model, task, input_tokens, output_tokens, cached_tokens, cost_usd, source, cache_write_tokens, calls, unpriced_calls)
  SELECT NULL, CAST(@day AS BIGINT), provider, model, task, sum(input_tokens), sum(output_tokens), sum(cached_tokens), sum(cost_usd), source, sum(cache_write_tokens), sum(calls), ${unpriced}
  FROM usage WHERE ${DETAIL} AND at >= @day AND at < @dayEnd GROUP BY ${GROUP}`;

export const DELETE_USAGE_DAY_SQL = `DELETE FROM usage WHERE ${DETAIL} AND at >= @day AND at < @dayEnd`;

/** The UTC day an instant falls on, as [start, end) epoch ms. */
export function dayBounds(at: number): { readonly day: number; readonly dayEnd: number } {
  const day = Math.floor(at / DAY_MS) * DAY_MS;
  return { day, dayEnd: day + DAY_MS };
}
