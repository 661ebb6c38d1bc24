import { afterEach, describe, expect, it } from 'vitest';
import { startFakeGitlab, type FakeGitlab } from './gitlab-api.js';

let fake: FakeGitlab | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

const get = async (gitlab: FakeGitlab, path: string, token: string | null = gitlab.token) => {
  const response = await fetch(`${gitlab.url}${path}`, { headers: token === null ? {} : { 'PRIVATE-TOKEN': token } });
  return { status: response.status, headers: response.headers, body: await response.json() };
};

describe('fake GitLab API v4', () => {
  it('answers /user with the token and 401 without it or with another', async () => {
    fake = await startFakeGitlab({ userId: 9 });
    expect(await get(fake, '/user')).toMatchObject({ status: 200, body: { id: 9, username: 'iris-bot', name: 'Iris Bot' } });
    expect(await get(fake, '/user', null)).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await get(fake, '/user', 'glpat-wrong')).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(fake.requests.map((r) => r.path)).toEqual(['/api/v4/user', '/api/v4/user', '/api/v4/user']);
  });

  it('pages notes oldest-first on sort=asc, newest-first by default, with GitLab headers', async () => {
    fake = await startFakeGitlab();
    for (let i = 0; i < 5; i += 1) fake.addNote('g/p', 3, { body: `n${i}` });
    const first = await get(fake, '/projects/g%2Fp/merge_requests/3/notes?per_page=2&page=1&sort=asc&order_by=created_at');
    expect((first.body as Array<{ id: number; body: string }>).map((n) => [n.id, n.body])).toEqual([[1000, 'n0'], [1001, 'n1']]);
    expect(['x-page', 'x-per-page', 'x-total', 'x-total-pages', 'x-next-page', 'x-prev-page'].map((h) => first.headers.get(h))).toEqual(['1', '2', '5', '3', '2', '']);
    const last = await get(fake, '/projects/g%2Fp/merge_requests/3/notes?per_page=2&page=3&sort=asc');
    expect(last.headers.get('x-next-page')).toBe('');
    expect((last.body as Array<{ body: string }>).map((n) => n.body)).toEqual(['n4']);
    const byDefault = await get(fake, '/projects/1/merge_requests/3/notes');
    expect((byDefault.body as Array<{ body: string }>).map((n) => n.body)).toEqual(['n4', 'n3', 'n2', 'n1', 'n0']);
  });

  it('404s unknown projects, notes, members, commits and routes in GitLab words', async () => {
    fake = await startFakeGitlab();
    fake.addCommit('g/p', 'aaaa1111', null);
    expect((await get(fake, '/projects/nope%2Fx/merge_requests/1/notes')).body).toEqual({ message: '404 Project Not Found' });
    expect((await get(fake, '/projects/g%2Fp/members/all/5')).body).toEqual({ message: '404 Member Not Found' });
    expect((await get(fake, '/projects/g%2Fp/repository/commits/bbbb')).body).toEqual({ message: '404 Commit Not Found' });
    expect((await get(fake, '/nothing')).body).toEqual({ error: '404 Not Found' });
    const put = await fetch(`${fake.url}/projects/g%2Fp/merge_requests/1/notes/1000`, { method: 'PUT', headers: { 'PRIVATE-TOKEN': fake.token, 'content-type': 'application/json' }, body: '{"body":"x"}' });
    expect([put.status, await put.json()]).toEqual([404, { message: '404 Note Not Found' }]);
  });

  it('walks the parent map for merge_base and compare', async () => {
    fake = await startFakeGitlab();
    fake.addCommit('g/p', 'c1', null);
    fake.addCommit('g/p', 'c2', 'c1');
    fake.addCommit('g/p', 'c3', 'c2');
    fake.addCommit('g/p', 'x2', 'c1');
    fake.addCommit('g/p', 'z1', null);
    expect((await get(fake, '/projects/g%2Fp/repository/merge_base?refs%5B%5D=c3&refs%5B%5D=x2')).body).toEqual({ id: 'c1', short_id: 'c1', title: 'commit c1', parent_ids: [] });
    expect((await get(fake, '/projects/g%2Fp/repository/merge_base?refs[]=c3&refs[]=z1')).body).toEqual({ message: '404 Merge Base Not Found' });
    expect(await get(fake, '/projects/g%2Fp/repository/merge_base?refs[]=c3&refs[]=q9')).toMatchObject({ status: 400, body: { message: 'Could not find ref: q9' } });
    const compared = await get(fake, '/projects/g%2Fp/repository/compare?from=c1&to=c3&straight=true');
    expect(compared.body).toMatchObject({ commits: [{ id: 'c2', parent_ids: ['c1'] }, { id: 'c3', parent_ids: ['c2'] }], diffs: [], compare_same_ref: false });
  });

  it('fails the next requests with the status asked for', async () => {
    fake = await startFakeGitlab();
    fake.failNext(2, 503);
    expect(await get(fake, '/user')).toMatchObject({ status: 503, body: { message: '503 Service Unavailable' } });
    expect((await get(fake, '/user')).status).toBe(503);
    expect((await get(fake, '/user')).status).toBe(200);
  });
});
