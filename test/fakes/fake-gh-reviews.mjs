// The fake gh's pull-request reviews (fake-gh-api.mjs routes to them), kept in
// `<FAKE_GH_RECORD>.reviews.json` ({reviews, comments, threads}), with GitHub's REST and GraphQL
// shapes:
//
//   POST repos/<o>/<r>/pulls/<n>/reviews              {commit_id, body, event, comments: [{path, line,
//                                                     side, start_line?, start_side?, body}]}: one review
//                                                     and a thread per comment. A line not on the new side
//                                                     of the file's patch in FAKE_GH_PULLS (when the PR is
//                                                     there) is `gh: Unprocessable Entity (HTTP 422)` with
//                                                     GitHub's "Line could not be resolved"; so is a side
//                                                     other than LEFT/RIGHT or an unknown event.
//   GET  repos/<o>/<r>/pulls/<n>/reviews[?query]      the reviews, oldest first, in pages
//   GET  repos/<o>/<r>/pulls/<n>/reviews/<id>/comments[?query]   a review's comments
//   GET  repos/<o>/<r>/pulls/<n>/comments[?query]     every review comment of the PR
//   POST repos/<o>/<r>/pulls/<n>/comments/<id>/replies {body}: a reply in <id>'s thread
//                                                     (in_reply_to_id: the thread's first comment)
//   POST graphql {query, variables}                   `reviewThreads` (pages of `first`, `after` a
//                                                     cursor), `resolveReviewThread(input: {threadId})`,
//                                                     and `node(id: $id)` on a PullRequestReviewThread
//                                                     (isResolved, its latest 100 comments)
// Ids: reviews 3,000,000,000 and comments 4,000,000,000 plus a count; thread ids `PRRT_<n>`.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { URLSearchParams } from 'node:url';

const NOT_FOUND = 'gh: Not Found (HTTP 404)';
const UNPROCESSABLE = 'gh: Unprocessable Entity (HTTP 422)';
const REVIEWS = /^\/?repos\/([^/]+\/[^/]+)\/pulls\/([1-9][0-9]*)\/reviews(?:\?(.*))?$/;
const REVIEW_COMMENTS = /^\/?repos\/([^/]+\/[^/]+)\/pulls\/([1-9][0-9]*)\/reviews\/([0-9]+)\/comments(?:\?(.*))?$/;
const PR_COMMENTS = /^\/?repos\/([^/]+\/[^/]+)\/pulls\/([1-9][0-9]*)\/comments(?:\?(.*))?$/;
const REPLIES = /^\/?repos\/([^/]+\/[^/]+)\/pulls\/([1-9][0-9]*)\/comments\/([0-9]+)\/replies$/;

/** The jq filter github-pr-review.ts reads a thread's replies with, when it has no thread id. */
export const THREAD_REPLIES_JQ = {
  pattern: /^\.\[\] \| select\(\.in_reply_to_id == ([0-9]+)\) \| \{id, body, login: \.user\.login\}$/,
  run: (value, m) => listOf(value).filter((c) => c.in_reply_to_id === Number(m[1])).map((c) => ({ id: c.id, body: c.body, login: c.user?.login })),
};

/** The jq filter github-pr-review.ts lists a review's comments with. */
export const REVIEW_COMMENTS_JQ = { pattern: /^\.\[\] \| \{id, body\}$/, run: (value) => listOf(value).map((c) => ({ id: c.id, body: c.body })) };

