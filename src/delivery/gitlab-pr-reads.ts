// PrDiffReader for GitLab, over its REST API v4 through gitlab-request.ts (one try per call, no
// redirects, a deadline that covers reading the body, bodies read up to a cap, failure messages
// redacted with the token cut out).
//   GET /projects/:id/merge_requests/:iid                          diff_refs, target_branch, draft, author
//   GET /projects/:id/merge_requests/:iid/diffs?per_page=100&page=  the files (X-Next-Page)
//   GET /projects/:id/repository/files/:path/raw?ref=              a file's text; 404 when absent
// GitLab sends an empty `diff` for a file over its diff limits (`too_large`) and for binaries.
import * as z from 'zod/mini';
import { repoPathProblem, type PrDiff, type PrDiffReader, type ReviewFile } from '../review/diff-reader.js';
import { createGitlabRequest, forgeFailure as failure, type GitlabAnswer } from './gitlab-request.js';
import type { CallOptions, ForgeResult, PrRef } from './pr-forge.js';

export type GitlabPrReadsOptions = {
  readonly apiBase: string;
  readonly token: string;
  readonly fetch?: typeof fetch;
  readonly timeoutMs?: number;
};

/** One page of 100 files' diffs can be large; a whole MR is read page by page. */
const MAX_PAGE_BYTES = 16 * 1024 * 1024;
/** 50 pages of 100: beyond GitLab's own limit of files in a merge request diff. */
const MAX_DIFF_PAGES = 50;

const mergeRequestSchema = z.looseObject({
  title: z.string(),
  draft: z.optional(z.boolean()),
  work_in_progress: z.optional(z.boolean()),
  target_branch: z.string(),
  author: z.looseObject({ username: z.string(), bot: z.optional(z.boolean()) }),
  // null while GitLab is still preparing the diff of a new merge request.
  diff_refs: z.nullable(z.looseObject({ base_sha: z.string(), head_sha: z.string(), start_sha: z.string() })),
});

const diffSchema = z.array(
  z.looseObject({
    old_path: z.string(),
    new_path: z.string(),
    diff: z.optional(z.nullable(z.string())),
    new_file: z.boolean(),
    renamed_file: z.boolean(),
    deleted_file: z.boolean(),
  }),
);

/** The usernames GitLab gives the bot users of project and group access tokens. */
const TOKEN_BOT_USERNAME = /^(?:project|group)_\d+_bot(?:_[0-9a-f]+)?\d*$/;



export function createGitlabPrReads(options: GitlabPrReadsOptions): PrDiffReader {
  const { request } = createGitlabRequest(options);
  const get = (what: string, path: string, query: ReadonlyArray<readonly [string, string]>, call: CallOptions | undefined): Promise<ForgeResult<GitlabAnswer>> =>
    request(what, { method: 'GET', path, query, maxBytes: MAX_PAGE_BYTES }, call);

  const mergeRequest = (pr: PrRef) => `/projects/${encodeURIComponent(pr.repo)}/merge_requests/${pr.number}`;

  async function diffFiles(pr: PrRef, call: CallOptions | undefined): Promise<ForgeResult<ReviewFile[]>> {
    const files: ReviewFile[] = [];
    let page = '1';
    for (let read = 0; read < MAX_DIFF_PAGES; read += 1) {
      const answer = await get('prFiles', `${mergeRequest(pr)}/diffs`, [['per_page', '100'], ['page', page]], call);
      if (!answer.ok) return answer;
      const parsed = diffSchema.safeParse(answer.value.json);
      if (!parsed.success) return failure('failed', false, `GitLab prFiles: unexpected response (HTTP ${answer.value.status})`);
      for (const file of parsed.data) files.push(reviewFile(file));
      page = answer.value.headers.get('x-next-page')?.trim() ?? '';
      if (page === '') return { ok: true, value: files };
    }
    return failure('failed', false, `GitLab prFiles: more than ${MAX_DIFF_PAGES} pages of diffs on ${pr.repo}!${pr.number}`);
  }

  return {
    async prFiles(pr, call) {
      const answer = await get('prFiles', mergeRequest(pr), [], call);
      if (!answer.ok) return answer;
      const parsed = mergeRequestSchema.safeParse(answer.value.json);
      if (!parsed.success) return failure('failed', false, `GitLab prFiles: unexpected response (HTTP ${answer.value.status})`);
      const mr = parsed.data;
      if (mr.diff_refs === null) return failure('failed', true, `GitLab prFiles: ${pr.repo}!${pr.number} has no diff yet (GitLab is still preparing it)`);
      const files = await diffFiles(pr, call);
      if (!files.ok) return files;
      const diff: PrDiff = {
        files: files.value,
        baseSha: mr.diff_refs.base_sha,
        headSha: mr.diff_refs.head_sha,
        startSha: mr.diff_refs.start_sha,
        baseRef: mr.target_branch,
        facts: {
          draft: mr.draft ?? mr.work_in_progress ?? false,
          authorIsBot: mr.author.bot === true || TOKEN_BOT_USERNAME.test(mr.author.username),
          title: mr.title,
        },
      };
      return { ok: true, value: diff };
    },

    async readFile(pr, path, ref, call) {
      const problem = repoPathProblem(path) ?? (ref.trim() === '' ? 'a ref is needed to read a file' : undefined);
      const bad = problem === undefined ? undefined : failure('failed', false, problem);
      if (bad) return bad;
      const filePath = `/projects/${encodeURIComponent(pr.repo)}/repository/files/${encodeURIComponent(path)}/raw`;
      const answer = await get('readFile', filePath, [['ref', ref]], call);
      if (!answer.ok) return answer.code === 'not_found' ? { ok: true, value: null } : answer;
      return { ok: true, value: answer.value.text };
    },
  };
}

function reviewFile(file: z.output<typeof diffSchema>[number]): ReviewFile {
  // GitLab's hunks start at `@@`; a binary's "Binary files … differ" is no patch to read.
  const patch = file.diff && file.diff.includes('@@') ? file.diff : '';
  if (file.deleted_file) return { path: file.old_path, status: 'removed', patch };
  if (file.new_file) return { path: file.new_path, status: 'added', patch };
  if (file.renamed_file) return { path: file.new_path, previousPath: file.old_path, status: 'renamed', patch };
  return { path: file.new_path, status: 'modified', patch };
}
