// PR review findings on SQLite (pr-finding-types.ts; pg/pg-pr-findings.ts is the twin).
import type BetterSqlite3 from 'better-sqlite3';
import type { FindingState } from '../domain/finding-states.js';
import type { PrFinding, PrFindings, PrReviewPlanRecord } from './pr-finding-types.js';

/** prune's two statements, one text for both stores (`?` becomes `$1` on PostgreSQL). */
export const PRUNE_FINDINGS_SQL = [
  'DELETE FROM pr_findings WHERE updated_at < ? AND NOT EXISTS (SELECT 1 FROM pr_threads t WHERE t.route = pr_findings.route AND t.pr_key = pr_findings.pr_key)',
  'DELETE FROM pr_review_plans WHERE created_at < ? AND NOT EXISTS (SELECT 1 FROM webhook_events e WHERE e.id = pr_review_plans.event_id)',
] as const;

/** A row of pr_findings (shared with pg/pg-pr-findings.ts). */
export type PrFindingRow = {
  route: string;
  pr_key: string;
  fingerprint: string;
  path: string;
  line: number;
  line_text: string;
  title: string;
  severity: string;
  state: string;
  thread_id: string | null;
  comment_id: string | null;
  event_id: number;
  created_at: number;
  updated_at: number;
};

export const toFinding = (row: PrFindingRow): PrFinding => ({
  route: row.route,
  prKey: row.pr_key,
  fingerprint: row.fingerprint,
  path: row.path,
  line: row.line,
  lineText: row.line_text,
  title: row.title,
  severity: row.severity,
  state: row.state as FindingState,
  threadId: row.thread_id,
  commentId: row.comment_id,
  eventId: row.event_id,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

type PlanRow = { event_id: number; route: string; pr_key: string; plan: string };
const toPlan = (row: PlanRow): PrReviewPlanRecord => ({ eventId: row.event_id, route: row.route, prKey: row.pr_key, plan: row.plan });

/** The upsert both stores run: every field replaced, except on a dismissed row, which stays. */
export const RECORD_FINDING_SQL = `INSERT INTO pr_findings (route, pr_key, fingerprint, path, line, line_text, title, severity, state, thread_id, comment_id, event_id, created_at, updated_at)
  VALUES (@route, @pr_key, @fingerprint, @path, @line, @line_text, @title, @severity, @state, @thread_id, @comment_id, @event_id, @at, @at)
  ON CONFLICT (route, pr_key, fingerprint) DO UPDATE SET path = excluded.path, line = excluded.line, line_text = excluded.line_text, title = excluded.title,
    severity = excluded.severity, state = excluded.state, thread_id = excluded.thread_id, comment_id = excluded.comment_id, event_id = excluded.event_id, updated_at = excluded.updated_at
  WHERE pr_findings.state <> 'dismissed'`;

export function createSqlitePrFindings(db: BetterSqlite3.Database, now: () => number, guarded: <T>(work: () => T) => Promise<T>): PrFindings {
  const list = db.prepare<[string, string], PrFindingRow>('SELECT * FROM pr_findings WHERE route = ? AND pr_key = ? ORDER BY created_at, fingerprint');
  const get = db.prepare<[string, string, string], PrFindingRow>('SELECT * FROM pr_findings WHERE route = ? AND pr_key = ? AND fingerprint = ?');
  const record = db.prepare(RECORD_FINDING_SQL);
  const setState = db.prepare<[string, number, string, string, string]>("UPDATE pr_findings SET state = ?, updated_at = ? WHERE route = ? AND pr_key = ? AND fingerprint = ? AND state <> 'dismissed'");
  const byHostId = db.prepare<[string, string, string, string], PrFindingRow>('SELECT * FROM pr_findings WHERE route = ? AND pr_key = ? AND (comment_id = ? OR thread_id = ?) LIMIT 1');
  const savePlan = db.prepare<[number, string, string, string, number]>(
    'INSERT INTO pr_review_plans (event_id, route, pr_key, plan, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (event_id) DO UPDATE SET route = excluded.route, pr_key = excluded.pr_key, plan = excluded.plan',
  );
  const plan = db.prepare<[number], PlanRow>('SELECT event_id, route, pr_key, plan FROM pr_review_plans WHERE event_id = ?');
  const prunes = PRUNE_FINDINGS_SQL.map((sql) => db.prepare<[number]>(sql));
  const prune = db.transaction((before: number) => prunes.reduce((removed, statement) => removed + statement.run(before).changes, 0));
  return {
    list: (route, prKey) => guarded(() => list.all(route, prKey).map(toFinding)),
    record: (finding) =>
      guarded(() => {
        record.run({
          route: finding.route,
          pr_key: finding.prKey,
          fingerprint: finding.fingerprint,
          path: finding.path,
          line: finding.line,
          line_text: finding.lineText,
          title: finding.title,
          severity: finding.severity,
          state: finding.state,
          thread_id: finding.threadId,
          comment_id: finding.commentId,
          event_id: finding.eventId,
          at: now(),
        });
        return toFinding(get.get(finding.route, finding.prKey, finding.fingerprint)!);
      }),
    setState: (route, prKey, fingerprint, state) =>
      guarded(() => {
        setState.run(state, now(), route, prKey, fingerprint);
        const row = get.get(route, prKey, fingerprint);
        return row && toFinding(row);
      }),
    byHostId: (route, prKey, id) =>
      guarded(() => {
        const row = byHostId.get(route, prKey, id, id);
        return row && toFinding(row);
      }),
    savePlan: (entry) =>
      guarded(() => {
        savePlan.run(entry.eventId, entry.route, entry.prKey, entry.plan, now());
      }),
    plan: (eventId) =>
      guarded(() => {
        const row = plan.get(eventId);
        return row && toPlan(row);
      }),
    prune: (before) => guarded(() => prune(before)),
  };
}

export { toPlan as toReviewPlan, type PlanRow as ReviewPlanRow };
