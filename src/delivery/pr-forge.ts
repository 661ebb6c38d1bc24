// What pull-request reviews need of a code host, whichever it is: GitHub through the `gh` CLI
// (github-pr-client.ts), GitLab through its REST API (gitlab-pr-client.ts). Each method makes one
// try; the caller retries what is marked retryable. Failures are values, never thrown, and their
// messages never carry a token.

export type ForgeFailureCode =
  /** The tool (gh) is not installed or cannot be started. */
  | 'missing_tool'
  /** No credentials, or the host refused them (401/403 on sign-in). */
  | 'unauthenticated'
  /** The repository, PR, comment or commit does not exist (404). */
  | 'not_found'
  | 'timeout'
  | 'cancelled'
  | 'failed';

export type ForgeFailure = {
  readonly ok: false;
  readonly code: ForgeFailureCode;
  readonly retryable: boolean;
  readonly message: string;
};

export type ForgeResult<T> = { readonly ok: true; readonly value: T } | ForgeFailure;

/** A pull request (GitHub) or merge request (GitLab): `repo` is owner/name or GitLab's path_with_namespace. */
export type PrRef = { readonly repo: string; readonly number: number };

export type PostedComment = {
  /** The host's id of the comment (GitHub issue comment id, GitLab note id), as a decimal string. */
  readonly id: string;
  readonly url?: string;
};

/**
 * How `head` relates to `base`: `ahead` (base is an ancestor of head: review base..head),
 * `identical`, `behind` or `diverged` (a force-push rewrote the branch), `lost` (the host no longer
 * knows base).
 */
export type CommitRelation = 'ahead' | 'identical' | 'behind' | 'diverged' | 'lost';

export type CallOptions = {
  readonly signal?: AbortSignal;
  /**
   * Told the pid of a helper process the call starts (gh), which may outlive a killed gateway: the
   * caller records it so the next start can stop it before checking what was posted.
   */
  readonly onSpawn?: (pid: number) => void;
};

export type FindOptions = CallOptions & { readonly by?: string };

/** Login names compare without case on both hosts. */
export const sameLogin = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

export interface PrForgeClient {
  /** The login the bot posts as; its own comments are never obeyed. */
  whoAmI(options?: CallOptions): Promise<ForgeResult<string>>;
  /** Posts a new comment; the body is sent as it is (the caller adds markers and cuts it). */
  postComment(pr: PrRef, body: string, options?: CallOptions): Promise<ForgeResult<PostedComment>>;
  /** Replaces a comment's body; `not_found` when the comment was deleted. */
  updateComment(pr: PrRef, commentId: string, body: string, options?: CallOptions): Promise<ForgeResult<PostedComment>>;
  /**
   * The oldest comment on the PR whose body contains `marker` (every page is read), or null. With
   * `by`, only that author's comments count: anyone can write a marker into a comment of theirs.
   */
  findComment(pr: PrRef, marker: string, options?: FindOptions): Promise<ForgeResult<PostedComment | null>>;
  compare(pr: PrRef, base: string, head: string, options?: CallOptions): Promise<ForgeResult<{ readonly relation: CommitRelation; readonly commits: number }>>;
}

/** GitLab access levels (Developer and above may command the bot). */
export const GITLAB_DEVELOPER_ACCESS = 30;
