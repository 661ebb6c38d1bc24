// `gh api` for the fake GitHub CLI (fake-gh.mjs, whose header lists what it answers): the REST
// endpoints Iris calls, with GitHub's JSON shapes, gh's 404 wording, and gh's --paginate and --jq
// behaviour (each page is filtered by itself; jq prints strings raw and objects as compact JSON with
// sorted keys, as gojq does). Kept apart so fake-gh.mjs stays readable.
import { mkdirSync, readFileSync, renameSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { URLSearchParams } from 'node:url';
import { FILES_JQ, routePulls } from './fake-gh-pulls.mjs';
import { REVIEW_COMMENTS_JQ, THREAD_REPLIES_JQ, routeReviews } from './fake-gh-reviews.mjs';

const USAGE_API = 'Usage:  gh api <endpoint> [flags]';
const MAX_BODY_CHARS = 65_536;
const NOT_FOUND = 'gh: Not Found (HTTP 404)';
const COMMENTS = /^\/?repos\/([^/]+\/[^/]+)\/issues\/([1-9][0-9]*)\/comments(?:\?(.*))?$/;
const COMMENT = /^\/?repos\/([^/]+\/[^/]+)\/issues\/comments\/([0-9]+)$/;
const COMPARE = /^\/?repos\/([^/]+\/[^/]+)\/compare\/([^./]+)\.\.\.([^./]+)$/;
const MARKER_SELECT = String.raw`^\.\[\] \| select\(\.body \| contains\(("(?:[^"\\]|\\.)*")\)\) \| `;

/** The only jq filters the fake knows: the ones Iris uses. Others are refused. */
const JQ_FILTERS = [
  { pattern: /^\.login$/, run: (value) => [objectOf(value).login] },
  { pattern: new RegExp(`${MARKER_SELECT}\\.html_url$`), run: (value, m) => marked(value, m).map((c) => c.html_url) },
  { pattern: new RegExp(`${MARKER_SELECT}\\{id, html_url, login: \\.user\\.login\\}$`), run: (value, m) => marked(value, m).map((c) => ({ id: c.id, html_url: c.html_url, login: c.user?.login })) },
  { pattern: /^\{status, ahead_by\}$/, run: (value) => [{ status: objectOf(value).status, ahead_by: objectOf(value).ahead_by }] },
  FILES_JQ,
  REVIEW_COMMENTS_JQ,
  THREAD_REPLIES_JQ,
];

/** `io`: what fake-gh.mjs shares (mode, recordPath, record, done, fail, usageError, hang, login). */
export async function api(args, io) {
  const parsed = parseApiArgs(args);
  if (!parsed.ok) {
    io.record(null);
    return io.usageError(parsed.error, USAGE_API);
  }
  // gh checks the sign-in before the command runs, so a signed-out gh never reads --input.
  if (io.mode.kind === 'unauthenticated') {
    io.record(null);
    return io.fail(4, 'To get started with GitHub CLI, please run:  gh auth login');
  }
  let input = null;
  if (parsed.input !== undefined) {
    try {
      input = readFileSync(parsed.input === '-' ? 0 : parsed.input, 'utf8');
    } catch {
      io.record(null);
      return io.fail(1, `open ${parsed.input}: no such file or directory`);
    }
  }
  const recorded = io.record(input);
  if (io.mode.kind === 'hang') await io.hang();
  // A write reads, changes and rewrites the store: one gh at a time, as GitHub serialises them.
  const answer = parsed.method === 'GET' ? route(parsed, input, recorded, io) : withStoreLock(io.recordPath, () => route(parsed, input, recorded, io));
  if (!answer.ok) return io.fail(1, answer.stderr);
  // FAKE_GH_API_HANG_MS: a write that went through, then a slow answer (the window in which a
  // crash of the caller leaves the comment on the host and nothing in Iris's records).
  const writeHangMs = Number(process.env.FAKE_GH_API_HANG_MS) || 0;
  if (writeHangMs > 0 && (parsed.method === 'POST' || parsed.method === 'PATCH')) await sleep(writeHangMs);
  if (answer.pages.length === 0) return io.done('');
  if (parsed.jq === undefined) return io.done(answer.pages.map((page) => `${JSON.stringify(page)}\n`).join(''));
  const filter = JQ_FILTERS.map((f) => ({ f, m: f.pattern.exec(parsed.jq) })).find((x) => x.m);
  if (!filter) return io.fail(1, `fake-gh: unsupported --jq filter ${JSON.stringify(parsed.jq)}`);
  try {
    const lines = answer.pages.flatMap((page) => filter.f.run(page, filter.m));
    return io.done(lines.map((v) => `${typeof v === 'string' ? v : sortedJson(v)}\n`).join(''));
  } catch (err) {
    return io.fail(1, `fake-gh: jq: ${err.message}`);
  }
}

function parseApiArgs(args) {
  let jq;
  let method;
  let input;
  let paginate = false;
  const positional = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const takesValue = ['--jq', '-q', '-X', '--method', '--input'].includes(arg);
    if (takesValue && i + 1 >= args.length) return { ok: false, error: `flag needs an argument: ${arg}` };
    if (arg === '--paginate') paginate = true;
    else if (arg === '--jq' || arg === '-q') jq = args[++i];
    else if (arg === '-X' || arg === '--method') method = args[++i];
    else if (arg === '--input') input = args[++i];
    else if (arg.startsWith('-')) return { ok: false, error: `unknown flag: ${arg}` };
    else positional.push(arg);
  }
  if (positional.length !== 1) return { ok: false, error: `accepts 1 arg(s), received ${positional.length}` };
  // gh's default: GET, or POST once there is a request body.
  return { ok: true, endpoint: positional[0], method: method ?? (input === undefined ? 'GET' : 'POST'), jq, input, paginate };
}

