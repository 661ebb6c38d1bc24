// Delivering an answer as a PR comment through a code-host client (pr-forge.ts): GitHub through
// `gh api`, GitLab through its REST API. Two shapes:
// - update: the route's one living summary comment on the PR, found by the id kept in the store or
//   else by its hidden marker (on the bot's own comments only), edited in place; posted anew when it
//   was deleted. An edit is idempotent, and a post whose id was lost to a crash is found again by
//   its marker before anything is posted: never a second summary.
// - new: a comment of its own, carrying the event's delivery marker; a delivery cut off by a crash
//   looks for that marker before posting again, as the gh delivery does.
// A try that failed may have posted all the same (a timeout, a connection cut after the request
// went out): every retry of a post looks for the marker first.
import { buildCommentBody, deliveryMarker, DEFAULT_ATTEMPTS, DEFAULT_BACKOFF_MS, type DeliverOptions } from '../delivery/forge-comment.js';
import type { CallOptions, ForgeFailure, ForgeResult, PostedComment, PrForgeClient, PrRef } from '../delivery/pr-forge.js';
import { retryWithBackoff } from '../delivery/retry.js';
import type { PrThreads } from '../store/pr-thread-types.js';
import type { WebhookEventRecord } from '../store/webhook-types.js';
import { prEventOf, prKey, summaryMarker, type Forge } from '../webhook/pr-event.js';
import { replyCarrying, type PrReviewPoster } from '../delivery/pr-review-poster.js';
import type { PrFindings } from '../store/pr-finding-types.js';
import { parseReviewPlan, type ReviewPlan } from '../review/review-plan.js';
import { deliverReviewFindings } from './deliver-review.js';

export type PrCommentTarget = {
  readonly forge: Forge;
  readonly pr: PrRef;
  readonly update: boolean;
};

export type PrCommentDeps = {
  readonly client: PrForgeClient;
  readonly threads: PrThreads;
  /** The bot's login: only its comments are taken for Iris's own when a marker is looked for. */
  readonly botLogin: string | undefined;
  readonly retry?: DeliverOptions;
  /** Told the pid of each process that writes a comment (gh), so a later start can stop an orphan. */
  readonly onSpawn?: (pid: number) => void;
  /** A review's findings are posted through these (absent: the summary alone). */
  readonly review?: { readonly poster: PrReviewPoster; readonly findings: PrFindings };
};

export type PrCommentOutcome =
  | { readonly ok: true; readonly comment: PostedComment; readonly attempts: number; readonly edited: boolean; readonly foundPosted: boolean }
  | (ForgeFailure & { readonly attempts: number });

/** A retry loop with the delivery's backoff that counts every try into `count`. */
function retrier(deps: PrCommentDeps, signal: AbortSignal, count: (tries: number) => void) {
  return async <T>(call: () => Promise<ForgeResult<T>>): Promise<ForgeResult<T>> => {
    const retry = deps.retry ?? {};
    const { final, outcomes } = await retryWithBackoff(call, (result) => !result.ok && result.retryable, {
      attempts: retry.attempts ?? DEFAULT_ATTEMPTS,
      backoffMs: retry.backoffMs ?? DEFAULT_BACKOFF_MS,
      ...(retry.sleep ? { sleep: retry.sleep } : {}),
      signal,
    });
    count(outcomes.length);
    return final;
  };
}

/**
 * A review (its plan kept by the run) posts its findings after the summary. With `mode: new` on
 * GitHub, the review's body is the summary: one review, no comment beside it. Anything else is
 * one comment, as before.
 */
export async function deliverPrComment(deps: PrCommentDeps, record: WebhookEventRecord, target: PrCommentTarget, onDelivering: () => Promise<void>, signal: AbortSignal): Promise<PrCommentOutcome> {
  const review = deps.review;
  if (review && record.deliverAs === 'reply') {
    const thread = await findingThreadOf(review.findings, record, target);
    if (thread !== undefined) {
      // An answer to a question in a finding's thread goes into that thread.
      let attempts = 0;
      const retried = retrier(deps, signal, (tries) => (attempts += tries));
      const marker = deliveryMarker(record.id);
      const body = buildCommentBody(record.output ?? '', marker);
      // After a crash (the event was being delivered) or a failed try, the answer is looked for in the thread first.
      let lookFirst = record.state === 'delivering';
      await onDelivering();
      let found = false;
      const posted = await retried(async (): Promise<ForgeResult<PostedComment>> => {
        if (lookFirst) {
          const now = await review.poster.threadNow(target.pr, thread, { signal });
          if (!now.ok) return now;
          const reply = now.value === null ? undefined : replyCarrying(now.value, marker, deps.botLogin);
          if (reply !== undefined) {
            found = true;
            return { ok: true, value: { id: reply.id } };
          }
        }
        const fresh = await review.poster.replyInThread(target.pr, thread, body, { signal, ...(deps.onSpawn ? { onSpawn: deps.onSpawn } : {}) });
        lookFirst = !fresh.ok;
        return fresh;
      });
      return posted.ok ? { ok: true, comment: posted.value, attempts, edited: false, foundPosted: found } : { ...posted, attempts };
    }
  }
  const stored = review && record.deliverAs === 'summary' ? await review.findings.plan(record.id) : undefined;
  const plan: ReviewPlan | undefined = stored === undefined ? undefined : parseReviewPlan(stored.plan);
  if (review === undefined || plan === undefined) return deliverComment(deps, record, target, onDelivering, signal);
  const summaryInReview = !target.update && plan.inline.length > 0 && review.poster.postsOneReview;
  let summary: PrCommentOutcome | undefined;
  if (summaryInReview) await onDelivering();
  else {
    summary = await deliverComment(deps, record, target, onDelivering, signal);
    if (!summary.ok) return summary;
  }
  let attempts = summary?.attempts ?? 0;
  const retried = retrier(deps, signal, (tries) => (attempts += tries));
  const count = plan.inline.length;
  const body = summaryInReview ? (record.output ?? '') : `Iris left ${count} ${count === 1 ? 'finding' : 'findings'} on the lines below; the summary comment has the overview.`;
  const posted = await deliverReviewFindings(
    { poster: review.poster, findings: review.findings, botLogin: deps.botLogin, retried },
    record,
    { pr: target.pr, prKey: prKey({ forge: target.forge, ...target.pr }) },
    plan,
    body,
    { signal, ...(deps.onSpawn ? { onSpawn: deps.onSpawn } : {}) },
  );
  if (!posted.ok) return { ...posted, attempts };
  return summary ? { ...summary, attempts } : { ok: true, comment: { id: `review:${record.id}` }, attempts, edited: false, foundPosted: false };
}

