// After a review's run: the model's answer read as findings (one retry in the PR's session, naming
// what was wrong), the plan of what its delivery posts (review/review-plan.ts) kept in the store
// under the event, and the summary as the run's output. The plan is kept before the output, so a
// delivery (even one retried after a crash) always finds it.
import type { Store } from '../store/types.js';
import type { WebhookEventRecord } from '../store/webhook-types.js';
import type { ReviewInputs } from '../review/gather.js';
import { parseReviewAnswer, retryPrompt } from '../review/findings.js';
import { buildReviewPlan, type RecordedForPlan } from '../review/review-plan.js';
import type { PrPlan } from './pr-plan.js';

export type TurnAnswer = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly stop: { readonly kind: 'interrupted' } | { readonly kind: 'failed'; readonly reason: string } };

export type ReviewDone = { readonly kind: 'done'; readonly output: string; readonly deliverAs: 'summary' };

export async function finishReview(
  store: Store,
  record: WebhookEventRecord,
  plan: Extract<PrPlan, { kind: 'run' }>,
  inputs: ReviewInputs,
  first: string,
  turn: (prompt: string) => Promise<TurnAnswer>,
): Promise<ReviewDone | Extract<TurnAnswer, { ok: false }>['stop']> {
  let text = first;
  let parsed = parseReviewAnswer(text);
  if (!parsed.ok) {
    const again = await turn(retryPrompt(parsed.problem));
    if (!again.ok) return again.stop;
    text = again.text;
    parsed = parseReviewAnswer(text);
  }
  const recorded: RecordedForPlan[] = (await store.prFindings.list(record.route, plan.prKey)).map((f) => ({
    fingerprint: f.fingerprint,
    path: f.path,
    line: f.line,
    lineText: f.lineText,
    state: f.state,
    title: f.title,
    severity: f.severity,
    threadId: f.threadId,
    commentId: f.commentId,
  }));
  // What the summary says of the inputs: a rule held to the route's limit, and what the budget cut.
  const diffNote = [inputs.rulesNote, inputs.diff.note].filter((note) => note !== undefined && note.trim() !== '').join(' ');
  const reviewPlan = buildReviewPlan(
    {
      forge: plan.pr.forge,
      rules: inputs.rules,
      ...(inputs.rulesProblem === undefined ? {} : { rulesProblem: inputs.rulesProblem }),
      files: inputs.files,
      ...(diffNote === '' ? {} : { diffNote }),
      shas: inputs.shas,
    },
    parsed,
    text,
    recorded,
  );
  await store.prFindings.savePlan({ eventId: record.id, route: record.route, prKey: plan.prKey, plan: JSON.stringify(reviewPlan) });
  return { kind: 'done', output: reviewPlan.summary, deliverAs: 'summary' };
}
