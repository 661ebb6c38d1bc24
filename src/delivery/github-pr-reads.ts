// PrDiffReader for GitHub, through `gh api` (REST) with the plumbing of github-pr-client.ts: no
// shell, a timeout, gh's failures read by classifyGhRun. Three reads:
//   gh api repos/{o}/{r}/pulls/{n}                                   shas, base branch, draft, author
//   gh api --paginate repos/{o}/{r}/pulls/{n}/files?per_page=100 --jq '.[] | {…}'   one file a line
//   gh api repos/{o}/{r}/contents/{path}?ref={ref}                   a file, base64 in JSON
// GitHub leaves `patch` out for binary files and for diffs too large to show: those become ''.
import { Buffer } from 'node:buffer';
import * as z from 'zod/mini';
import type { Env } from '../config/home.js';
import { repoPathProblem, type PrDiff, type PrDiffReader, type ReviewFile, type ReviewFileStatus } from '../review/diff-reader.js';
import { FORGE_COMMENT_TIMEOUT_MS, MAX_PR_NUMBER, classifyGhRun, isForgeRepo } from './forge-comment.js';
import { buildGhEnv, ghBinary, runGh } from './gh-binary.js';
import { FORGE_FAILURE_CODES } from './github-pr-client.js';
import type { CallOptions, ForgeFailure, ForgeResult, PrRef } from './pr-forge.js';

export type GithubPrReadsOptions = {
  readonly env: Env;
  /** Per gh run; default FORGE_COMMENT_TIMEOUT_MS. */
  readonly timeoutMs?: number;
};

/** A whole PR's files (GitHub lists at most 3,000) can run to megabytes; more than this is refused. */
export const READ_OUTPUT_CAP_BYTES = 32 * 1024 * 1024;

/** The jq filter that prints one compact file a line (gh filters page by page). */
export const FILES_JQ = '.[] | {filename, status, patch, previous_filename}';

const pullSchema = z.looseObject({
  title: z.string(),
  draft: z.optional(z.boolean()),
  user: z.looseObject({ login: z.string(), type: z.optional(z.string()) }),
  head: z.looseObject({ sha: z.string() }),
  base: z.looseObject({ sha: z.string(), ref: z.string() }),
});

const fileSchema = z.looseObject({
  filename: z.string(),
  status: z.string(),
  patch: z.optional(z.nullable(z.string())),
  previous_filename: z.optional(z.nullable(z.string())),
});

const contentSchema = z.looseObject({ type: z.string(), encoding: z.optional(z.string()), content: z.optional(z.string()) });

/** GitHub's statuses in the review's four: a copy is a new file, `changed` (mode only) a modification. */
const STATUSES: Readonly<Record<string, ReviewFileStatus>> = {
  added: 'added',
  copied: 'added',
  removed: 'removed',
  renamed: 'renamed',
  modified: 'modified',
  changed: 'modified',
  unchanged: 'modified',
};

