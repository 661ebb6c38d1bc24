// What the gateway remembers of each pull request a PR-review route works on: the session that
// continues across its events, the head it last reviewed (for the next incremental review), its
// living summary comment, and what the PR's comments have switched (/pause, a refusal sent).

export type PrThread = {
  readonly route: string;
  /** `github:owner/name#12` (webhook/pr-event.ts prKey). */
  readonly prKey: string;
  readonly sessionId: string | null;
  readonly reviewedSha: string | null;
  readonly summaryCommentId: string | null;
  /** Automatic reviews are off (/pause) until /resume. */
  readonly paused: boolean;
  /** The polite refusal to an untrusted commenter was posted (at most once per PR). */
  readonly refusalSent: boolean;
  readonly updatedAt: number;
};

export type PrThreadPatch = Partial<Pick<PrThread, 'sessionId' | 'reviewedSha' | 'summaryCommentId' | 'paused' | 'refusalSent'>>;

export interface PrThreads {
  get(route: string, prKey: string): Promise<PrThread | undefined>;
  /** Creates the row when missing; only the fields given change. Returns the row as stored. */
  update(route: string, prKey: string, patch: PrThreadPatch): Promise<PrThread>;
  /**
   * Forgets PRs untouched since `before` (epoch ms), except paused ones (a /pause is kept until
   * /resume); returns how many. A PR heard from again starts a new session with a full review, and
   * its summary comment is found again by its marker.
   */
  prune(before: number): Promise<number>;
}
