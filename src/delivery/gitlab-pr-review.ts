// PrReviewPoster for GitLab, over its REST API v4 through gitlab-request.ts (one try a
// call, no redirects, a deadline that covers the body, bodies read up to a cap, messages redacted
// with the token cut out):
//   POST /projects/:id/merge_requests/:iid/discussions              a finding, with its position
//   GET  /projects/:id/merge_requests/:iid/discussions              findings a crash left posted
//   POST /projects/:id/merge_requests/:iid/discussions/:d/notes     a reply in a finding's discussion
//   PUT  /projects/:id/merge_requests/:iid/discussions/:d?resolved=true   an outdated one resolved
//   GET  /projects/:id/merge_requests/:iid/discussions/:d      a discussion now: resolved?, its replies
import * as z from 'zod/mini';
import { findingMarkerIn } from '../review/fingerprint.js';
import { createGitlabRequest, forgeFailure as failure, type GitlabAnswer } from './gitlab-request.js';
import { sameLogin, type CallOptions, type ForgeResult, type PrRef } from './pr-forge.js';
import type { PostedFinding, PrReviewPoster, ReviewComment } from './pr-review-poster.js';

export type GitlabPrReviewOptions = { readonly apiBase: string; readonly token: string; readonly fetch?: typeof fetch; readonly timeoutMs?: number };

const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
const MAX_DISCUSSION_PAGES = 100;
const DISCUSSION_ID = /^[0-9a-f]{1,64}$/i;

const noteSchema = z.looseObject({ id: z.number(), body: z.string(), author: z.optional(z.looseObject({ username: z.string() })) });
const discussionSchema = z.looseObject({ id: z.string(), notes: z.array(z.looseObject({ id: z.number(), body: z.string(), resolved: z.optional(z.boolean()), author: z.optional(z.looseObject({ username: z.string() })) })) });

type Call = { readonly method: 'GET' | 'POST' | 'PUT'; readonly path: string; readonly query?: ReadonlyArray<readonly [string, string]>; readonly body?: unknown };


export function createGitlabPrReview(options: GitlabPrReviewOptions): PrReviewPoster {
  const { request } = createGitlabRequest(options);
  const call = (what: string, req: Call, callOptions: CallOptions | undefined): Promise<ForgeResult<GitlabAnswer>> =>
    request(what, { ...req, maxBytes: MAX_RESPONSE_BYTES }, callOptions);

  const discussions = (pr: PrRef) => `/projects/${encodeURIComponent(pr.repo)}/merge_requests/${pr.number}/discussions`;

  async function postOne(pr: PrRef, comment: ReviewComment, shas: { base: string; head: string; start: string }, callOptions: CallOptions | undefined): Promise<ForgeResult<PostedFinding>> {
    const position = {
      position_type: 'text',
      base_sha: shas.base,
      start_sha: shas.start,
      head_sha: shas.head,
      old_path: comment.oldPath,
      new_path: comment.path,
      new_line: comment.line,
      ...(comment.oldLine === undefined ? {} : { old_line: comment.oldLine }),
    };
    const answer = await call('postFindings', { method: 'POST', path: discussions(pr), body: { body: comment.body, position } }, callOptions);
    if (!answer.ok) return answer;
    const parsed = discussionSchema.safeParse(answer.value.json);
    if (!parsed.success || parsed.data.notes[0] === undefined) return failure('failed', false, 'GitLab postFindings: unexpected response');
    return { ok: true, value: { fingerprint: comment.fingerprint, commentId: String(parsed.data.notes[0].id), threadId: parsed.data.id } };
  }

  return {
    postsOneReview: false,
    async postFindings(pr, review, callOptions) {
      const posted: PostedFinding[] = [];
      for (const comment of review.comments) {
        const one = await postOne(pr, comment, review.shas, callOptions);
        if (!one.ok) return one;
        posted.push(one.value);
      }
      return { ok: true, value: posted };
    },

    async findPosted(pr, _deliveryMarker, comments, callOptions) {
      const wanted = new Map(comments.map((comment) => [comment.fingerprint.slice(0, 12), comment.fingerprint]));
      const found: PostedFinding[] = [];
      let page = '1';
      for (let read = 0; read < MAX_DISCUSSION_PAGES && page !== ''; read += 1) {
        const answer = await call('findPosted', { method: 'GET', path: discussions(pr), query: [['per_page', '100'], ['page', page]] }, callOptions);
        if (!answer.ok) return answer;
        const list = z.array(discussionSchema).safeParse(answer.value.json);
        if (!list.success) return failure('failed', false, 'GitLab findPosted: unexpected response');
        for (const discussion of list.data) {
          const first = discussion.notes[0];
          if (first === undefined || first.resolved === true) continue;
          if (callOptions?.by !== undefined && !(first.author !== undefined && sameLogin(first.author.username, callOptions.by))) continue;
          const short = findingMarkerIn(first.body);
          const fingerprint = short === undefined ? undefined : wanted.get(short);
          if (fingerprint !== undefined) found.push({ fingerprint, commentId: String(first.id), threadId: discussion.id });
        }
        page = answer.value.headers.get('x-next-page')?.trim() ?? '';
      }
      return { ok: true, value: found };
    },

    async resolveOutdated(pr, thread, reply, callOptions) {
      if (thread.threadId === null || !DISCUSSION_ID.test(thread.threadId)) return { ok: true, value: undefined };
      const path = `${discussions(pr)}/${thread.threadId}`;
      if (reply !== null) {
        const replied = await call('resolveOutdated', { method: 'POST', path: `${path}/notes`, body: { body: reply } }, callOptions);
        if (!replied.ok && replied.code !== 'not_found') return replied;
      }
      const resolved = await call('resolveOutdated', { method: 'PUT', path, query: [['resolved', 'true']] }, callOptions);
      return resolved.ok ? { ok: true, value: undefined } : resolved;
    },

    async threadNow(pr, thread, callOptions) {
      if (thread.threadId === null || !DISCUSSION_ID.test(thread.threadId)) return { ok: true, value: null };
      const answer = await call('threadNow', { method: 'GET', path: `${discussions(pr)}/${thread.threadId}` }, callOptions);
      if (!answer.ok) return answer.code === 'not_found' ? { ok: true, value: null } : answer;
      const parsed = discussionSchema.safeParse(answer.value.json);
      if (!parsed.success || parsed.data.notes[0] === undefined) return failure('failed', false, 'GitLab threadNow: unexpected response');
      const [first, ...rest] = parsed.data.notes;
      // The latest 100 replies, as GitHub's side gives.
      const replies = rest.slice(-100).map((note) => ({ id: String(note.id), body: note.body, author: note.author?.username ?? null }));
      return { ok: true, value: { resolved: first.resolved === true, replies } };
    },

    async replyInThread(pr, thread, body, callOptions) {
      if (thread.threadId === null || !DISCUSSION_ID.test(thread.threadId)) return failure('failed', false, 'the finding has no GitLab discussion to reply in');
      const answer = await call('replyInThread', { method: 'POST', path: `${discussions(pr)}/${thread.threadId}/notes`, body: { body } }, callOptions);
      if (!answer.ok) return answer;
      const parsed = noteSchema.safeParse(answer.value.json);
      return parsed.success ? { ok: true, value: { id: String(parsed.data.id) } } : failure('failed', false, 'GitLab replyInThread: unexpected response');
    },
  };
}