/** `{ok: true, pages: [json, ...]}` (one per page gh printed) or `{ok: false, stderr}`. */
function route({ endpoint, method, paginate }, input, recorded, io) {
  const store = commentStore(io.recordPath);
  if (endpoint.replace(/^\//, '') === 'user' && method === 'GET') {
    return { ok: true, pages: [{ login: io.login, id: 1, type: 'User' }] };
  }
  let m = COMMENTS.exec(endpoint);
  if (m && method === 'GET') return listComments(store.all(), m[1], Number(m[2]), m[3] ?? '', paginate, io.login);
  if (m && method === 'POST') {
    const body = readBody(input);
    if (!body.ok) return body;
    const id = 2_000_000_000 + recorded;
    const host = process.env.GH_HOST || 'github.com';
    const now = new Date().toISOString();
    const comment = { repo: m[1], number: Number(m[2]), id, html_url: `https://${host}/${m[1]}/pull/${m[2]}#issuecomment-${id}`, body: body.text, login: io.login, created_at: now, updated_at: now };
    store.append(comment);
    return { ok: true, pages: [restComment(comment, io.login)] };
  }
  m = COMMENT.exec(endpoint);
  if (m && (method === 'PATCH' || method === 'DELETE')) {
    const comments = store.all();
    const index = comments.findIndex((c) => c.repo === m[1] && c.id === Number(m[2]));
    if (index < 0) return { ok: false, stderr: NOT_FOUND };
    if (method === 'DELETE') {
      store.replace(comments.filter((_, i) => i !== index));
      return { ok: true, pages: [] };
    }
    const body = readBody(input);
    if (!body.ok) return body;
    comments[index] = { ...comments[index], body: body.text, updated_at: new Date().toISOString() };
    store.replace(comments);
    return { ok: true, pages: [restComment(comments[index], io.login)] };
  }
  m = COMPARE.exec(endpoint);
  if (m && method === 'GET') return compare(m[2], m[3]);
  // Reviews, review comments and their threads: fake-gh-reviews.mjs.
  const reviews = routeReviews(endpoint, method, paginate, input, io.recordPath, io.login);
  if (reviews) return reviews;
  // Pull requests' own reads (FAKE_GH_PULLS): fake-gh-pulls.mjs.
  const pulls = routePulls(endpoint, method, paginate);
  if (pulls) return pulls;
  return { ok: false, stderr: NOT_FOUND };
}

/** GitHub's pages: `per_page` (default 30, at most 100) from `page`; gh --paginate reads on to the end. */
function listComments(all, repo, number, query, paginate, login) {
  const params = new URLSearchParams(query);
  const perPage = Math.min(100, Math.max(1, Number(params.get('per_page')) || 30));
  const first = Math.max(1, Number(params.get('page')) || 1);
  const comments = all.filter((c) => c.repo === repo && c.number === number).map((c) => restComment(c, login));
  const pages = [];
  for (let page = first; ; page++) {
    pages.push(comments.slice((page - 1) * perPage, page * perPage));
    if (!paginate || page * perPage >= comments.length) break;
  }
  return { ok: true, pages };
}

function readBody(input) {
  let parsed;
  try {
    parsed = JSON.parse(input ?? '');
  } catch {
    return { ok: false, stderr: 'gh: Problems parsing JSON (HTTP 400)' };
  }
  const text = parsed?.body;
  if (typeof text !== 'string' || text.trim() === '') return { ok: false, stderr: 'gh: Validation Failed (HTTP 422)' };
  if ([...text].length > MAX_BODY_CHARS) {
    return { ok: false, stderr: `gh: Validation Failed (HTTP 422)\nbody is too long (maximum is ${MAX_BODY_CHARS} characters)` };
  }
  return { ok: true, text };
}

/** A stored comment as the REST API shows it; lines `gh pr comment` wrote carry no times. */
function restComment(c, login) {
  const at = c.created_at ?? new Date(0).toISOString();
  return { id: c.id, html_url: c.html_url, body: c.body, user: { login: c.login ?? login }, created_at: at, updated_at: c.updated_at ?? at };
}

/**
 * Runs `work` (synchronous) holding the lock of the files under `recordPath` (a directory made
 * and removed, so it holds across processes): fakes run at once by concurrent deliveries must not
 * interleave a read-change-write of the comment store, nor take the same line count for an id.
 * A lock older than 5 s is a holder's that was killed, and is broken.
 */
export function withStoreLock(recordPath, work) {
  const lock = `${recordPath}.lock`;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      try {
        if (Date.now() - statSync(lock).mtimeMs > 5_000) rmdirSync(lock);
      } catch {
        // released meanwhile
      }
      Atomics.wait(pause, 0, 0, 2);
    }
  }
  try {
    return work();
  } finally {
    rmdirSync(lock);
  }
}

