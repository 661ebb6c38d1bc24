// PrReviewPoster for GitHub, through `gh api` (the plumbing of github-pr-client.ts: no shell, a
// timeout, bodies on stdin as JSON, failures read by classifyGhRun):
//   POST repos/{o}/{r}/pulls/{n}/reviews                   one review, event COMMENT, its comments
//   GET  repos/{o}/{r}/pulls/{n}/reviews                   a review found by its delivery marker
//   GET  repos/{o}/{r}/pulls/{n}/reviews/{id}/comments     the review's comments (their ids)
//   POST graphql  pullRequest.reviewThreads                each comment's thread id
//   POST repos/{o}/{r}/pulls/{n}/comments/{id}/replies     a reply in a finding's thread
//   POST graphql  resolveReviewThread                      an outdated finding's thread resolved
//   POST graphql  node(id) on PullRequestReviewThread      a thread now: resolved?, its replies
//   GET  repos/{o}/{r}/pulls/{n}/comments                  a thread's replies, when its node id is unknown
import * as z from 'zod/mini';
import type { Env } from '../config/home.js';
import { findingMarkerIn } from '../review/fingerprint.js';
import { FORGE_COMMENT_TIMEOUT_MS, MAX_PR_NUMBER, classifyGhRun, isForgeRepo } from './forge-comment.js';
import { buildGhEnv, ghBinary, runGh } from './gh-binary.js';
import { FORGE_FAILURE_CODES } from './github-pr-client.js';
import { sameLogin, type CallOptions, type ForgeFailure, type ForgeFailureCode, type ForgeResult, type PrRef } from './pr-forge.js';
import type { PostedFinding, PrReviewPoster, ReviewComment } from './pr-review-poster.js';

export type GithubPrReviewOptions = { readonly env: Env; readonly timeoutMs?: number };

const ID = /^[1-9][0-9]{0,19}$/;
/** GraphQL node ids: letters, digits, `_`, `-`, `=`. */
const NODE_ID = /^[A-Za-z0-9_=-]{1,200}$/;
/** Threads are read 100 at a time; a PR with more than this many pages of threads is not mapped further. */
const MAX_THREAD_PAGES = 20;
/** A review's comments with their bodies can pass gh's default cap of 64 KB. */
const OUTPUT_CAP_BYTES = 8 * 1024 * 1024;

const reviewSchema = z.looseObject({ id: z.number() });
const foundSchema = z.looseObject({ id: z.number(), login: z.optional(z.nullable(z.string())) });
const reviewCommentSchema = z.looseObject({ id: z.number(), body: z.string() });
const threadsSchema = z.looseObject({
  data: z.looseObject({
    repository: z.looseObject({
      pullRequest: z.looseObject({
        reviewThreads: z.looseObject({
          pageInfo: z.looseObject({ hasNextPage: z.boolean(), endCursor: z.nullable(z.string()) }),
          nodes: z.array(z.looseObject({ id: z.string(), comments: z.looseObject({ nodes: z.array(z.looseObject({ databaseId: z.nullable(z.number()) })) }) })),
        }),
      }),
    }),
  }),
});
const threadNowSchema = z.looseObject({
  data: z.looseObject({
    node: z.nullable(
      z.looseObject({
        isResolved: z.boolean(),
        comments: z.looseObject({ nodes: z.array(z.looseObject({ databaseId: z.nullable(z.number()), body: z.string(), author: z.nullable(z.looseObject({ login: z.string() })) })) }),
      }),
    ),
  }),
});
const replySchema = z.looseObject({ id: z.number(), body: z.string(), login: z.optional(z.nullable(z.string())) });
const graphqlErrorsSchema = z.looseObject({ errors: z.optional(z.array(z.looseObject({ message: z.string() }))) });

const THREADS_QUERY = `query($owner: String!, $name: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes { id comments(first: 1) { nodes { databaseId } } }
      }
    }
  }
}`;

const RESOLVE_MUTATION = `mutation($threadId: ID!) {
  resolveReviewThread(input: {threadId: $threadId}) { thread { id isResolved } }
}`;

const THREAD_NOW_QUERY = `query($id: ID!) {
  node(id: $id) {
    ... on PullRequestReviewThread { isResolved comments(last: 100) { nodes { databaseId body author { login } } } }
  }
}`;

const failure = (code: ForgeFailureCode, message: string, retryable: boolean): ForgeFailure => ({ ok: false, code, retryable, message });

