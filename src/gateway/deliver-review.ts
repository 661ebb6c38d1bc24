// Posting a review's findings (its plan, review/review-plan.ts) after its summary: the inline
// comments (GitHub: one review, event COMMENT, carrying the event's delivery marker; GitLab: a
// discussion per finding), each recorded in the store with its comment and thread ids; then the
// outdated findings, each answered and resolved (a thread a person resolved first is left as it is,
// its finding marked resolved). A post cut off by a crash, or a try that failed (it may have posted
// all the same), is looked for by its markers before anything is posted again.
import { deliveryMarker } from '../delivery/forge-comment.js';
import type { CallOptions, ForgeResult, PrRef } from '../delivery/pr-forge.js';
import { replyCarrying, type FindingThread, type PostedFinding, type PrReviewPoster, type ThreadNow } from '../delivery/pr-review-poster.js';
import { outdatedMarker, outdatedReply } from '../review/finding-comment.js';
import type { ReviewPlan } from '../review/review-plan.js';
import { GOES_OUTDATED } from '../review/placement.js';
import type { PrFindings } from '../store/pr-finding-types.js';
import type { WebhookEventRecord } from '../store/webhook-types.js';

export type ReviewDeliveryDeps = {
  readonly poster: PrReviewPoster;
  readonly findings: PrFindings;
  readonly botLogin: string | undefined;
  /** Retries a call that failed in a retryable way (the caller's backoff). */
  readonly retried: <T>(call: () => Promise<ForgeResult<T>>) => Promise<ForgeResult<T>>;
};

export type ReviewTarget = { readonly pr: PrRef; readonly prKey: string };

/**
 * `reviewBody`: GitHub's review body (the summary, or a pointer to the summary comment), without
 * the marker, which is added here.
 */
export async function deliverReviewFindings(
  deps: ReviewDeliveryDeps,
  record: WebhookEventRecord,
  target: ReviewTarget,
  plan: ReviewPlan,
  reviewBody: string,
  call: CallOptions,
): Promise<ForgeResult<{ readonly posted: number; readonly outdated: number; readonly resolvedByPeople: number }>> {
  const { poster, findings } = deps;
  const marker = deliveryMarker(record.id);
  let posted: PostedFinding[] = [];
  if (plan.inline.length > 0) {
    const find = () => poster.findPosted(target.pr, marker, plan.inline, { ...call, ...(deps.botLogin === undefined ? {} : { by: deps.botLogin }) });
    // After a crash (the event was being delivered), what was posted is looked for first.
    let lookFirst = record.state === 'delivering';
    const result = await deps.retried(async (): Promise<ForgeResult<PostedFinding[]>> => {
      let already: PostedFinding[] = [];
      if (lookFirst) {
        const found = await find();
        if (!found.ok) return found;
        // GitHub: the review is one call, so a review found holds every finding there is.
        if (found.value !== null) {
          already = found.value;
          if (poster.postsOneReview) return { ok: true, value: already };
        }
      }
      const known = new Set(already.map((p) => p.fingerprint));
      const rest = plan.inline.filter((comment) => !known.has(comment.fingerprint));
      if (rest.length === 0) return { ok: true, value: already };
      const fresh = await poster.postFindings(target.pr, { body: `${reviewBody}\n\n${marker}`, shas: plan.shas, comments: rest }, call);
      lookFirst = !fresh.ok;
      return fresh.ok ? { ok: true, value: [...already, ...fresh.value] } : fresh;
    });
    if (!result.ok) return result;
    posted = result.value;
    const byFingerprint = new Map(plan.inline.map((comment) => [comment.fingerprint, comment]));
    for (const one of posted) {
      const comment = byFingerprint.get(one.fingerprint);
      if (comment === undefined) continue;
      await findings.record({
        route: record.route,
        prKey: target.prKey,
        fingerprint: one.fingerprint,
        path: comment.path,
        line: comment.line,
        lineText: comment.lineText,
        title: comment.title,
        severity: comment.severity,
        state: 'open',
        threadId: one.threadId,
        commentId: one.commentId,
        eventId: record.id,
      });
    }
  }
  let outdated = 0;
  const resolvedFirst = new Set(plan.resolvedFirst ?? []);
  for (const gone of plan.outdated) {
    const current = (await findings.list(record.route, target.prKey)).find((f) => f.fingerprint === gone.fingerprint);
    if (current === undefined || !GOES_OUTDATED.has(current.state)) continue;
    const thread = { threadId: gone.threadId, commentId: gone.commentId };
    const marker = outdatedMarker(gone.fingerprint);
    // The thread as it is now: the reply may be there already (a crash after posting it, before
    // it was recorded below), or a person may have resolved the thread: then it is left as it is.
    const now = await deps.retried(() => poster.threadNow(target.pr, thread, call));
    if (!now.ok) return now;
    if (now.value !== null && now.value.resolved && replyCarrying(now.value, marker, deps.botLogin) === undefined) {
      // Kept with the plan first: a crash before the state below finds the thread as it was.
      resolvedFirst.add(gone.fingerprint);
      await findings.savePlan({ eventId: record.id, route: record.route, prKey: target.prKey, plan: JSON.stringify({ ...plan, resolvedFirst: [...resolvedFirst] }) });
      await findings.setState(record.route, target.prKey, gone.fingerprint, 'resolved');
      continue;
    }
    // A deleted thread has nothing to answer; a resolved one with the reply in it is done.
    if (now.value !== null && !now.value.resolved) {
      const resolved = await resolveOnce(deps, target, thread, gone.fingerprint, now.value, call);
      if (!resolved.ok) return resolved;
    }
    await findings.setState(record.route, target.prKey, gone.fingerprint, 'outdated');
    outdated += 1;
  }
  return { ok: true, value: { posted: posted.length, outdated, resolvedByPeople: resolvedFirst.size } };
}

/**
 * Replies (unless the reply is there) and resolves. A try that failed may have posted the reply
 * all the same (a timeout, or the resolve failing after it): the thread is read again before a
 * retry, so the reply is posted once.
 */
async function resolveOnce(deps: ReviewDeliveryDeps, target: ReviewTarget, thread: FindingThread, fingerprint: string, first: ThreadNow, call: CallOptions): Promise<ForgeResult<void>> {
  const marker = outdatedMarker(fingerprint);
  let now: ThreadNow | null = first;
  return deps.retried(async (): Promise<ForgeResult<void>> => {
    if (now === null) {
      const again = await deps.poster.threadNow(target.pr, thread, call);
      if (!again.ok) return again;
      // Gone meanwhile, or resolved by the try before (or by a person): nothing more to do.
      if (again.value === null || again.value.resolved) return { ok: true, value: undefined };
      now = again.value;
    }
    const replied = replyCarrying(now, marker, deps.botLogin) !== undefined;
    const result = await deps.poster.resolveOutdated(target.pr, thread, replied ? null : outdatedReply(fingerprint), call);
    if (!result.ok) now = null;
    return result;
  });
}