/**
 * `<record>.comments.jsonl`, the store `gh pr comment` appends to. An edit or a deletion rewrites
 * the file (a new file renamed over it, so a reader sees the old or the new one whole), so it
 * always holds the comments as they are now, oldest first. Writers hold withStoreLock.
 */
function commentStore(recordPath) {
  const path = `${recordPath}.comments.jsonl`;
  const toText = (comments) => comments.map((c) => `${JSON.stringify(c)}\n`).join('');
  return {
    all: () => {
      try {
        return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
      } catch {
        return [];
      }
    },
    append: (comment) => writeFileSync(path, toText([comment]), { flag: 'a' }),
    replace: (comments) => {
      writeFileSync(`${path}.tmp`, toText(comments));
      renameSync(`${path}.tmp`, path);
    },
  };
}

/**
 * GitHub's compare over FAKE_GH_COMMITS, a JSON file `{"<sha>": "<parent sha>" | null}`: each
 * commit has one parent. A sha may be given by a unique prefix, as GitHub allows.
 */
function compare(baseRef, headRef) {
  let graph = {};
  try {
    if (process.env.FAKE_GH_COMMITS) graph = JSON.parse(readFileSync(process.env.FAKE_GH_COMMITS, 'utf8'));
  } catch {
    return { ok: false, stderr: 'fake-gh: FAKE_GH_COMMITS is not a readable JSON file' };
  }
  const resolve = (ref) => {
    const found = Object.keys(graph).filter((sha) => sha.startsWith(ref.toLowerCase()));
    return found.length === 1 ? found[0] : undefined;
  };
  const base = resolve(baseRef);
  const head = resolve(headRef);
  if (base === undefined) return { ok: false, stderr: `gh: No commit found for SHA: ${baseRef} (HTTP 404)` };
  if (head === undefined) return { ok: false, stderr: `gh: No commit found for SHA: ${headRef} (HTTP 404)` };
  const chain = (sha) => {
    const out = [];
    for (let s = sha; s && !out.includes(s); s = graph[s]) out.push(s);
    return out;
  };
  const fromHead = chain(head);
  const fromBase = chain(base);
  const mergeBase = fromHead.find((sha) => fromBase.includes(sha));
  if (mergeBase === undefined) return { ok: false, stderr: `gh: No common ancestor between ${baseRef} and ${headRef}. (HTTP 404)` };
  const aheadBy = fromHead.indexOf(mergeBase);
  const behindBy = fromBase.indexOf(mergeBase);
  const status = aheadBy === 0 && behindBy === 0 ? 'identical' : behindBy === 0 ? 'ahead' : aheadBy === 0 ? 'behind' : 'diverged';
  const commits = fromHead.slice(0, aheadBy).reverse().map((sha) => ({ sha, parents: graph[sha] ? [{ sha: graph[sha] }] : [] }));
  return {
    ok: true,
    pages: [{ status, ahead_by: aheadBy, behind_by: behindBy, total_commits: aheadBy, base_commit: { sha: base }, merge_base_commit: { sha: mergeBase }, commits }],
  };
}

function objectOf(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`expected an object but got: ${Array.isArray(value) ? 'array' : typeof value}`);
  return value;
}

function marked(value, match) {
  if (!Array.isArray(value)) throw new Error(`cannot iterate over: ${typeof value}`);
  const needle = JSON.parse(match[1]);
  return value.filter((c) => c.body.includes(needle));
}

/** gojq prints an object's keys sorted. */
function sortedJson(value) {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${sortedJson(value[k])}`).join(',')}}`;
}
