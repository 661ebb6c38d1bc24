// A fake GitLab REST API v4 for tests: a real HTTP server on 127.0.0.1 (port 0) serving the few
// endpoints the merge-request client uses, and recording every request. Tests seed notes, members
// and commits, point the client's apiBase at `url`, and assert what went on the wire.
//
// Faithful where the client's correctness depends on it:
// - auth is the PRIVATE-TOKEN header; missing or wrong → 401 {"message":"401 Unauthorized"}.
// - a project is addressed by its URL-encoded path_with_namespace as one path segment (or by its
//   numeric id); an unknown one → 404 {"message":"404 Project Not Found"}; an unknown route →
//   404 {"error":"404 Not Found"}. Every merge request iid of a known project exists.
// - notes list in pages (per_page at most 100, page from 1) with X-Page, X-Per-Page, X-Total,
//   X-Total-Pages, X-Prev-Page and X-Next-Page (empty on the last page); the default order is
//   newest first, as GitLab's. Note ids count up from 1000.
// - merge_base takes `refs[]` twice: unknown refs → 400 "Could not find ref(s): …", no common
//   ancestor → 404 "404 Merge Base Not Found". The commit graph is a map of first parents.
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mergeRequestReads, type FakeMergeRequest } from './gitlab-mr-reads.js';
import { mergeRequestDiscussions, type FakeDiscussion, type FakeDiscussionNote } from './gitlab-discussions.js';

export type FakeGitlabRequest = {
  readonly method: string;
  /** As sent, still URL-encoded (e.g. /api/v4/projects/group%2Fproject/...). */
  readonly path: string;
  /** Decoded; a key given twice (refs[]) maps to an array. */
  readonly query: Record<string, string | string[]>;
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body, or null. */
  readonly body: unknown;
};

export type FakeGitlabNote = {
  readonly id: number;
  body: string;
  readonly author: { readonly id: number; readonly username: string };
  readonly created_at: string;
  updated_at: string;
  readonly system: false;
  readonly noteable_type: 'MergeRequest';
  readonly noteable_iid: number;
};

export type FakeGitlab = {
  /** The apiBase to configure, e.g. http://127.0.0.1:1234/api/v4. */
  readonly url: string;
  readonly token: string;
  readonly requests: FakeGitlabRequest[];
  /** Oldest first. */
  notes(project: string, iid: number): FakeGitlabNote[];
  addNote(project: string, iid: number, note: { body: string; author?: { id: number; username: string } }): FakeGitlabNote;
  deleteNote(project: string, iid: number, id: number): void;
  setMember(project: string, userId: number, accessLevel: number): void;
  addCommit(project: string, sha: string, parent: string | null): void;
  /** Makes the project known (helpers above do it too); returns its numeric id. */
  addProject(project: string): number;
  /** The next `count` requests (whatever they are) answer HTTP `status`. */
  failNext(count: number, status: number): void;
  /** A merge request a review reads (gitlab-mr-reads.ts): its diff_refs, branches and files. */
  setMergeRequest(project: string, iid: number, mr: FakeMergeRequest): void;
  /** A file of the repository at a ref (a branch or a sha), for repository/files/:path/raw. */
  setFile(project: string, ref: string, path: string, text: string): void;
  /** A merge request's discussions (gitlab-discussions.ts), oldest first. */
  discussions(project: string, iid: number): FakeDiscussion[];
  /** A human's reply in a discussion. */
  replyInDiscussion(project: string, iid: number, discussionId: string, body: string, author: { id: number; username: string }): FakeDiscussionNote | undefined;
  /** A person resolves (or unresolves) a discussion in the web page. */
  resolveDiscussion(project: string, iid: number, discussionId: string, resolved: boolean): boolean;
  close(): Promise<void>;
};

export type FakeGitlabOptions = { readonly token?: string; readonly username?: string; readonly userId?: number };

type Project = { readonly id: number; readonly path: string; readonly notes: Map<number, FakeGitlabNote[]>; readonly members: Map<number, number>; readonly parents: Map<string, string | null> };

