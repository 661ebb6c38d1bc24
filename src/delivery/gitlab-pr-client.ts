// The PrForgeClient for GitLab: a thin client of the REST API v4 on the built-in fetch. One try per
// call; every failure is a value whose message has been through redactText and has the token cut
// out (GitLab's `glpat-` tokens match none of redactText's patterns, and a hostile server could
// echo the token back). fetchWithin is not reused: it reads bodies whole, and a body here is read
// only up to MAX_RESPONSE_BYTES.
import { Buffer } from 'node:buffer';
import * as z from 'zod/mini';
import { REDACTED, redactText } from '../log/redact.js';
import { sameLogin, type CallOptions, type CommitRelation, type FindOptions, type ForgeFailure, type ForgeFailureCode, type ForgeResult, type PostedComment, type PrForgeClient, type PrRef } from './pr-forge.js';

export type GitlabPrClientOptions = {
  /** e.g. https://gitlab.com/api/v4 (a trailing slash is tolerated). */
  readonly apiBase: string;
  readonly token: string;
  readonly fetch?: typeof fetch;
  readonly timeoutMs?: number;
};

export type GitlabPrClient = PrForgeClient & {
  /** The member's access level on the project (inherited ones included), or null if not a member. */
  accessLevel(pr: PrRef, userId: number, options?: CallOptions): Promise<ForgeResult<number | null>>;
};

const DEFAULT_TIMEOUT_MS = 30_000;
/** A hostile or broken server cannot make us hold more than this of one response. */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** findComment reads at most this many pages of 100 notes: 10,000 notes, far beyond a real MR. */
const MAX_NOTE_PAGES = 100;
const MAX_QUOTED_CHARS = 300;

const userSchema = z.looseObject({ username: z.string() });
const noteSchema = z.looseObject({ id: z.number(), body: z.string(), author: z.optional(z.looseObject({ username: z.string() })) });
const notesSchema = z.array(noteSchema);
const commitSchema = z.looseObject({ id: z.string() });
const compareSchema = z.looseObject({ commits: z.array(z.unknown()) });
const memberSchema = z.looseObject({ access_level: z.number() });
const errorSchema = z.looseObject({ message: z.optional(z.unknown()), error: z.optional(z.unknown()) });

type Answer = { readonly status: number; readonly headers: Headers; readonly json: unknown };
type Query = ReadonlyArray<readonly [string, string]>;
type Call = { readonly method: 'GET' | 'POST' | 'PUT'; readonly path: string; readonly query?: Query; readonly body?: unknown };

const failure = (code: ForgeFailureCode, retryable: boolean, message: string): ForgeFailure => ({ ok: false, code, retryable, message });
const ok = <T>(value: T): ForgeResult<T> => ({ ok: true, value });

