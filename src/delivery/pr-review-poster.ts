// What posting a review's findings needs of a code host (github-pr-review.ts through `gh api`,
// gitlab-pr-review.ts through its REST API): the findings on their lines, found again by their
// markers after a crash, an outdated finding's thread resolved with a reply, and a reply in a
// finding's thread. One try per call; failures are values (pr-forge.ts).
import type { CallOptions, FindOptions, ForgeResult, PostedComment, PrRef } from './pr-forge.js';

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
  /** Replies `reply` in the finding's thread and resolves it. */
  resolveOutdated(pr: PrRef, thread: FindingThread, reply: string, options?: CallOptions): Promise<ForgeResult<void>>;
  /** Posts `body` as a reply in the finding's thread. */
  replyInThread(pr: PrRef, thread: FindingThread, body: string, options?: CallOptions): Promise<ForgeResult<PostedComment>>;
}
