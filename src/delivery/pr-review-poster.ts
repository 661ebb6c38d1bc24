// What posting a review's findings needs of a code host (github-pr-review.ts through `gh api`,
// gitlab-pr-review.ts through its REST API): the findings on their lines, found again by their
// markers after a crash, an outdated finding's thread resolved with a reply, and a reply in a
// finding's thread. One try per call; failures are values (pr-forge.ts).
import { sameLogin, type CallOptions, type FindOptions, type ForgeResult, type PostedComment, type PrRef } from './pr-forge.js';

/** One finding's inline comment, with all the position either host needs. */
export type ReviewComment = {
  readonly fingerprint: string;
  readonly path: string;
  /** A renamed file's old path (GitLab's old_path); else the path. */
  readonly oldPath: string;
  /** The new-side line. */
  readonly line: number;
  /** The first line of a range (GitHub's start_line). */
  readonly startLine?: number;
  /** A context line's old-side number (GitLab needs old_line and new_line for it). */
  readonly oldLine?: number;
  readonly body: string;
};

export type ReviewShas = { readonly base: string; readonly head: string; readonly start: string };

export type PostedFinding = { readonly fingerprint: string; readonly commentId: string; readonly threadId: string | null };

/** A finding's thread on the host: GitHub's review thread (and its first comment), GitLab's discussion. */
export type FindingThread = { readonly threadId: string | null; readonly commentId: string | null };

/** A reply in a finding's thread; `author` is the host's login (null when the account is gone). */
export type ThreadReplyNow = { readonly id: string; readonly body: string; readonly author: string | null };

/** `resolved` is false where the host cannot say (a GitHub thread whose node id was never read). */
export type ThreadNow = { readonly resolved: boolean; readonly replies: readonly ThreadReplyNow[] };

export interface PrReviewPoster {
  /** GitHub posts every finding in one review (found whole, or not at all); GitLab one discussion each. */
  readonly postsOneReview: boolean;
  /**
   * Posts the findings: GitHub, one review (event COMMENT) whose body is `body`; GitLab, a
   * discussion per finding (`body` is not posted: the summary note carries the overview).
   * Returns each finding's comment and thread ids, by fingerprint.
   */
  postFindings(pr: PrRef, review: { readonly body: string; readonly shas: ReviewShas; readonly comments: readonly ReviewComment[] }, options?: CallOptions): Promise<ForgeResult<PostedFinding[]>>;
  /**
   * What a post cut off by a crash left on the PR: GitHub, the review whose body carries
   * `deliveryMarker` (null when there is none); GitLab, the unresolved discussions carrying the
   * comments' finding markers (those found, possibly none). Only `by`'s comments count.
   */
  findPosted(pr: PrRef, deliveryMarker: string, comments: readonly ReviewComment[], options?: FindOptions): Promise<ForgeResult<PostedFinding[] | null>>;
  /** Replies `reply` in the finding's thread (none when null: it is there already) and resolves it. */
  resolveOutdated(pr: PrRef, thread: FindingThread, reply: string | null, options?: CallOptions): Promise<ForgeResult<void>>;
  /**
   * The thread as the host has it now: whether it is resolved and the replies in it (the latest
   * 100), so nothing is posted twice after a crash and a thread a person resolved is left alone.
   * Null when the thread is gone (deleted).
   */
  threadNow(pr: PrRef, thread: FindingThread, options?: CallOptions): Promise<ForgeResult<ThreadNow | null>>;
  /** Posts `body` as a reply in the finding's thread. */
  replyInThread(pr: PrRef, thread: FindingThread, body: string, options?: CallOptions): Promise<ForgeResult<PostedComment>>;
}

/** The reply in the thread that carries `marker`, written by `by` (any author when the bot's login is unknown). */
export function replyCarrying(now: ThreadNow, marker: string, by: string | undefined): ThreadReplyNow | undefined {
  return now.replies.find((reply) => reply.body.includes(marker) && (by === undefined || (reply.author !== null && sameLogin(reply.author, by))));
}