const STATUS_TEXT: Record<number, string> = { 400: 'Bad request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not found', 429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable' };

export async function startFakeGitlab(options: FakeGitlabOptions = {}): Promise<FakeGitlab> {
  const token = options.token ?? 'glpat-fake-token-0123456789';
  const me = { id: options.userId ?? 42, username: options.username ?? 'iris-bot', name: 'Iris Bot' };
  const requests: FakeGitlabRequest[] = [];
  const reads = mergeRequestReads();
  const threads = mergeRequestDiscussions(me);
  const projects = new Map<string, Project>();
  let nextNoteId = 1000;
  let nextProjectId = 1;
  let failures: { count: number; status: number } = { count: 0, status: 500 };
  // A clock that moves one second per note, so created_at orders notes as ids do.
  let clock = Date.UTC(2026, 0, 1);
  const stamp = () => new Date((clock += 1000)).toISOString();

  const project = (path: string): Project => {
    let found = projects.get(path);
    if (!found) {
      found = { id: nextProjectId++, path, notes: new Map(), members: new Map(), parents: new Map() };
      projects.set(path, found);
    }
    return found;
  };
  const lookup = (segment: string): Project | undefined => {
    const name = decodeURIComponent(segment);
    return projects.get(name) ?? [...projects.values()].find((p) => String(p.id) === name);
  };
  const notesOf = (p: Project, iid: number): FakeGitlabNote[] => {
    const list = p.notes.get(iid) ?? [];
    p.notes.set(iid, list);
    return list;
  };
  const addNote = (p: Project, iid: number, body: string, author: { id: number; username: string }): FakeGitlabNote => {
    const at = stamp();
    const note: FakeGitlabNote = { id: nextNoteId++, body, author, created_at: at, updated_at: at, system: false, noteable_type: 'MergeRequest', noteable_iid: iid };
    notesOf(p, iid).push(note);
    return note;
  };
  const commit = (sha: string, p: Project) => {
    const parent = p.parents.get(sha);
    return { id: sha, short_id: sha.slice(0, 8), title: `commit ${sha.slice(0, 8)}`, parent_ids: parent ? [parent] : [] };
  };
  const ancestry = (p: Project, sha: string): string[] => {
    const line: string[] = [];
    for (let at: string | null | undefined = sha; at && !line.includes(at); at = p.parents.get(at)) line.push(at);
    return line;
  };

  const answer = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const notFound = (res: ServerResponse, what: string) => answer(res, 404, { message: `404 ${what} Not Found` });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = (req.url ?? '/').split('?');
    const path = raw[0] ?? '/';
    const params = new URLSearchParams(raw.slice(1).join('?'));
    const query: Record<string, string | string[]> = {};
    for (const key of new Set(params.keys())) {
      const values = params.getAll(key);
      query[key] = values.length === 1 ? (values[0] ?? '') : values;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = null;
    try {
      body = text === '' ? null : (JSON.parse(text) as unknown);
    } catch {
      return answer(res, 400, { error: 'body is invalid JSON' });
    }
    const method = req.method ?? 'GET';
    requests.push({ method, path, query, headers: req.headers, body });
    if (failures.count > 0) {
      failures.count -= 1;
      const status = failures.status;
      return answer(res, status, { message: `${status} ${STATUS_TEXT[status] ?? 'Error'}` }, status === 429 ? { 'retry-after': '1' } : {});
    }
    if (req.headers['private-token'] !== token) return answer(res, 401, { message: '401 Unauthorized' });
    const segments = path.startsWith('/api/v4/') ? path.slice('/api/v4/'.length).split('/') : [];
    const route = `${method} ${segments.map((s, i) => (i === 1 && segments[0] === 'projects' ? ':id' : /^\d+$/.test(s) ? ':n' : s)).join('/')}`;
    if (route === 'GET user') return answer(res, 200, me);
    const p = segments[0] === 'projects' && segments[1] !== undefined ? lookup(segments[1]) : undefined;
    if (segments[0] === 'projects' && !p) return notFound(res, 'Project');
    if (!p) return answer(res, 404, { error: '404 Not Found' });
    const n = (i: number) => Number(segments[i]);
    switch (route) {
      case 'GET projects/:id/merge_requests/:n/notes':
        return listNotes(res, notesOf(p, n(3)), params);
      case 'POST projects/:id/merge_requests/:n/notes': {
        const note = readBody(body);
        if (note === undefined) return answer(res, 400, { error: 'body is missing' });
        if (note.trim() === '') return answer(res, 400, { message: { note: ["can't be blank"] } });
        return answer(res, 201, addNote(p, n(3), note, { id: me.id, username: me.username }));
      }
      case 'PUT projects/:id/merge_requests/:n/notes/:n': {
        const note = notesOf(p, n(3)).find((candidate) => candidate.id === n(5));
        if (!note) return notFound(res, 'Note');
        const next = readBody(body);
        if (next === undefined) return answer(res, 400, { error: 'body is missing' });
        note.body = next;
        note.updated_at = stamp();
        return answer(res, 200, note);
      }
      case 'GET projects/:id/members/all/:n': {
        const level = p.members.get(n(4));
        if (level === undefined) return notFound(res, 'Member');
        return answer(res, 200, { id: n(4), username: `user${n(4)}`, name: `User ${n(4)}`, state: 'active', access_level: level });
      }
      case 'GET projects/:id/repository/merge_base': {
        const refs = params.getAll('refs[]');
        if (refs.length < 2) return answer(res, 400, { message: 'Provide at least 2 refs' });
        const unknown = refs.filter((ref) => !p.parents.has(ref));
        if (unknown.length > 0) return answer(res, 400, { message: `Could not find ${unknown.length === 1 ? 'ref' : 'refs'}: ${unknown.join(', ')}` });
        const shared = refs.slice(1).reduce((common, ref) => common.filter((sha) => ancestry(p, ref).includes(sha)), ancestry(p, refs[0] ?? ''));
        return shared[0] === undefined ? notFound(res, 'Merge Base') : answer(res, 200, commit(shared[0], p));
      }
      case 'GET projects/:id/repository/compare': {
        const from = params.get('from') ?? '';
        const to = params.get('to') ?? '';
        if (!p.parents.has(from) || !p.parents.has(to)) return notFound(res, 'Ref');
        // straight=true: from..to; otherwise from the merge base (the same for ancestors).
        const excluded = new Set(ancestry(p, from));
        const commits = ancestry(p, to).filter((sha) => !excluded.has(sha)).reverse().map((sha) => commit(sha, p));
        return answer(res, 200, { commit: commits.at(-1) ?? null, commits, diffs: [], compare_timeout: false, compare_same_ref: from === to });
      }
      default:
        if (reads.handle(p.path, method, segments, params, res, answer)) return;
        if (threads.handle(p.path, method, segments, params, body, res, answer)) return;
        if (method === 'GET' && segments[2] === 'repository' && segments[3] === 'commits' && segments.length === 5) {
          const sha = decodeURIComponent(segments[4] ?? '');
          return p.parents.has(sha) ? answer(res, 200, commit(sha, p)) : notFound(res, 'Commit');
        }
        return answer(res, 404, { error: '404 Not Found' });
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) answer(res, 500, { message: '500 Internal Server Error' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/api/v4`,
    token,
    requests,
    notes: (path, iid) => [...(project(path).notes.get(iid) ?? [])],
    addNote: (path, iid, note) => addNote(project(path), iid, note.body, note.author ?? { id: 7, username: 'alice' }),
    deleteNote(path, iid, id) {
      const list = notesOf(project(path), iid);
      const at = list.findIndex((note) => note.id === id);
      if (at >= 0) list.splice(at, 1);
    },
    setMember: (path, userId, level) => void project(path).members.set(userId, level),
    addCommit: (path, sha, parent) => void project(path).parents.set(sha, parent),
    addProject: (path) => project(path).id,
    failNext(count, status) {
      failures = { count, status };
    },
    setMergeRequest: (path, iid, mr) => {
      project(path);
      reads.setMergeRequest(path, iid, mr);
      threads.setMergeRequest(path, iid, mr);
    },
    discussions: (path, iid) => threads.discussions(path, iid),
    replyInDiscussion: (path, iid, id, text, author) => threads.reply(path, iid, id, text, author),
    resolveDiscussion: (path, iid, id, resolved) => threads.resolve(path, iid, id, resolved),
    setFile: (path, ref, file, text) => {
      project(path);
      reads.setFile(path, ref, file, text);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function readBody(body: unknown): string | undefined {
  const value = body !== null && typeof body === 'object' ? (body as { body?: unknown }).body : undefined;
  return typeof value === 'string' ? value : undefined;
}

function listNotes(res: ServerResponse, all: FakeGitlabNote[], params: URLSearchParams) {
  const perPage = Math.min(Math.max(Number(params.get('per_page') ?? 20) || 20, 1), 100);
  const page = Math.max(Number(params.get('page') ?? 1) || 1, 1);
  const field = params.get('order_by') === 'updated_at' ? 'updated_at' : 'created_at';
  // Ids break ties: two notes of one second keep the order they were made in.
  const sorted = [...all].sort((a, b) => a[field].localeCompare(b[field]) || a.id - b.id);
  if (params.get('sort') !== 'asc') sorted.reverse();
  const totalPages = Math.max(Math.ceil(sorted.length / perPage), 1);
  const headers = {
    'x-page': String(page),
    'x-per-page': String(perPage),
    'x-total': String(sorted.length),
    'x-total-pages': String(totalPages),
    'x-prev-page': page > 1 ? String(page - 1) : '',
    'x-next-page': page < totalPages ? String(page + 1) : '',
  };
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(sorted.slice((page - 1) * perPage, page * perPage)));
}