export function createGitlabPrClient(options: GitlabPrClientOptions): GitlabPrClient {
  const apiBase = options.apiBase.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const clean = (text: string) => {
    const redacted = redactText(text);
    return options.token === '' ? redacted : redacted.split(options.token).join(REDACTED);
  };

  async function call(what: string, request: Call, callOptions: CallOptions | undefined): Promise<ForgeResult<Answer>> {
    const url = new URL(`${apiBase}${request.path}`);
    for (const [key, value] of request.query ?? []) url.searchParams.append(key, value);
    const headers: Record<string, string> = { 'PRIVATE-TOKEN': options.token, accept: 'application/json' };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const forward = () => controller.abort();
    const signal = callOptions?.signal;
    if (signal?.aborted) controller.abort();
    else signal?.addEventListener('abort', forward, { once: true });
    try {
      // The timer stays armed while the body is read: a server that trickles bytes is cut off too.
      // No redirects: fetch would carry PRIVATE-TOKEN (not a header it strips) to the new origin.
      const response = await doFetch(url, { method: request.method, headers, body: request.body === undefined ? undefined : JSON.stringify(request.body), signal: controller.signal, redirect: 'error' });
      const text = await readCapped(response);
      if (text === null) return failure('failed', false, `GitLab ${what}: the response is larger than ${MAX_RESPONSE_BYTES} bytes`);
      const json = parseJson(text);
      if (response.status >= 200 && response.status < 300) return ok({ status: response.status, headers: response.headers, json });
      return statusFailure(what, response.status, json);
    } catch (error) {
      if (timedOut) return failure('timeout', true, `GitLab ${what}: no answer within ${timeoutMs} ms`);
      if (signal?.aborted) return failure('cancelled', false, `GitLab ${what}: cancelled`);
      // undici puts the useful part ("ECONNREFUSED 127.0.0.1:9") in `cause`.
      const message = error instanceof Error ? error.message : String(error);
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
      return failure('failed', true, clean(`GitLab ${what}: ${message}${cause}`));
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
    }
  }

  function statusFailure(what: string, status: number, json: unknown): ForgeFailure {
    const said = quoteError(json);
    const detail = clean(`GitLab ${what}: HTTP ${status}${said === '' ? '' : `: ${said}`}`);
    if (status === 401 || status === 403) return failure('unauthenticated', false, `${detail} (check GITLAB_TOKEN)`);
    if (status === 404) return failure('not_found', false, detail);
    if (status === 429 || status >= 500) return failure('failed', true, detail);
    return failure('failed', false, detail);
  }

  /** Parses a 2xx body with `schema`; a body of another shape is a non-retryable failure. */
  async function fetchParsed<T>(what: string, request: Call, schema: z.ZodMiniType<T>, callOptions: CallOptions | undefined): Promise<ForgeResult<{ value: T; headers: Headers }>> {
    const answer = await call(what, request, callOptions);
    if (!answer.ok) return answer;
    const parsed = schema.safeParse(answer.value.json);
    if (!parsed.success) return failure('failed', false, `GitLab ${what}: unexpected response (HTTP ${answer.value.status})`);
    return ok({ value: parsed.data, headers: answer.value.headers });
  }

  const project = (pr: PrRef) => `/projects/${encodeURIComponent(pr.repo)}`;
  const notesPath = (pr: PrRef) => `${project(pr)}/merge_requests/${pr.number}/notes`;
  const posted = (id: number): PostedComment => ({ id: String(id) });

  async function findComment(pr: PrRef, marker: string, callOptions?: FindOptions): Promise<ForgeResult<PostedComment | null>> {
    const by = callOptions?.by;
    let page = '1';
    for (let read = 0; read < MAX_NOTE_PAGES; read += 1) {
      const query: Query = [['per_page', '100'], ['page', page], ['sort', 'asc'], ['order_by', 'created_at']];
      const result = await fetchParsed('findComment', { method: 'GET', path: notesPath(pr), query }, notesSchema, callOptions);
      if (!result.ok) return result;
      const found = result.value.value.find((note) => note.body.includes(marker) && (by === undefined || (note.author !== undefined && sameLogin(note.author.username, by))));
      if (found) return ok(posted(found.id));
      page = result.value.headers.get('x-next-page')?.trim() ?? '';
      if (page === '') return ok(null);
    }
    return failure('failed', false, `GitLab findComment: more than ${MAX_NOTE_PAGES} pages of notes on ${pr.repo}!${pr.number}`);
  }

  async function compare(pr: PrRef, base: string, head: string, callOptions?: CallOptions): Promise<ForgeResult<{ readonly relation: CommitRelation; readonly commits: number }>> {
    const relation = (value: CommitRelation, commits = 0) => ok({ relation: value, commits });
    const repository = `${project(pr)}/repository`;
    const baseCommit = await fetchParsed('compare', { method: 'GET', path: `${repository}/commits/${encodeURIComponent(base)}` }, commitSchema, callOptions);
    if (!baseCommit.ok) return baseCommit.code === 'not_found' ? relation('lost') : baseCommit;
    if (base === head) return relation('identical');
    const refs: Query = [['refs[]', base], ['refs[]', head]];
    const mergeBase = await fetchParsed('compare', { method: 'GET', path: `${repository}/merge_base`, query: refs }, commitSchema, callOptions);
    // GitLab answers 404 "Merge Base Not Found" when the two share no history at all.
    if (!mergeBase.ok) return mergeBase.code === 'not_found' ? relation('diverged') : mergeBase;
    const baseId = mergeBase.value.value.id;
    if (baseId === head) return relation('behind');
    if (baseId !== base) return relation('diverged');
    const query: Query = [['from', base], ['to', head], ['straight', 'true']];
    const diff = await fetchParsed('compare', { method: 'GET', path: `${repository}/compare`, query }, compareSchema, callOptions);
    return diff.ok ? relation('ahead', diff.value.value.commits.length) : diff;
  }

  return {
    async whoAmI(callOptions) {
      const result = await fetchParsed('whoAmI', { method: 'GET', path: '/user' }, userSchema, callOptions);
      return result.ok ? ok(result.value.value.username) : result;
    },
    async postComment(pr, body, callOptions) {
      const result = await fetchParsed('postComment', { method: 'POST', path: notesPath(pr), body: { body } }, noteSchema, callOptions);
      return result.ok ? ok(posted(result.value.value.id)) : result;
    },
    async updateComment(pr, commentId, body, callOptions) {
      const path = `${notesPath(pr)}/${encodeURIComponent(commentId)}`;
      const result = await fetchParsed('updateComment', { method: 'PUT', path, body: { body } }, noteSchema, callOptions);
      return result.ok ? ok(posted(result.value.value.id)) : result;
    },
    findComment,
    compare,
    async accessLevel(pr, userId, callOptions) {
      const path = `${project(pr)}/members/all/${userId}`;
      const result = await fetchParsed('accessLevel', { method: 'GET', path }, memberSchema, callOptions);
      if (result.ok) return ok(result.value.value.access_level);
      return result.code === 'not_found' ? ok(null) : result;
    },
  };
}

/** The body as text, or null once it passes MAX_RESPONSE_BYTES (the rest is never read). */
async function readCapped(response: Response): Promise<string | null> {
  if (!response.body) return '';
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_RESPONSE_BYTES) return null;
      chunks.push(value);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** GitLab's own words: `message` (a string, or an object of field errors) or `error`, cut short. */
function quoteError(json: unknown): string {
  const parsed = errorSchema.safeParse(json);
  if (!parsed.success) return '';
  const said = parsed.data.message ?? parsed.data.error;
  if (said === undefined || said === null) return '';
  const text = typeof said === 'string' ? said : JSON.stringify(said);
  return text.length > MAX_QUOTED_CHARS ? `${text.slice(0, MAX_QUOTED_CHARS)}…` : text;
}
