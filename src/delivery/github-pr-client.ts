// PrForgeClient for GitHub: every call is one `gh api` run (REST, so the answers are GitHub's JSON
// and a missing comment or commit is a plain 404), through runGh: no shell, a timeout, bodies on
// stdin as JSON (never in argv, which `ps` shows and which caps one argument at 128 KB). What a
// failed run means is decided by classifyGhRun, shared with the forge_comment delivery.
import * as z from 'zod/mini';
import type { Env } from '../config/home.js';
import { FORGE_COMMENT_TIMEOUT_MS, MAX_PR_NUMBER, classifyGhRun, isForgeRepo } from './forge-comment.js';
import type { ForgeCommentFailureCode } from './forge-comment.js';
import { buildGhEnv, ghBinary, runGh } from './gh-binary.js';
import { sameLogin, type CallOptions, type CommitRelation, type ForgeFailure, type ForgeFailureCode, type ForgeResult, type PostedComment, type PrForgeClient, type PrRef } from './pr-forge.js';

export type GithubPrClientOptions = {
  /** The gateway's environment: finds gh (IRIS_GH_BIN, PATH) and is the base of gh's own. */
  readonly env: Env;
  /** Per gh run; default FORGE_COMMENT_TIMEOUT_MS. */
  readonly timeoutMs?: number;
  /** Told each gh process's pid as it starts. */
  readonly onSpawn?: (pid: number) => void;
};

/** classifyGhRun's codes in the interface's terms. */
export const FORGE_FAILURE_CODES = {
  gh_missing: 'missing_tool',
  gh_unauthenticated: 'unauthenticated',
  repo_not_found: 'not_found',
  pr_not_found: 'not_found',
  not_found: 'not_found',
  timeout: 'timeout',
  cancelled: 'cancelled',
  killed: 'failed',
  failed: 'failed',
} as const satisfies Record<ForgeCommentFailureCode, ForgeFailureCode>;

/** Base and head come from webhook payloads: only a sha (full or abbreviated) goes into the path. */
const SHA = /^[0-9a-fA-F]{7,40}$/;
const COMMENT_ID = /^[1-9][0-9]{0,19}$/;

const commentSchema = z.object({ id: z.int().check(z.positive()), html_url: z.url() });
const authorSchema = z.object({ login: z.string() });
const compareSchema = z.object({
  status: z.enum(['ahead', 'identical', 'behind', 'diverged']),
  ahead_by: z.int().check(z.nonnegative()),
});

type GhApiRequest = {
  /** The REST path, as named in a timeout message. */
  readonly endpoint: string;
  /** Everything after `gh api`. */
  readonly args: readonly string[];
  readonly stdin?: string;
  readonly repo?: string;
};

type GhApiResult = { readonly ok: true; readonly value: string } | (ForgeFailure & { readonly stderr: string });