export function createGithubPrReview(options: GithubPrReviewOptions): PrReviewPoster {
  const timeoutMs = options.timeoutMs ?? FORGE_COMMENT_TIMEOUT_MS;

  async function ghApi(endpoint: string, args: readonly string[], repo: string, call: CallOptions | undefined, stdin = ''): Promise<ForgeResult<string>> {
    const bin = ghBinary(options.env);
    const run = await runGh({
      bin,
      args: ['api', ...args],
      stdin,
      env: buildGhEnv(options.env),
      timeoutMs,
      outputCapBytes: OUTPUT_CAP_BYTES,
      ...(call?.signal ? { signal: call.signal } : {}),
      ...(call?.onSpawn ? { onSpawn: call.onSpawn } : {}),
    });
    const result = classifyGhRun(run, { bin, repo, prNumber: 0, timeoutMs, command: `gh api ${endpoint}` });
    if (result.ok) return { ok: true, value: run.kind === 'exited' ? run.stdout : '' };
    return failure(FORGE_FAILURE_CODES[result.code], result.message, result.retryable);
  }

  const post = (endpoint: string, body: unknown, repo: string, call: CallOptions | undefined) => ghApi(endpoint, ['--method', 'POST', endpoint, '--input', '-'], repo, call, JSON.stringify(body));

  async function graphql(query: string, variables: Record<string, unknown>, repo: string, call: CallOptions | undefined): Promise<ForgeResult<unknown>> {
    const run = await post('graphql', { query, variables }, repo, call);
    if (!run.ok) return run;
    const json = parseJson(run.value);
    const errors = graphqlErrorsSchema.safeParse(json);
    if (errors.success && errors.data.errors && errors.data.errors.length > 0) return failure('failed', `GitHub GraphQL: ${errors.data.errors.map((e) => e.message).join('; ').slice(0, 300)}`, false);
    return { ok: true, value: json };
  }

  /** Each review comment id of the PR → its thread's node id. */
  async function threadIds(pr: PrRef, call: CallOptions | undefined): Promise<ForgeResult<Map<string, string>>> {
    const [owner, name] = pr.repo.split('/');
    const threads = new Map<string, string>();
    let after: string | null = null;
    for (let page = 0; page < MAX_THREAD_PAGES; page += 1) {
      const answer = await graphql(THREADS_QUERY, { owner, name, number: pr.number, after }, pr.repo, call);
      if (!answer.ok) return answer;
      const parsed = threadsSchema.safeParse(answer.value);
      if (!parsed.success) return failure('failed', 'gh api graphql printed something other than review threads', false);
      const { nodes, pageInfo } = parsed.data.data.repository.pullRequest.reviewThreads;
      for (const node of nodes) {
        const first = node.comments.nodes[0]?.databaseId;
        if (typeof first === 'number') threads.set(String(first), node.id);
      }
      if (!pageInfo.hasNextPage || pageInfo.endCursor === null) break;
      after = pageInfo.endCursor;
    }
    return { ok: true, value: threads };
  }

  /** A review's comments, tied to findings by their markers, with their thread ids. */
  async function findingsOf(pr: PrRef, reviewId: string, comments: readonly ReviewComment[], call: CallOptions | undefined): Promise<ForgeResult<PostedFinding[]>> {
    const endpoint = `repos/${pr.repo}/pulls/${pr.number}/reviews/${reviewId}/comments`;
    const run = await ghApi(endpoint, ['--paginate', `${endpoint}?per_page=100`, '--jq', '.[] | {id, body}'], pr.repo, call);
    if (!run.ok) return run;
    const byShort = new Map(comments.map((comment) => [comment.fingerprint.slice(0, 12), comment.fingerprint]));
    const threads = await threadIds(pr, call);
    // The comments are posted all the same: a thread id that could not be read is left null.
    const threadOf = threads.ok ? threads.value : new Map<string, string>();
    const posted: PostedFinding[] = [];
    for (const line of lines(run.value)) {
      const parsed = reviewCommentSchema.safeParse(parseJson(line));
      if (!parsed.success) continue;
      const short = findingMarkerIn(parsed.data.body);
      const fingerprint = short === undefined ? undefined : byShort.get(short);
      if (fingerprint === undefined) continue;
      const commentId = String(parsed.data.id);
      posted.push({ fingerprint, commentId, threadId: threadOf.get(commentId) ?? null });
    }
    return { ok: true, value: posted };
  }

  return {
    postsOneReview: true,
    async postFindings(pr, review, call) {
      const bad = checkPr(pr) ?? (/^[0-9a-f]{40}$/i.test(review.shas.head) ? undefined : failure('failed', `the head commit must be a full sha, got ${JSON.stringify(review.shas.head.slice(0, 60))}`, false));
      if (bad) return bad;
      const endpoint = `repos/${pr.repo}/pulls/${pr.number}/reviews`;
      const body = {
        commit_id: review.shas.head,
        body: review.body,
        event: 'COMMENT',
        comments: review.comments.map((comment) => ({
          path: comment.path,
          line: comment.line,
          side: 'RIGHT',
          ...(comment.startLine === undefined ? {} : { start_line: comment.startLine, start_side: 'RIGHT' }),
          body: comment.body,
        })),
      };
      const run = await post(endpoint, body, pr.repo, call);
      if (!run.ok) return run;
      const parsed = reviewSchema.safeParse(parseJson(run.value.trim()));
      if (!parsed.success) return failure('failed', 'gh api printed something other than a GitHub review', false);
      return findingsOf(pr, String(parsed.data.id), review.comments, call);
    },

    async findPosted(pr, deliveryMarker, comments, call) {
      const bad = checkPr(pr);
      if (bad) return bad;
      const endpoint = `repos/${pr.repo}/pulls/${pr.number}/reviews`;
      const filter = `.[] | select(.body | contains(${JSON.stringify(deliveryMarker)})) | {id, html_url, login: .user.login}`;
      const run = await ghApi(endpoint, ['--paginate', `${endpoint}?per_page=100`, '--jq', filter], pr.repo, call);
      if (!run.ok) return run;
      for (const line of lines(run.value)) {
        const found = foundSchema.safeParse(parseJson(line));
        if (!found.success) continue;
        if (call?.by !== undefined && !(typeof found.data.login === 'string' && sameLogin(found.data.login, call.by))) continue;
        return findingsOf(pr, String(found.data.id), comments, call);
      }
      return { ok: true, value: null };
    },

    async resolveOutdated(pr, thread, reply, call) {
      const bad = checkPr(pr);
      if (bad) return bad;
      if (reply !== null && thread.commentId !== null && ID.test(thread.commentId)) {
        const replied = await post(`repos/${pr.repo}/pulls/${pr.number}/comments/${thread.commentId}/replies`, { body: reply }, pr.repo, call);
        // Deleted by someone: the thread is still resolved below.
        if (!replied.ok && replied.code !== 'not_found') return replied;
      }
      if (thread.threadId === null || !NODE_ID.test(thread.threadId)) return { ok: true, value: undefined };
      const resolved = await graphql(RESOLVE_MUTATION, { threadId: thread.threadId }, pr.repo, call);
      return resolved.ok ? { ok: true, value: undefined } : resolved;
    },

    async threadNow(pr, thread, call) {
      const bad = checkPr(pr);
      if (bad) return bad;
      if (thread.threadId !== null && NODE_ID.test(thread.threadId)) {
        const answer = await graphql(THREAD_NOW_QUERY, { id: thread.threadId }, pr.repo, call);
        // A deleted thread is GraphQL's NOT_FOUND error, or a null node.
        if (!answer.ok) return /Could not resolve to a node/i.test(answer.message) ? { ok: true, value: null } : answer;
        const parsed = threadNowSchema.safeParse(answer.value);
        if (!parsed.success) return failure('failed', 'gh api graphql printed something other than a review thread', false);
        const node = parsed.data.data.node;
        if (node === null) return { ok: true, value: null };
        // The latest 100 comments: the finding's own is left out when it is among them.
        const replies = node.comments.nodes.flatMap((c) => (c.databaseId === null || String(c.databaseId) === thread.commentId ? [] : [{ id: String(c.databaseId), body: c.body, author: c.author?.login ?? null }]));
        return { ok: true, value: { resolved: node.isResolved, replies } };
      }
      if (thread.commentId === null || !ID.test(thread.commentId)) return { ok: true, value: null };
      // No thread id was read when it was posted: the replies are the PR's comments in reply to it.
      const endpoint = `repos/${pr.repo}/pulls/${pr.number}/comments`;
      const filter = `.[] | select(.in_reply_to_id == ${thread.commentId}) | {id, body, login: .user.login}`;
      const run = await ghApi(endpoint, ['--paginate', `${endpoint}?per_page=100`, '--jq', filter], pr.repo, call);
      if (!run.ok) return run;
      const replies = lines(run.value).flatMap((line) => {
        const parsed = replySchema.safeParse(parseJson(line));
        return parsed.success ? [{ id: String(parsed.data.id), body: parsed.data.body, author: parsed.data.login ?? null }] : [];
      });
      return { ok: true, value: { resolved: false, replies } };
    },

    async replyInThread(pr, thread, body, call) {
      const bad = checkPr(pr) ?? (thread.commentId !== null && ID.test(thread.commentId) ? undefined : failure('failed', 'the finding has no GitHub comment to reply to', false));
      if (bad) return bad;
      const run = await post(`repos/${pr.repo}/pulls/${pr.number}/comments/${thread.commentId}/replies`, { body }, pr.repo, call);
      if (!run.ok) return run;
      const parsed = z.looseObject({ id: z.number(), html_url: z.optional(z.string()) }).safeParse(parseJson(run.value.trim()));
      if (!parsed.success) return failure('failed', 'gh api printed something other than a GitHub comment', false);
      return { ok: true, value: { id: String(parsed.data.id), ...(parsed.data.html_url ? { url: parsed.data.html_url } : {}) } };
    },
  };
}

function checkPr(pr: PrRef): ForgeFailure | undefined {
  if (!isForgeRepo(pr.repo)) return failure('failed', `repo must be owner/name, got ${JSON.stringify(pr.repo.slice(0, 120))}`, false);
  if (!Number.isInteger(pr.number) || pr.number < 1 || pr.number > MAX_PR_NUMBER) return failure('failed', `pull request number must be a positive integer, got ${pr.number}`, false);
  return undefined;
}

const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
