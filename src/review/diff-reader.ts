// What a review reads of a code host before the model runs: the PR's changed files with their
// patches, the commits it is between, and files of the base branch (the rules, AGENTS.md).
// Implemented for GitHub (src/delivery/github-pr-reads.ts, through `gh api`) and GitLab
// (src/delivery/gitlab-pr-reads.ts, its REST API). Failures are values, as in pr-forge.ts.
import type { CallOptions, ForgeResult, PrRef } from '../delivery/pr-forge.js';
import type { PrFacts } from './skip.js';

export type ReviewFileStatus = 'added' | 'modified' | 'removed' | 'renamed';

export type ReviewFile = {
  /** The path on the new side (a removed file: its old path). */
  readonly path: string;
  /** A renamed file's old path. */
  readonly previousPath?: string;
  readonly status: ReviewFileStatus;
  /** The unified hunks (`@@ … @@` and their lines, no `diff --git` header); '' for binary or too large. */
  readonly patch: string;
};

export type PrDiff = {
  readonly files: readonly ReviewFile[];
  /** GitLab's diff_refs.base_sha; GitHub's base.sha. */
  readonly baseSha: string;
  readonly headSha: string;
  /** GitLab's diff_refs.start_sha (the target branch's tip the diff was made against); GitHub: the base sha. */
  readonly startSha: string;
  /** The branch the PR merges into (`main`): where the review rules are read. */
  readonly baseRef: string;
  /** What the host says of the PR itself, for the skip rules. */
  readonly facts: PrFacts;
};

export interface PrDiffReader {
  /** Every changed file (all pages), with the PR's shas and base branch. */
  prFiles(pr: PrRef, options?: CallOptions): Promise<ForgeResult<PrDiff>>;
  /** The text of `path` at `ref` (a branch or a sha), or null when there is no such file there. */
  readFile(pr: PrRef, path: string, ref: string, options?: CallOptions): Promise<ForgeResult<string | null>>;
}

/** Lines added and removed in a patch; anything before its first hunk (a `---`/`+++` header) is not counted. */
export function patchCounts(patch: string): { readonly added: number; readonly removed: number } {
  let added = 0;
  let removed = 0;
  let inHunk = false;
  for (const line of patch.split('\n')) {
    if (line.startsWith('@@')) inHunk = true;
    else if (!inHunk) continue;
    else if (line.startsWith('+')) added += 1;
    else if (line.startsWith('-')) removed += 1;
  }
  return { added, removed };
}

/** Why `path` is no file path in a repository (empty, `.` or `..` segments), so no endpoint is walked out of. */
export function repoPathProblem(path: string): string | undefined {
  const segments = path.split('/');
  if (path === '' || segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return `not a file path in a repository: ${JSON.stringify(path)}`;
  return undefined;
}

/**
 * A path as written into the prompt outside the diff's fence: git allows any byte but NUL in a
 * file name, newlines included, so a name with a control character is shown JSON-quoted and can
 * never start a line of its own.
 */
export function printablePath(path: string): string {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f\u2028\u2029]/.test(path) ? JSON.stringify(path) : path;
}