export function createGithubPrClient(options: GithubPrClientOptions): PrForgeClient {
  const timeoutMs = options.timeoutMs ?? FORGE_COMMENT_TIMEOUT_MS;

  /** One `gh api` run: its stdout, or the failure it means (with gh's stderr, for compare). */
  async function ghApi(request: GhApiRequest, call: CallOptions | undefined): Promise<GhApiResult> {
    const { args, stdin = '', repo = '', endpoint } = request;
    const bin = ghBinary(options.env);
    const run = await runGh({
      bin,
      args: ['api', ...args],
      stdin,
      env: buildGhEnv(options.env),
      timeoutMs,
      ...(call?.signal ? { signal: call.signal } : {}),
      ...(call?.onSpawn ?? options.onSpawn ? { onSpawn: call?.onSpawn ?? options.onSpawn } : {}),
    });
    const result = classifyGhRun(run, { bin, repo, prNumber: 0, timeoutMs, command: `gh api ${endpoint}` });
    if (result.ok) return { ok: true, value: run.kind === 'exited' ? run.stdout : '' };
    return { ...failure(FORGE_FAILURE_CODES[result.code], result.message, result.retryable), stderr: run.kind === 'exited' ? run.stderr : '' };
  }

  /** GitHub's comment JSON → PostedComment; a mismatch is not retried (the write may have happened). */
  function parseComment(stdout: string): ForgeResult<PostedComment> {
    const parsed = commentSchema.safeParse(parseJson(stdout.trim()));
    if (!parsed.success) return failure('failed', 'gh api printed something other than a GitHub comment', false);
    return { ok: true, value: { id: String(parsed.data.id), url: parsed.data.html_url } };
  }

  return {
    async whoAmI(call) {
      const run = await ghApi({ endpoint: 'user', args: ['user', '--jq', '.login'] }, call);
      if (!run.ok) return stripped(run);
      const login = run.value.trim();
      if (login === '' || login.includes('\n')) return failure('failed', 'gh api user printed no login', false);
      return { ok: true, value: login };
    },

    async postComment(pr, body, call) {
      const bad = checkPr(pr);
      if (bad) return bad;
      const endpoint = `repos/${pr.repo}/issues/${pr.number}/comments`;
      const run = await ghApi({ endpoint, args: ['--method', 'POST', endpoint, '--input', '-'], stdin: JSON.stringify({ body }), repo: pr.repo }, call);
      return run.ok ? parseComment(run.value) : stripped(run);
    },

    async updateComment(pr, commentId, body, call) {
      const bad = checkPr(pr) ?? (COMMENT_ID.test(commentId) ? undefined : failure('failed', `not a GitHub comment id: ${quote(commentId)}`, false));
      if (bad) return bad;
      const endpoint = `repos/${pr.repo}/issues/comments/${commentId}`;
      const run = await ghApi({ endpoint, args: ['--method', 'PATCH', endpoint, '--input', '-'], stdin: JSON.stringify({ body }), repo: pr.repo }, call);
      return run.ok ? parseComment(run.value) : stripped(run);
    },

    async findComment(pr, marker, call) {
      const bad = checkPr(pr) ?? (marker === '' ? failure('failed', 'an empty marker would match every comment', false) : undefined);
      if (bad) return bad;
      // gh's jq prints one compact {html_url, id} line per match, page by page: oldest first, and
      // the output stays small on a busy PR.
      const filter = `.[] | select(.body | contains(${JSON.stringify(marker)})) | {id, html_url, login: .user.login}`;
      const endpoint = `repos/${pr.repo}/issues/${pr.number}/comments`;
      const run = await ghApi({ endpoint, args: ['--paginate', `${endpoint}?per_page=100`, '--jq', filter], repo: pr.repo }, call);
      if (!run.ok) return stripped(run);
      const by = call?.by;
      for (const line of run.value.split('\n').filter((l) => l.trim() !== '')) {
        const author = authorSchema.safeParse(parseJson(line));
        if (by !== undefined && !(author.success && sameLogin(author.data.login, by))) continue;
        return parseComment(line);
      }
      return { ok: true, value: null };
    },

    async compare(pr, base, head, call) {
      const bad = checkPr(pr) ?? (SHA.test(base) && SHA.test(head) ? undefined : failure('failed', `base and head must be commit shas (7 to 40 hex digits), got ${quote(base)} and ${quote(head)}`, false));
      if (bad) return bad;
      const endpoint = `repos/${pr.repo}/compare/${base}...${head}`;
      const run = await ghApi({ endpoint, args: [endpoint, '--jq', '{status, ahead_by}'], repo: pr.repo }, call);
      // GitHub's answer when it no longer has one of the commits (a force-push, then GC).
      if (!run.ok && run.code === 'not_found' && /No commit found for SHA/i.test(run.stderr)) {
        return { ok: true, value: { relation: 'lost', commits: 0 } };
      }
      if (!run.ok) return stripped(run);
      const parsed = compareSchema.safeParse(parseJson(run.value.trim()));
      if (!parsed.success) return failure('failed', 'gh api printed something other than a GitHub comparison', false);
      const relation: CommitRelation = parsed.data.status;
      return { ok: true, value: { relation, commits: parsed.data.ahead_by } };
    },
  };
}

/** Refuses what could not name a pull request, before anything runs: the rules of validateForgeTarget. */
function checkPr(pr: PrRef): ForgeFailure | undefined {
  if (!isForgeRepo(pr.repo)) return failure('failed', `repo must be owner/name, got ${quote(pr.repo)}`, false);
  if (!Number.isInteger(pr.number) || pr.number < 1 || pr.number > MAX_PR_NUMBER) {
    return failure('failed', `pull request number must be a positive integer, got ${quote(String(pr.number))}`, false);
  }
  return undefined;
}

function failure(code: ForgeFailureCode, message: string, retryable: boolean): ForgeFailure {
  return { ok: false, code, retryable, message };
}

/** The failure without the stderr kept for compare's own reading. */
function stripped(run: ForgeFailure): ForgeFailure {
  return failure(run.code, run.message, run.retryable);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function quote(value: string): string {
  return JSON.stringify(value.length > 120 ? `${value.slice(0, 120)}…` : value);
}
