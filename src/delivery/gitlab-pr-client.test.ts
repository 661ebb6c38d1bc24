import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeGitlab, type FakeGitlab } from '../../test/fakes/gitlab-api.js';
import { createGitlabPrClient } from './gitlab-pr-client.js';
import type { ForgeResult } from './pr-forge.js';

const PROJECT = 'group/sub/project';
const ENCODED = 'group%2Fsub%2Fproject';
const pr = { repo: PROJECT, number: 7 };

let fake: FakeGitlab | null = null;
let raw: Server | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
  raw?.closeAllConnections();
  await new Promise<void>((resolve) => (raw ? raw.close(() => resolve()) : resolve()));
  raw = null;
});

async function setup() {
  fake = await startFakeGitlab();
  fake.addProject(PROJECT);
  // The trailing slash is tolerated.
  return { gitlab: fake, client: createGitlabPrClient({ apiBase: `${fake.url}/`, token: fake.token }) };
}

/** A server that takes requests and never answers. */
async function silentServer(): Promise<string> {
  raw = createServer(() => undefined);
  await new Promise<void>((resolve) => raw?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(raw.address() as AddressInfo).port}/api/v4`;
}

const lastRequest = (gitlab: FakeGitlab) => {
  const request = gitlab.requests.at(-1);
  if (!request) throw new Error('no request');
  return { method: request.method, path: request.path, query: request.query, token: request.headers['private-token'], body: request.body };
};

const failureOf = <T>(result: ForgeResult<T>) => {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  // Every token in these tests starts glpat-; no failure message may carry one.
  expect(result.message).not.toContain('glpat-');
  return result;
};

describe('GitLab PR client', () => {
  it('whoAmI reads GET /user', async () => {
    const { gitlab, client } = await setup();
    expect(await client.whoAmI()).toEqual({ ok: true, value: 'iris-bot' });
    expect(lastRequest(gitlab)).toEqual({ method: 'GET', path: '/api/v4/user', query: {}, token: 'glpat-fake-token-0123456789', body: null });
  });

  it('postComment POSTs {body} to the notes of the MR, the project as one encoded segment', async () => {
    const { gitlab, client } = await setup();
    expect(await client.postComment(pr, 'hello <!-- iris -->')).toEqual({ ok: true, value: { id: '1000' } });
    expect(lastRequest(gitlab)).toEqual({ method: 'POST', path: `/api/v4/projects/${ENCODED}/merge_requests/7/notes`, query: {}, token: gitlab.token, body: { body: 'hello <!-- iris -->' } });
    expect(lastRequest(gitlab).token).toBe('glpat-fake-token-0123456789');
    expect(gitlab.notes(PROJECT, 7).map((n) => [n.id, n.body, n.author.username])).toEqual([[1000, 'hello <!-- iris -->', 'iris-bot']]);
  });

  it('updateComment PUTs the new body; a deleted note is not_found', async () => {
    const { gitlab, client } = await setup();
    const note = gitlab.addNote(PROJECT, 7, { body: 'old' });
    expect(await client.updateComment(pr, String(note.id), 'new')).toEqual({ ok: true, value: { id: '1000' } });
    expect(lastRequest(gitlab)).toEqual({ method: 'PUT', path: `/api/v4/projects/${ENCODED}/merge_requests/7/notes/1000`, query: {}, token: gitlab.token, body: { body: 'new' } });
    expect(gitlab.notes(PROJECT, 7)[0]?.body).toBe('new');
    gitlab.deleteNote(PROJECT, 7, note.id);
    expect(failureOf(await client.updateComment(pr, '1000', 'again'))).toEqual({ ok: false, code: 'not_found', retryable: false, message: 'GitLab updateComment: HTTP 404: 404 Note Not Found' });
  });

  it('findComment reads pages of 100 oldest first, following X-Next-Page, and picks the oldest match', async () => {
    const { gitlab, client } = await setup();
    for (let i = 0; i < 250; i += 1) gitlab.addNote(PROJECT, 7, { body: i === 230 || i === 240 ? `x <!-- iris:review --> ${i}` : `note ${i}` });
    expect(await client.findComment(pr, '<!-- iris:review -->')).toEqual({ ok: true, value: { id: '1230' } });
    expect(gitlab.requests.map((r) => [r.method, r.path, r.query])).toEqual(
      [1, 2, 3].map((page) => ['GET', `/api/v4/projects/${ENCODED}/merge_requests/7/notes`, { per_page: '100', page: String(page), sort: 'asc', order_by: 'created_at' }]),
    );
  });

  it('findComment is null when no note has the marker, after the last page', async () => {
    const { gitlab, client } = await setup();
    for (let i = 0; i < 201; i += 1) gitlab.addNote(PROJECT, 7, { body: `note ${i}` });
    expect(await client.findComment(pr, '<!-- iris:review -->')).toEqual({ ok: true, value: null });
    expect(gitlab.requests.length).toBe(3);
    expect(await client.findComment({ repo: PROJECT, number: 8 }, 'x')).toEqual({ ok: true, value: null });
  });

  it('compare: ahead with the commit count, identical, behind, diverged, lost', async () => {
    const { gitlab, client } = await setup();
    for (const [sha, parent] of [['a1', null], ['a2', 'a1'], ['a3', 'a2'], ['a4', 'a3'], ['b3', 'a2'], ['z1', null]] as const) gitlab.addCommit(PROJECT, sha, parent);
    expect(await client.compare(pr, 'a2', 'a4')).toEqual({ ok: true, value: { relation: 'ahead', commits: 2 } });
    expect(gitlab.requests.map((r) => [r.path, r.query])).toEqual([
      [`/api/v4/projects/${ENCODED}/repository/commits/a2`, {}],
      [`/api/v4/projects/${ENCODED}/repository/merge_base`, { 'refs[]': ['a2', 'a4'] }],
      [`/api/v4/projects/${ENCODED}/repository/compare`, { from: 'a2', to: 'a4', straight: 'true' }],
    ]);
    expect(gitlab.requests[1]?.path).not.toContain('[');
    expect(await client.compare(pr, 'a3', 'a3')).toEqual({ ok: true, value: { relation: 'identical', commits: 0 } });
    expect(await client.compare(pr, 'a4', 'a2')).toEqual({ ok: true, value: { relation: 'behind', commits: 0 } });
    expect(await client.compare(pr, 'a4', 'b3')).toEqual({ ok: true, value: { relation: 'diverged', commits: 0 } });
    expect(await client.compare(pr, 'a4', 'z1')).toEqual({ ok: true, value: { relation: 'diverged', commits: 0 } });
    expect(await client.compare(pr, 'gone', 'a4')).toEqual({ ok: true, value: { relation: 'lost', commits: 0 } });
    expect(failureOf(await client.compare(pr, 'a2', 'nope'))).toEqual({ ok: false, code: 'failed', retryable: false, message: 'GitLab compare: HTTP 400: Could not find ref: nope' });
  });

  it('the query string carries refs[] URL-encoded', async () => {
    const { gitlab } = await setup();
    gitlab.addCommit(PROJECT, 'a1', null);
    gitlab.addCommit(PROJECT, 'a2', 'a1');
    const seen: string[] = [];
    const spying: typeof fetch = (input, init) => {
      seen.push(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      return fetch(input, init);
    };
    const client = createGitlabPrClient({ apiBase: gitlab.url, token: gitlab.token, fetch: spying });
    expect(await client.compare(pr, 'a1', 'a2')).toEqual({ ok: true, value: { relation: 'ahead', commits: 1 } });
    expect(seen[1]).toBe(`${gitlab.url}/projects/${ENCODED}/repository/merge_base?refs%5B%5D=a1&refs%5B%5D=a2`);
  });

  it('accessLevel reads members/all; a non-member is null', async () => {
    const { gitlab, client } = await setup();
    gitlab.setMember(PROJECT, 55, 30);
    expect(await client.accessLevel(pr, 55)).toEqual({ ok: true, value: 30 });
    expect(lastRequest(gitlab)).toMatchObject({ method: 'GET', path: `/api/v4/projects/${ENCODED}/members/all/55`, token: gitlab.token });
    expect(await client.accessLevel(pr, 56)).toEqual({ ok: true, value: null });
  });

  it('a wrong token is unauthenticated, names GITLAB_TOKEN and never quotes the token', async () => {
    fake = await startFakeGitlab();
    const token = 'glpat-wrong-token-abcdef';
    const client = createGitlabPrClient({ apiBase: fake.url, token });
    expect(failureOf(await client.whoAmI())).toEqual({ ok: false, code: 'unauthenticated', retryable: false, message: 'GitLab whoAmI: HTTP 401: 401 Unauthorized (check GITLAB_TOKEN)' });
    fake.failNext(1, 403);
    expect(failureOf(await client.postComment(pr, 'x'))).toMatchObject({ code: 'unauthenticated', retryable: false });
  });

  it('maps 5xx and 429 to retryable failures, other 4xx to final ones, an unknown project to not_found', async () => {
    const { gitlab, client } = await setup();
    gitlab.failNext(1, 503);
    expect(failureOf(await client.whoAmI())).toEqual({ ok: false, code: 'failed', retryable: true, message: 'GitLab whoAmI: HTTP 503: 503 Service Unavailable' });
    gitlab.failNext(1, 429);
    expect(failureOf(await client.whoAmI())).toMatchObject({ code: 'failed', retryable: true });
    gitlab.failNext(1, 400);
    expect(failureOf(await client.whoAmI())).toMatchObject({ code: 'failed', retryable: false });
    expect(await client.postComment({ repo: 'no/such', number: 1 }, 'x')).toEqual({ ok: false, code: 'not_found', retryable: false, message: 'GitLab postComment: HTTP 404: 404 Project Not Found' });
  });

  it('a network error is retryable and names the cause', async () => {
    // A port that was just free: nothing listens there now.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const client = createGitlabPrClient({ apiBase: `http://127.0.0.1:${port}/api/v4`, token: 'glpat-x' });
    const failed = failureOf(await client.whoAmI());
    expect([failed.code, failed.retryable]).toEqual(['failed', true]);
    expect(failed.message).toContain('ECONNREFUSED');
  });

  it('a server that never answers times out; an aborted signal cancels', async () => {
    const url = await silentServer();
    const client = createGitlabPrClient({ apiBase: url, token: 'glpat-x', timeoutMs: 100 });
    expect(failureOf(await client.whoAmI())).toEqual({ ok: false, code: 'timeout', retryable: true, message: 'GitLab whoAmI: no answer within 100 ms' });
    const patient = createGitlabPrClient({ apiBase: url, token: 'glpat-x', timeoutMs: 10_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    expect(await patient.findComment(pr, 'x', { signal: controller.signal })).toEqual({ ok: false, code: 'cancelled', retryable: false, message: 'GitLab findComment: cancelled' });
    expect(await patient.whoAmI({ signal: AbortSignal.abort() })).toMatchObject({ ok: false, code: 'cancelled' });
  });

  it('quotes at most 300 characters of the error, with the token cut out, and refuses bodies over 4 MB', async () => {
    const token = 'glpat-secret-token-9876543210';
    const echo = `token ${token} was refused; ${'x'.repeat(1000)}`;
    const replies: Array<{ status: number; body: string }> = [
      { status: 401, body: JSON.stringify({ message: echo }) },
      { status: 500, body: JSON.stringify({ error: `Bearer ${token}` }) },
      { status: 200, body: `[${'"x",'.repeat(1_100_000)}"x"]` },
    ];
    const client = createGitlabPrClient({ apiBase: 'http://gitlab.invalid/api/v4', token, fetch: async () => {
      const reply = replies.shift() ?? { status: 500, body: '' };
      return new Response(reply.body, { status: reply.status });
    } });
    const refused = failureOf(await client.whoAmI());
    expect(refused.message).toBe(`GitLab whoAmI: HTTP 401: token [redacted] was refused; ${'x'.repeat(300 - `token ${token} was refused; `.length)}… (check GITLAB_TOKEN)`);
    const broken = failureOf(await client.whoAmI());
    expect(broken.message).toBe('GitLab whoAmI: HTTP 500: Bearer [redacted]');
    expect(failureOf(await client.findComment(pr, 'x'))).toEqual({ ok: false, code: 'failed', retryable: false, message: 'GitLab findComment: the response is larger than 4194304 bytes' });
    for (const message of [refused.message, broken.message]) expect(message).not.toContain(token);
  });
});
