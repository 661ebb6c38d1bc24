// The PrForgeClient for GitLab: a thin client of the REST API v4. One try per call; every request
// goes through gitlab-request.ts (deadline, capped body, no redirects, failures as values with the
// token cut out).
import * as z from 'zod/mini';
import { createGitlabRequest, forgeFailure as failure, type GitlabAnswer } from './gitlab-request.js';
import { sameLogin, type CallOptions, type CommitRelation, type FindOptions, type ForgeResult, type PostedComment, type PrForgeClient, type PrRef } from './pr-forge.js';

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

/** A hostile or broken server cannot make us hold more than this of one response. */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** findComment reads at most this many pages of 100 notes: 10,000 notes, far beyond a real MR. */
const MAX_NOTE_PAGES = 100;

const userSchema = z.looseObject({ username: z.string() });
const noteSchema = z.looseObject({ id: z.number(), body: z.string(), author: z.optional(z.looseObject({ username: z.string() })) });
const notesSchema = z.array(noteSchema);
const commitSchema = z.looseObject({ id: z.string() });
const compareSchema = z.looseObject({ commits: z.array(z.unknown()) });
const memberSchema = z.looseObject({ access_level: z.number() });

type Query = ReadonlyArray<readonly [string, string]>;
type Call = { readonly method: 'GET' | 'POST' | 'PUT'; readonly path: string; readonly query?: Query; readonly body?: unknown };

const ok = <T>(value: T): ForgeResult<T> => ({ ok: true, value });

export function createGitlabPrClient(options: GitlabPrClientOptions): GitlabPrClient {
  const { request } = createGitlabRequest(options);
  const call = (what: string, req: Call, callOptions: CallOptions | undefined): Promise<ForgeResult<GitlabAnswer>> =>
    request(what, { ...req, maxBytes: MAX_RESPONSE_BYTES }, callOptions);

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
