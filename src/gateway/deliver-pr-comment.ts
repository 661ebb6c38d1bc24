// Delivering an answer as a PR comment through a code-host client (pr-forge.ts): GitHub through
// `gh api`, GitLab through its REST API. Two shapes:
// - update: the route's one living summary comment on the PR, found by the id kept in the store or
//   by its hidden marker, edited in place; posted anew when it was deleted. An edit is idempotent,
//   and a post whose id was lost to a crash is found again by its marker: never a second summary.
// - new: a comment of its own, carrying the event's delivery marker; a delivery cut off by a crash
//   looks for that marker before posting again, as the gh delivery does.
import { buildCommentBody, deliveryMarker, DEFAULT_ATTEMPTS, DEFAULT_BACKOFF_MS, type DeliverOptions } from '../delivery/forge-comment.js';
import type { ForgeFailure, ForgeResult, PostedComment, PrForgeClient, PrRef } from '../delivery/pr-forge.js';
import { retryWithBackoff } from '../delivery/retry.js';
import type { PrThreads } from '../store/pr-thread-types.js';
import type { WebhookEventRecord } from '../store/webhook-types.js';
import { prKey, summaryMarker, type Forge } from '../webhook/pr-event.js';

export type PrCommentTarget = {
  readonly forge: Forge;
  readonly pr: PrRef;
  readonly update: boolean;
  readonly headSha?: string;
};

export type PrCommentDeps = {
  readonly client: PrForgeClient;
  readonly threads: PrThreads;
  readonly retry?: DeliverOptions;
};

export type PrCommentOutcome =
  | { readonly ok: true; readonly comment: PostedComment; readonly attempts: number; readonly edited: boolean; readonly foundPosted: boolean }
  | (ForgeFailure & { readonly attempts: number });

export async function deliverPrComment(deps: PrCommentDeps, record: WebhookEventRecord, target: PrCommentTarget, onDelivering: () => Promise<void>, signal: AbortSignal): Promise<PrCommentOutcome> {
  let attempts = 0;
  const retried = async <T>(call: () => Promise<ForgeResult<T>>): Promise<ForgeResult<T>> => {
    const retry = deps.retry ?? {};
    const { final, outcomes } = await retryWithBackoff(call, (result) => !result.ok && result.retryable, {
      attempts: retry.attempts ?? DEFAULT_ATTEMPTS,
      backoffMs: retry.backoffMs ?? DEFAULT_BACKOFF_MS,
      ...(retry.sleep ? { sleep: retry.sleep } : {}),
      signal,
    });
    attempts += outcomes.length;
    return final;
  };
  const failed = (failure: ForgeFailure): PrCommentOutcome => ({ ...failure, attempts });
  const { client, threads } = deps;
  const { pr } = target;
  const key = prKey({ forge: target.forge, ...pr });
  const summary = target.update && record.deliverAs !== 'reply';
  const reviewed = record.deliverAs === 'summary' && target.headSha !== undefined ? { reviewedSha: target.headSha } : {};
  const output = record.output ?? '';

  if (summary) {
    const marker = summaryMarker(record.route, pr);
    const body = buildCommentBody(output, marker);
    let id = (await threads.get(record.route, key))?.summaryCommentId ?? null;
    if (id === null) {
      const found = await retried(() => client.findComment(pr, marker, { signal }));
      if (!found.ok) return failed(found);
      id = found.value?.id ?? null;
    }
    await onDelivering();
    if (id !== null) {
      const edited = await retried(() => client.updateComment(pr, id, body, { signal }));
      if (edited.ok) {
        await threads.update(record.route, key, { summaryCommentId: edited.value.id, ...reviewed });
        return { ok: true, comment: edited.value, attempts, edited: true, foundPosted: false };
      }
      if (edited.code !== 'not_found') return failed(edited);
      // Deleted by someone: the summary is posted anew below.
    }
    const posted = await retried(postMarked(client, pr, marker, body, signal));
    if (!posted.ok) return failed(posted);
    await threads.update(record.route, key, { summaryCommentId: posted.value.id, ...reviewed });
    return { ok: true, comment: posted.value, attempts, edited: false, foundPosted: false };
  }

  const marker = deliveryMarker(record.id);
  const body = buildCommentBody(output, marker);
  const done = async (comment: PostedComment, foundPosted: boolean): Promise<PrCommentOutcome> => {
    if (reviewed.reviewedSha !== undefined) await threads.update(record.route, key, reviewed);
    return { ok: true, comment, attempts, edited: false, foundPosted };
  };
  if (record.state === 'delivering') {
    // A delivery cut off by a crash may have posted: the marker on the PR says.
    const before = await retried(() => client.findComment(pr, marker, { signal }));
    if (!before.ok) return failed(before);
    if (before.value) return done(before.value, true);
  }
  await onDelivering();
  const posted = await retried(postMarked(client, pr, marker, body, signal));
  if (!posted.ok) return failed(posted);
  return done(posted.value, false);
}

/**
 * One post per call, for a retry loop: a try that timed out may have posted all the same, so the
 * try after it looks for the comment's marker first and takes the comment it finds.
 */
function postMarked(client: PrForgeClient, pr: PrRef, marker: string, body: string, signal: AbortSignal): () => Promise<ForgeResult<PostedComment>> {
  let lookFirst = false;
  return async () => {
    if (lookFirst) {
      const again = await client.findComment(pr, marker, { signal });
      if (again.ok && again.value) return { ok: true, value: again.value };
    }
    const result = await client.postComment(pr, body, { signal });
    lookFirst = !result.ok && result.code === 'timeout';
    return result;
  };
}