/** `{ok, pages}` / `{ok: false, stderr}` for an endpoint of this file, or undefined. Writes run under the store lock. */
export function routeReviews(endpoint, method, paginate, input, recordPath, login) {
  const path = endpoint.replace(/^\//, '');
  if (path === 'graphql' && method === 'POST') return graphql(input, recordPath);
  let m = REVIEW_COMMENTS.exec(path);
  if (m && method === 'GET') {
    const state = load(recordPath);
    return paged(state.comments.filter((c) => c.repo === m[1] && c.number === Number(m[2]) && c.review_id === Number(m[3])).map(rest), m[4], paginate);
  }
  m = REVIEWS.exec(path);
  if (m && method === 'GET') {
    const state = load(recordPath);
    return paged(state.reviews.filter((r) => r.repo === m[1] && r.number === Number(m[2])).map(restReview), m[3], paginate);
  }
  if (m && method === 'POST') return postReview(m[1], Number(m[2]), input, recordPath, login);
  m = REPLIES.exec(path);
  if (m && method === 'POST') return reply(m[1], Number(m[2]), Number(m[3]), input, recordPath, login);
  m = PR_COMMENTS.exec(path);
  if (m && method === 'GET') {
    const state = load(recordPath);
    return paged(state.comments.filter((c) => c.repo === m[1] && c.number === Number(m[2])).map(rest), m[3], paginate);
  }
  return undefined;
}

function load(recordPath) {
  try {
    return JSON.parse(readFileSync(`${recordPath}.reviews.json`, 'utf8'));
  } catch {
    return { reviews: [], comments: [], threads: [], next: 1 };
  }
}

function save(recordPath, state) {
  writeFileSync(`${recordPath}.reviews.json.tmp`, JSON.stringify(state));
  renameSync(`${recordPath}.reviews.json.tmp`, `${recordPath}.reviews.json`);
}

function parseInput(input) {
  try {
    const value = JSON.parse(input ?? '');
    return value !== null && typeof value === 'object' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The new-side line numbers of a patch (added and context lines). */
function newSideLines(patch) {
  const lines = new Set();
  let at = 0;
  let inHunk = false;
  for (const line of (patch ?? '').split('\n')) {
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      at = Number(hunk[1]);
      inHunk = true;
    } else if (inHunk && (line.startsWith('+') || line.startsWith(' '))) lines.add(at++);
  }
  return lines;
}

/** The PR's files from FAKE_GH_PULLS, or undefined when it is not there (no check then). */
function pullFiles(repo, number) {
  if (!process.env.FAKE_GH_PULLS) return undefined;
  try {
    return JSON.parse(readFileSync(process.env.FAKE_GH_PULLS, 'utf8')).pulls?.[`${repo}#${number}`]?.files;
  } catch {
    return undefined;
  }
}

function postReview(repo, number, input, recordPath, login) {
  const body = parseInput(input);
  if (!body) return { ok: false, stderr: 'gh: Problems parsing JSON (HTTP 400)' };
  if (!['COMMENT', 'APPROVE', 'REQUEST_CHANGES', undefined].includes(body.event)) return { ok: false, stderr: `${UNPROCESSABLE}\nUnexpected event` };
  const files = pullFiles(repo, number);
  const comments = Array.isArray(body.comments) ? body.comments : [];
  for (const c of comments) {
    if (typeof c.path !== 'string' || typeof c.body !== 'string' || !Number.isInteger(c.line)) return { ok: false, stderr: `${UNPROCESSABLE}\nInvalid request: comments need path, line and body` };
    if (c.side !== undefined && c.side !== 'RIGHT' && c.side !== 'LEFT') return { ok: false, stderr: `${UNPROCESSABLE}\nInvalid side` };
    if (files) {
      const file = files.find((f) => f.filename === c.path);
      const lines = newSideLines(file?.patch);
      const range = c.start_line === undefined ? [c.line] : Array.from({ length: c.line - c.start_line + 1 }, (_, i) => c.start_line + i);
      if (!file || range.some((line) => !lines.has(line))) return { ok: false, stderr: `${UNPROCESSABLE}\nLine could not be resolved` };
    }
  }
  const state = load(recordPath);
  const host = process.env.GH_HOST || 'github.com';
  const id = 3_000_000_000 + state.next++;
  const now = new Date().toISOString();
  const review = { id, repo, number, body: body.body ?? '', commit_id: body.commit_id ?? null, event: body.event ?? 'PENDING', login, submitted_at: now, html_url: `https://${host}/${repo}/pull/${number}#pullrequestreview-${id}` };
  state.reviews.push(review);
  for (const c of comments) {
    const commentId = 4_000_000_000 + state.next++;
    state.comments.push({ id: commentId, repo, number, review_id: id, path: c.path, line: c.line, start_line: c.start_line ?? null, side: c.side ?? 'RIGHT', body: c.body, in_reply_to_id: null, login, commit_id: review.commit_id, created_at: now });
    state.threads.push({ id: `PRRT_${commentId}`, repo, number, first: commentId, resolved: false });
  }
  save(recordPath, state);
  return { ok: true, pages: [restReview(review)] };
}

function reply(repo, number, to, input, recordPath, login) {
  const body = parseInput(input);
  if (!body || typeof body.body !== 'string' || body.body.trim() === '') return { ok: false, stderr: `${UNPROCESSABLE}\nbody is missing` };
  const state = load(recordPath);
  const parent = state.comments.find((c) => c.repo === repo && c.number === number && c.id === to);
  if (!parent) return { ok: false, stderr: NOT_FOUND };
  const id = 4_000_000_000 + state.next++;
  const comment = { id, repo, number, review_id: null, path: parent.path, line: parent.line, start_line: null, side: parent.side, body: body.body, in_reply_to_id: parent.in_reply_to_id ?? parent.id, login, created_at: new Date().toISOString() };
  state.comments.push(comment);
  save(recordPath, state);
  return { ok: true, pages: [rest(comment)] };
}

function graphql(input, recordPath) {
  const body = parseInput(input);
  if (!body || typeof body.query !== 'string') return { ok: false, stderr: 'gh: Problems parsing JSON (HTTP 400)' };
  const vars = body.variables ?? {};
  const state = load(recordPath);
  if (body.query.includes('resolveReviewThread')) {
    const thread = state.threads.find((t) => t.id === vars.threadId);
    if (!thread) return { ok: true, pages: [{ data: { resolveReviewThread: null }, errors: [{ type: 'NOT_FOUND', message: `Could not resolve to a node with the global id of '${vars.threadId}'` }] }] };
    thread.resolved = true;
    save(recordPath, state);
    return { ok: true, pages: [{ data: { resolveReviewThread: { thread: { id: thread.id, isResolved: true } } } }] };
  }
  if (/\bnode\(id: \$id\)/.test(body.query) && body.query.includes('PullRequestReviewThread')) {
    // A thread now: resolved or not, and its latest 100 comments (the first, then the replies).
    const thread = state.threads.find((t) => t.id === vars.id);
    // gh api graphql exits 1 on a response with errors, their messages on stderr.
    if (!thread) return { ok: false, stderr: `gh: Could not resolve to a node with the global id of '${vars.id}'` };
    const comments = state.comments.filter((c) => c.id === thread.first || c.in_reply_to_id === thread.first).slice(-100);
    const nodes = comments.map((c) => ({ databaseId: c.id, body: c.body, author: c.login ? { login: c.login } : null }));
    return { ok: true, pages: [{ data: { node: { isResolved: thread.resolved, comments: { nodes } } } }] };
  }
  if (body.query.includes('reviewThreads')) {
    const repo = `${vars.owner}/${vars.name}`;
    const all = state.threads.filter((t) => t.repo === repo && t.number === vars.number);
    const from = vars.after ? Number(vars.after) : 0;
    const page = all.slice(from, from + 100);
    const next = from + page.length;
    return {
      ok: true,
      pages: [{ data: { repository: { pullRequest: { reviewThreads: { pageInfo: { hasNextPage: next < all.length, endCursor: next < all.length ? String(next) : null }, nodes: page.map((t) => ({ id: t.id, isResolved: t.resolved, comments: { nodes: [{ databaseId: t.first }] } })) } } } } }],
    };
  }
  return { ok: false, stderr: 'fake-gh: unsupported GraphQL query' };
}

function paged(items, query, paginate) {
  const params = new URLSearchParams(query ?? '');
  const perPage = Math.min(100, Math.max(1, Number(params.get('per_page')) || 30));
  const first = Math.max(1, Number(params.get('page')) || 1);
  const pages = [];
  for (let page = first; ; page++) {
    pages.push(items.slice((page - 1) * perPage, page * perPage));
    if (!paginate || page * perPage >= items.length) break;
  }
  return { ok: true, pages };
}

function restReview(r) {
  return { id: r.id, node_id: `PRR_${r.id}`, user: { login: r.login }, body: r.body, state: r.event === 'COMMENT' ? 'COMMENTED' : r.event, html_url: r.html_url, commit_id: r.commit_id, submitted_at: r.submitted_at };
}

function rest(c) {
  return { id: c.id, pull_request_review_id: c.review_id, path: c.path, line: c.line, start_line: c.start_line, side: c.side, body: c.body, in_reply_to_id: c.in_reply_to_id ?? undefined, user: { login: c.login }, created_at: c.created_at };
}

function listOf(value) {
  if (!Array.isArray(value)) throw new Error(`cannot iterate over: ${typeof value}`);
  return value;
}
