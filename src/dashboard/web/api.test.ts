import { describe, expect, it } from 'vitest';
import { createApi, TOKEN_HEADER } from './api.js';
import { auxWith, OPTIONS } from './fixtures.js';

type Seen = { url: string; method: string; headers: Record<string, string>; body: string | undefined };

function fakeFetch(status: number, body: unknown, seen: Seen[] = []): typeof fetch {
  return async (input, init) => {
    seen.push({
      url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      method: init?.method ?? 'GET',
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: init?.body as string | undefined,
    });
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });
  };
}

describe('the dashboard API client', () => {
  it('sends the session token on every call and the set body as JSON', async () => {
    const seen: Seen[] = [];
    const api = createApi('tok-123', fakeFetch(200, { ok: true, scope: 'auxiliary', reset: true }, seen));
    const result = await api.set({ scope: 'auxiliary', target: { kind: 'reset' }, provider: '', model: '' });
    expect(result).toEqual({ ok: true, value: { ok: true, scope: 'auxiliary', reset: true } });
    expect(seen).toEqual([
      {
        url: '/api/model/set',
        method: 'POST',
        headers: { 'Content-Type': 'application/json', [TOKEN_HEADER]: 'tok-123' },
        body: '{"scope":"auxiliary","task":"__reset__","provider":"","model":""}',
      },
    ]);
  });

  it('reads the options, the assignments and usage since a span', async () => {
    const seen: Seen[] = [];
    expect(await createApi('t', fakeFetch(200, OPTIONS, seen)).options()).toEqual({ ok: true, value: OPTIONS });
    expect(await createApi('t', fakeFetch(200, auxWith(), seen)).auxiliary()).toEqual({ ok: true, value: auxWith() });
    await createApi('t', fakeFetch(200, { since: null, models: [] }, seen)).usage('7d');
    await createApi('t', fakeFetch(200, { since: null, models: [] }, seen)).usage('');
    expect(seen.map((s) => [s.url, s.headers[TOKEN_HEADER]])).toEqual([
      ['/api/model/options', 't'],
      ['/api/model/auxiliary', 't'],
      ['/api/usage?since=7d', 't'],
      ['/api/usage', 't'],
    ]);
  });

  it('turns errors into messages: the server’s, a refused token, a bad shape, no server', async () => {
    expect(await createApi('t', fakeFetch(400, { error: 'unknown task "x"' })).auxiliary()).toEqual({
      ok: false,
      error: 'unknown task "x"',
    });
    expect(await createApi('t', fakeFetch(500, 'oops')).options()).toEqual({
      ok: false,
      error: 'The server answered 500.',
    });
    const refused = await createApi('t', fakeFetch(401, { error: 'Unauthorized' })).options();
    expect(refused.ok ? '' : refused.error).toMatch(/reload the page/);
    const shape = await createApi('t', fakeFetch(200, { provider: 'x', model: 'y', providers: [{ slug: 1 }] })).options();
    expect(shape.ok ? '' : shape.error).toMatch(/^Unexpected answer from \/api\/model\/options: providers\.0\.slug: /);
    const down = await createApi('t', () => Promise.reject(new TypeError('fetch failed'))).options();
    expect(down).toEqual({ ok: false, error: 'Cannot reach the dashboard server. Is `iris dashboard` still running?' });
  });

  it('posts {"profile"} to the describe endpoint and reads the profile list', async () => {
    const seen: Seen[] = [];
    const answer = { ok: true, profile: 'work', description: 'Words.' };
    expect(await createApi('t', fakeFetch(200, answer, seen)).describeProfile('work')).toEqual({ ok: true, value: answer });
    expect(seen).toEqual([{ url: '/api/profile/describe', method: 'POST', headers: { 'Content-Type': 'application/json', [TOKEN_HEADER]: 't' }, body: '{"profile":"work"}' }]);
    const list = { profiles: [{ name: 'default', active: true, description: '' }] };
    expect(await createApi('t', fakeFetch(200, list)).profiles()).toEqual({ ok: true, value: list });
    expect(await createApi('t', fakeFetch(502, { error: 'blank answer' })).describeProfile('work')).toEqual({ ok: false, error: 'blank answer' });
  });

  it('sends the page to /login when the sign-in has ended, and signs out with the token', async () => {
    let sentTo = 0;
    const ended = await createApi('t', fakeFetch(401, { error: 'Sign in first' }), () => sentTo++).options();
    expect(ended).toEqual({ ok: false, error: 'Your sign-in has ended: sign in again.' });
    expect(sentTo).toBe(1);
    const seen: Array<{ url: string; init: RequestInit | undefined }> = [];
    const fetchFn = ((url: string, init?: RequestInit) => {
      seen.push({ url, init });
      return Promise.resolve(new Response(null, { status: 204 }));
    }) as typeof fetch;
    expect(await createApi('tok', fetchFn, () => sentTo++).signOut()).toEqual({ ok: true, value: null });
    expect(seen).toEqual([{ url: '/api/logout', init: { method: 'POST', headers: { [TOKEN_HEADER]: 'tok' } } }]);
    expect(sentTo).toBe(2);
  });
});
