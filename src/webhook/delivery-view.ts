// What `iris webhook deliveries` says about an inbox event: a row for the list (with the run's
// session and the first line of its answer) and the whole story for `--show <id>` (the answer and
// what became of its delivery). Pure: a stored record in, plain data out.
import { commentTarget } from '../delivery/comment-target.js';
import type { WebhookEventRecord } from '../store/webhook-types.js';
import { parseRouteSnapshot, type RouteSnapshot } from './routes.js';
import type { ReviewPlan } from '../review/review-plan.js';
import { webhookPrompt } from '../gateway/run-prompt.js';

/** A first line longer than this is cut with `…`: the list stays one screen wide-ish. */
export const FIRST_LINE_CHARS = 120;

export type DeliveryRow = {
  readonly id: number;
  readonly received_at: string;
  readonly route: string;
  readonly event: string;
  readonly delivery_id: string;
  readonly state: WebhookEventRecord['state'];
  readonly session: string | null;
  readonly run_attempts: number;
  readonly delivery_attempts: number;
  readonly reason: string | null;
  /** The answer's first non-blank line (cut at FIRST_LINE_CHARS); `''` for a blank answer; null before there is one. */
  readonly answer_first_line: string | null;
};

export type DeliveryDetail = Omit<DeliveryRow, 'answer_first_line'> & {
  readonly updated_at: string;
  /** The route's delivery target when the event was accepted (`log`, `forge_comment`, …). */
  readonly deliver: string | null;
  /** One sentence: where the answer went, or why it did not, or what is still to happen. */
  readonly outcome: string;
  /** The whole answer; null before the run has finished. */
  readonly answer: string | null;
  /** A PR review's findings, by where they went (present once the review's run has finished). */
  readonly review?: ReviewView;
};

export type FindingView = { readonly path: string; readonly line: number; readonly severity: string; readonly title: string };

export type ReviewView = {
  /** On their lines, as inline comments (posted once the event is delivered). */
  readonly inline: readonly FindingView[];
  /** Not on a line of the diff: listed in the summary. */
  readonly in_summary: readonly FindingView[];
  /** Raised before on the PR (open, answered, dismissed or resolved): not posted again. */
  readonly repeats: ReadonlyArray<FindingView & { readonly state: string }>;
  /**
   * Earlier findings whose code is gone: their threads answered and resolved. `note` says when a
   * delivered review left one alone because a person had resolved its thread first.
   */
  readonly outdated: ReadonlyArray<FindingView & { readonly note?: string }>;
  /** The answer could not be read as findings. */
  readonly unreadable: boolean;
};

const findingView = (f: FindingView): FindingView => ({ path: f.path, line: f.line, severity: f.severity, title: f.title });

/** What the outdated entry of a delivered review says when a person had resolved its thread first. */
export const RESOLVED_FIRST_NOTE = 'a person resolved its thread first: no reply';

/** The plan's `resolvedFirst` (what its delivery found resolved by a person) is said once the event is delivered. */
export function reviewView(plan: ReviewPlan, delivered = true): ReviewView {
  const resolvedFirst = new Set(delivered ? (plan.resolvedFirst ?? []) : []);
  return {
    inline: plan.inline.map(findingView),
    in_summary: plan.notPlaced.map(findingView),
    repeats: plan.repeats.map((r) => ({ ...findingView(r), state: r.state })),
    outdated: plan.outdated.map((f) => (resolvedFirst.has(f.fingerprint) ? { ...findingView(f), note: RESOLVED_FIRST_NOTE } : findingView(f))),
    unreadable: plan.unreadable === true,
  };
}

export function firstLine(answer: string): string {
  const line = answer.split(/\r?\n/).find((l) => l.trim() !== '')?.trim() ?? '';
  return line.length > FIRST_LINE_CHARS ? `${line.slice(0, FIRST_LINE_CHARS - 1)}…` : line;
}

