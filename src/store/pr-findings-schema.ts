// The tables of PR review findings (pr-finding-types.ts), for both stores: SQLite's migration 9
// and PostgreSQL's 10 (PostgreSQL's 8 is its own, so its numbers run one ahead), with the same
// columns so `iris store copy` moves rows as they are.
import type { Migration } from './migrations.js';

export const PR_FINDINGS_DESCRIPTION = 'pull-request review findings and review plans';

const STATES = "('open', 'answered', 'dismissed', 'resolved', 'outdated')";

export function prFindingsSql(dialect: 'sqlite' | 'postgres'): string {
  const text = dialect === 'sqlite' ? 'TEXT' : 'TEXT COLLATE "C"';
  const int = dialect === 'sqlite' ? 'INTEGER' : 'BIGINT';
  const strict = dialect === 'sqlite' ? ' STRICT' : '';
  return `
      -- One row per finding Iris posted on a PR (route, pr_key as in pr_threads), by fingerprint.
      -- thread_id: GitHub's review thread node id or GitLab's discussion id; comment_id: the
      -- finding's comment (GitHub review comment, GitLab note); event_id: the review that posted it.
      CREATE TABLE pr_findings (
        route ${text} NOT NULL,
        pr_key ${text} NOT NULL,
        fingerprint ${text} NOT NULL,
        path ${text} NOT NULL,
        line ${int} NOT NULL,
        line_text ${text} NOT NULL,
        title ${text} NOT NULL,
        severity ${text} NOT NULL,
        state ${text} NOT NULL CHECK (state IN ${STATES}),
        thread_id ${text},
        comment_id ${text},
        event_id ${int} NOT NULL,
        created_at ${int} NOT NULL,
        updated_at ${int} NOT NULL,
        PRIMARY KEY (route, pr_key, fingerprint)
      )${strict};
      CREATE INDEX pr_findings_by_comment ON pr_findings (route, pr_key, comment_id);

      -- What a review run decided its delivery posts (JSON), by the event it answers.
      CREATE TABLE pr_review_plans (
        event_id ${int} PRIMARY KEY,
        route ${text} NOT NULL,
        pr_key ${text} NOT NULL,
        plan ${text} NOT NULL,
        created_at ${int} NOT NULL
      )${strict};
    `;
}

export const SQLITE_PR_FINDINGS: Migration = { version: 9, description: PR_FINDINGS_DESCRIPTION, sql: prFindingsSql('sqlite') };
export const PG_PR_FINDINGS: Migration = { version: 10, description: PR_FINDINGS_DESCRIPTION, sql: prFindingsSql('postgres') };