export function createGithubPrReads(options: GithubPrReadsOptions): PrDiffReader {
  const timeoutMs = options.timeoutMs ?? FORGE_COMMENT_TIMEOUT_MS;

  async function ghApi(endpoint: string, args: readonly string[], repo: string, call: CallOptions | undefined): Promise<ForgeResult<string>> {
    const bin = ghBinary(options.env);
    const run = await runGh({
      bin,
      args: ['api', ...args],
      stdin: '',
      env: buildGhEnv(options.env),
      timeoutMs,
      outputCapBytes: READ_OUTPUT_CAP_BYTES,
      ...(call?.signal ? { signal: call.signal } : {}),
      ...(call?.onSpawn ? { onSpawn: call.onSpawn } : {}),
    });
    const result = classifyGhRun(run, { bin, repo, prNumber: 0, timeoutMs, command: `gh api ${endpoint}` });
    if (result.ok) return { ok: true, value: run.kind === 'exited' ? run.stdout : '' };
    return failure(FORGE_FAILURE_CODES[result.code], result.message, result.retryable);
  }

  return {
    async prFiles(pr, call) {
      const bad = checkPr(pr);
      if (bad) return bad;
      const pullEndpoint = `repos/${pr.repo}/pulls/${pr.number}`;
      const pullRun = await ghApi(pullEndpoint, [pullEndpoint], pr.repo, call);
      if (!pullRun.ok) return pullRun;
      const pull = pullSchema.safeParse(parseJson(pullRun.value.trim()));
      if (!pull.success) return failure('failed', `gh api ${pullEndpoint} printed something other than a GitHub pull request`, false);
      const filesEndpoint = `${pullEndpoint}/files`;
      const filesRun = await ghApi(filesEndpoint, ['--paginate', `${filesEndpoint}?per_page=100`, '--jq', FILES_JQ], pr.repo, call);
      if (!filesRun.ok) return filesRun;
      const files: ReviewFile[] = [];
      for (const line of filesRun.value.split('\n')) {
        if (line.trim() === '') continue;
        const file = fileSchema.safeParse(parseJson(line));
        if (!file.success) return failure('failed', `gh api ${filesEndpoint} printed something other than pull request files`, false);
        files.push(reviewFile(file.data));
      }
      const { data } = pull;
      const diff: PrDiff = {
        files,
        baseSha: data.base.sha,
        headSha: data.head.sha,
        startSha: data.base.sha,
        baseRef: data.base.ref,
        facts: { draft: data.draft ?? false, authorIsBot: data.user.type === 'Bot', title: data.title },
      };
      return { ok: true, value: diff };
    },

    async readFile(pr, path, ref, call) {
      const bad = checkPr(pr) ?? checkPath(path) ?? (ref.trim() === '' ? failure('failed', 'a ref is needed to read a file', false) : undefined);
      if (bad) return bad;
      const endpoint = `repos/${pr.repo}/contents/${path.split('/').map(encodeURIComponent).join('/')}`;
      const run = await ghApi(endpoint, [`${endpoint}?ref=${encodeURIComponent(ref)}`], pr.repo, call);
      if (!run.ok) return run.code === 'not_found' ? { ok: true, value: null } : run;
      const parsed = contentSchema.safeParse(parseJson(run.value.trim()));
      // A folder answers with a list: there is no file of that name.
      if (!parsed.success || parsed.data.type !== 'file') return { ok: true, value: null };
      // Over 1 MB GitHub sends no content (`encoding: none`): far beyond a rules file.
      if (parsed.data.encoding !== 'base64' || parsed.data.content === undefined) return failure('failed', `${path} at ${ref} is too large to read through the contents API`, false);
      return { ok: true, value: Buffer.from(parsed.data.content, 'base64').toString('utf8') };
    },
  };
}

function reviewFile(file: z.output<typeof fileSchema>): ReviewFile {
  const status = STATUSES[file.status] ?? 'modified';
  const previous = status === 'renamed' && file.previous_filename ? { previousPath: file.previous_filename } : {};
  return { path: file.filename, ...previous, status, patch: file.patch ?? '' };
}

function checkPr(pr: PrRef): ForgeFailure | undefined {
  if (!isForgeRepo(pr.repo)) return failure('failed', `repo must be owner/name, got ${JSON.stringify(pr.repo)}`, false);
  if (!Number.isInteger(pr.number) || pr.number < 1 || pr.number > MAX_PR_NUMBER) return failure('failed', `pull request number must be a positive integer, got ${String(pr.number)}`, false);
  return undefined;
}

function checkPath(path: string): ForgeFailure | undefined {
  const problem = repoPathProblem(path);
  return problem === undefined ? undefined : failure('failed', problem, false);
}

function failure(code: ForgeFailure['code'], message: string, retryable: boolean): ForgeFailure {
  return { ok: false, code, retryable, message };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