function eventFields(record: WebhookEventRecord): Omit<DeliveryRow, 'answer_first_line'> {
  return {
    id: record.id,
    received_at: new Date(record.receivedAt).toISOString(),
    route: record.route,
    event: record.event,
    delivery_id: record.deliveryId,
    state: record.state,
    session: record.sessionId,
    run_attempts: record.runAttempts,
    delivery_attempts: record.deliveryAttempts,
    reason: record.error ?? record.skipReason,
  };
}

export function deliveryRow(record: WebhookEventRecord): DeliveryRow {
  return { ...eventFields(record), answer_first_line: record.output === null ? null : firstLine(record.output) };
}

const attempts = (n: number) => `${n} attempt${n === 1 ? '' : 's'}`;

/** Where a delivered forge comment went: `octo/hello#42`, when the stored payload still says. */
function forgeTarget(record: WebhookEventRecord, snapshot: RouteSnapshot): string | undefined {
  let payload: unknown;
  try {
    payload = JSON.parse(record.payload);
  } catch {
    return undefined;
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
  const target = commentTarget(snapshot, record.event, payload as Record<string, unknown>);
  return target.ok ? `${target.pr.repo}#${target.pr.number}` : undefined;
}

function outcome(record: WebhookEventRecord, snapshot: RouteSnapshot | undefined): string {
  const deliver = snapshot?.deliver ?? null;
  switch (record.state) {
    case 'accepted':
      return record.runAttempts === 0 ? 'waiting for a worker' : `waiting to run again (${attempts(record.runAttempts)} so far)`;
    case 'running':
      return `the agent is running (attempt ${record.runAttempts})`;
    case 'done':
      return record.error ? `answered; delivery pending after a problem: ${record.error}` : 'answered; delivery pending';
    case 'delivering':
      return record.error ? `answered; being delivered after a problem: ${record.error}` : 'answered; being delivered (a cut-off delivery is checked against the PR before it is posted again)';
    case 'delivered': {
      if (deliver === 'log') return 'delivered: written to gateway.log';
      if (deliver === 'forge_comment') {
        const where = snapshot && forgeTarget(record, snapshot);
        return `delivered: posted as a PR comment${where ? ` on ${where}` : ''} (${attempts(record.deliveryAttempts)})`;
      }
      return `delivered (${deliver ?? 'unknown target'})`;
    }
    case 'skipped':
      return `skipped, nothing to run or deliver: ${record.skipReason ?? 'no reason recorded'}`;
    case 'failed':
      return record.output === null ? `failed before an answer: ${record.error ?? 'no reason recorded'}` : `answered, but the delivery failed: ${record.error ?? 'no reason recorded'}`;
  }
}

export function deliveryDetail(record: WebhookEventRecord, plan?: ReviewPlan): DeliveryDetail {
  const snapshot = parseRouteSnapshot(record.routeSnapshot);
  const deliver = snapshot.ok ? snapshot.snapshot.deliver : null;
  return {
    ...eventFields(record),
    updated_at: new Date(record.updatedAt).toISOString(),
    deliver,
    outcome: outcome(record, snapshot.ok ? snapshot.snapshot : undefined),
    answer: record.output,
    ...(plan === undefined ? {} : { review: reviewView(plan, record.state === 'delivered') }),
  };
}

/**
 * The prompt the event's run was given, rendered again from the stored payload and route snapshot
 * with the run's own function (a PR review's run adds the diff and its plan after it; that part is
 * not rebuilt here). Undefined when the stored payload or route cannot be read.
 */
export function deliveryPrompt(record: Pick<WebhookEventRecord, 'payload' | 'routeSnapshot' | 'event'>): string | undefined {
  const snapshot = parseRouteSnapshot(record.routeSnapshot);
  if (!snapshot.ok) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(record.payload);
  } catch {
    return undefined;
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
  return webhookPrompt(snapshot.snapshot, record.event, payload as Record<string, unknown>);
}
