// PR review findings on PostgreSQL (pr-finding-types.ts; pr-findings.ts is the SQLite twin, whose
// upsert this runs with numbered parameters).
import type { PrFindings } from '../pr-finding-types.js';
import { PRUNE_FINDINGS_SQL, RECORD_FINDING_SQL, toFinding, toReviewPlan, type PrFindingRow, type ReviewPlanRow } from '../pr-findings.js';
import type { PgContext } from './pg-context.js';

const RECORD_PARAMS = ['route', 'pr_key', 'fingerprint', 'path', 'line', 'line_text', 'title', 'severity', 'state', 'thread_id', 'comment_id', 'event_id', 'at'] as const;
const RECORD_SQL = `${RECORD_FINDING_SQL.replace(/@(\w+)/g, (_, name: string) => `$${RECORD_PARAMS.indexOf(name as (typeof RECORD_PARAMS)[number]) + 1}`)} RETURNING *`;

export function createPgPrFindings(ctx: PgContext): PrFindings {
  const { pool, guarded, now } = ctx;
  const one = async (text: string, values: unknown[]) => (await pool.query<PrFindingRow>(text, values)).rows[0];
  const get = (route: string, prKey: string, fingerprint: string) => one('SELECT * FROM pr_findings WHERE route = $1 AND pr_key = $2 AND fingerprint = $3', [route, prKey, fingerprint]);
  return {
    list: (route, prKey) =>
      guarded(async () => (await pool.query<PrFindingRow>('SELECT * FROM pr_findings WHERE route = $1 AND pr_key = $2 ORDER BY created_at, fingerprint', [route, prKey])).rows.map(toFinding)),
    record: (finding) =>
      guarded(async () => {
        const values = [finding.route, finding.prKey, finding.fingerprint, finding.path, finding.line, finding.lineText, finding.title, finding.severity, finding.state, finding.threadId, finding.commentId, finding.eventId, now()];
        // A dismissed row is not updated (RETURNING gives nothing): it is read as it is.
        const row = (await one(RECORD_SQL, values)) ?? (await get(finding.route, finding.prKey, finding.fingerprint));
        return toFinding(row!);
      }),
    setState: (route, prKey, fingerprint, state) =>
      guarded(async () => {
        await pool.query("UPDATE pr_findings SET state = $1, updated_at = $2 WHERE route = $3 AND pr_key = $4 AND fingerprint = $5 AND state <> 'dismissed'", [state, now(), route, prKey, fingerprint]);
        const row = await get(route, prKey, fingerprint);
        return row && toFinding(row);
      }),
    byHostId: (route, prKey, id) =>
      guarded(async () => {
        const row = await one('SELECT * FROM pr_findings WHERE route = $1 AND pr_key = $2 AND (comment_id = $3 OR thread_id = $3) LIMIT 1', [route, prKey, id]);
        return row && toFinding(row);
      }),
    savePlan: (entry) =>
      guarded(async () => {
        await pool.query(
          'INSERT INTO pr_review_plans (event_id, route, pr_key, plan, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (event_id) DO UPDATE SET route = excluded.route, pr_key = excluded.pr_key, plan = excluded.plan',
          [entry.eventId, entry.route, entry.prKey, entry.plan, now()],
        );
      }),
    plan: (eventId) =>
      guarded(async () => {
        const row = (await pool.query<ReviewPlanRow>('SELECT event_id, route, pr_key, plan FROM pr_review_plans WHERE event_id = $1', [eventId])).rows[0];
        return row && toReviewPlan(row);
      }),
    prune: (before) =>
      guarded(async () => {
        let removed = 0;
        for (const sql of PRUNE_FINDINGS_SQL) removed += (await pool.query(sql.replace('?', '$1'), [before])).rowCount ?? 0;
        return removed;
      }),
  };
}