/** The finding thread the event's comment replied in, when it is one of Iris's findings. */
async function findingThreadOf(findings: PrFindings, record: WebhookEventRecord, target: PrCommentTarget): Promise<{ threadId: string | null; commentId: string | null } | undefined> {
  let payload: unknown;
  try {
    payload = JSON.parse(record.payload);
  } catch {
    return undefined;
  }
  const pr = typeof payload === 'object' && payload !== null ? prEventOf(record.event, payload as Record<string, unknown>) : undefined;
  if (pr?.kind !== 'comment' || pr.comment.threadOf === undefined) return undefined;
  const finding = await findings.byHostId(record.route, prKey({ forge: target.forge, ...target.pr }), pr.comment.threadOf);
  return finding && { threadId: finding.threadId, commentId: finding.commentId };
}

async function deliverComment(deps: PrCommentDeps, record: WebhookEventRecord, target: PrCommentTarget, onDelivering: () => Promise<void>, signal: AbortSignal): Promise<PrCommentOutcome> {
  let attempts = 0;
  const retried = retrier(deps, signal, (tries) => (attempts += tries));
  const failed = (failure: ForgeFailure): PrCommentOutcome => ({ ...failure, attempts });
  const succeeded = (comment: PostedComment, how: { edited?: boolean; foundPosted?: boolean } = {}): PrCommentOutcome => ({
    ok: true,
    comment,
    attempts,
    edited: how.edited ?? false,
    foundPosted: how.foundPosted ?? false,
  });
  const { client, threads } = deps;
  const { pr } = target;
  const writing = { signal, ...(deps.onSpawn ? { onSpawn: deps.onSpawn } : {}) };
  const find = (marker: string) => client.findComment(pr, marker, { signal, ...(deps.botLogin === undefined ? {} : { by: deps.botLogin }) });
  const output = record.output ?? '';

  if (target.update && record.deliverAs !== 'reply' && record.deliverAs !== 'refusal') {
    const key = prKey({ forge: target.forge, ...pr });
    const marker = summaryMarker(record.route, pr);
    const body = buildCommentBody(output, marker);
    const edit = async (id: string): Promise<ForgeResult<PostedComment>> => retried(() => client.updateComment(pr, id, body, writing));
    const stored = (await threads.get(record.route, key))?.summaryCommentId ?? null;
    await onDelivering();
    if (stored !== null) {
      const edited = await edit(stored);
      if (edited.ok) return succeeded(edited.value, { edited: true });
      if (edited.code !== 'not_found') return failed(edited);
      // Deleted by someone: looked for by its marker below (a repost cut off by a crash may be there).
    }
    const found = await retried(() => find(marker));
    if (!found.ok) return failed(found);
    if (found.value && found.value.id !== stored) {
      const edited = await edit(found.value.id);
      if (edited.ok) {
        await threads.update(record.route, key, { summaryCommentId: edited.value.id });
        return succeeded(edited.value, { edited: true });
      }
      if (edited.code !== 'not_found') return failed(edited);
    }
    const posted = await retried(postMarked(client, pr, body, () => find(marker), writing));
    if (!posted.ok) return failed(posted);
    await threads.update(record.route, key, { summaryCommentId: posted.value.id });
    return succeeded(posted.value);
  }

  const marker = deliveryMarker(record.id);
  const body = buildCommentBody(output, marker);
  if (record.state === 'delivering') {
    // A delivery cut off by a crash may have posted: the marker on the PR says.
    const before = await retried(() => find(marker));
    if (!before.ok) return failed(before);
    if (before.value) return succeeded(before.value, { foundPosted: true });
  }
  await onDelivering();
  const posted = await retried(postMarked(client, pr, body, () => find(marker), writing));
  return posted.ok ? succeeded(posted.value) : failed(posted);
}

/**
 * One post per call, for a retry loop: a try that failed may have posted all the same, so each try
 * after a failure looks for the comment's marker first and takes the comment it finds; when the
 * look itself fails, that failure is this try's (nothing is posted blind).
 */
function postMarked(client: PrForgeClient, pr: PrRef, body: string, find: () => Promise<ForgeResult<PostedComment | null>>, writing: CallOptions): () => Promise<ForgeResult<PostedComment>> {
  let lookFirst = false;
  return async () => {
    if (lookFirst) {
      const again = await find();
      if (!again.ok) return again;
      if (again.value) return { ok: true, value: again.value };
    }
    const result = await client.postComment(pr, body, writing);
    lookFirst = !result.ok;
    return result;
  };
}
