// The guarded fetch against real servers on this machine. Every server is on loopback, so a hop
// the guard must refuse is made to look like the outside by opening exactly the first server's
// address (allow_cidrs) or by giving a public-looking name a loopback address (the injected
// resolver). Nothing here lets a connection leave loopback, whatever the guard decides.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startPageServer, type PageServer } from '../../test/fakes/page-server.js';
import { buildFetchGuard, type FetchGuard } from './fetch-guard.js';
import { guardedGet, type GuardedRequest } from './guarded-fetch.js';
import type { Resolver } from './guarded-lookup.js';

let first: PageServer;
let second: PageServer;
beforeEach(async () => {
  first = await startPageServer('127.0.0.1');
  second = await startPageServer('127.0.0.2');
  second.serve('/secret', { kind: 'page', contentType: 'text/plain', body: 'the second server' });
});
afterEach(async () => {
  await first.close();
  await second.close();
});

const request: GuardedRequest = { timeoutMs: 5000, maxBytes: 1024, headers: { accept: '*/*' } };
const guardOf = (allowCidrs: string[], resolve?: Resolver): FetchGuard => ({ ...buildFetchGuard({ allowPrivate: false, allowCidrs }, {}), ...(resolve ? { resolve } : {}) });

/** Answers from a table, counting every question (a second lookup would show here). */
function resolverOf(table: Record<string, string>): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve: Resolver = (hostname) => {
    asked.push(hostname);
    const address = table[hostname];
    return address ? Promise.resolve([{ address, family: 4 }]) : Promise.reject(Object.assign(new Error(`${hostname} not in the test table`), { code: 'ENOTFOUND' }));
  };
  return Object.assign(resolve, { asked });
}

describe('guardedGet redirects', () => {
  it('checks every hop: a redirect from an opened address to one that is not is refused, and never reaches it', async () => {
    first.serve('/start', { kind: 'redirect', location: `${second.url}/secret` });
    const result = await guardedGet(guardOf(['127.0.0.1/32']), `${first.url}/start`, request);
    expect(result).toEqual({ ok: false, failure: { code: 'refused', message: `redirected to ${second.url}/secret: refused: 127.0.0.2 is loopback` } });
    expect(first.requests.map((r) => r.path)).toEqual(['/start']);
    expect(second.requests).toEqual([]);
  });

  it('follows the same redirect when the second address is opened too', async () => {
    first.serve('/start', { kind: 'redirect', location: `${second.url}/secret` });
    const result = await guardedGet(guardOf(['127.0.0.1/32', '127.0.0.2/32']), `${first.url}/start`, request);
    expect(result).toEqual({ ok: true, response: { url: `${second.url}/secret`, contentType: 'text/plain', body: Buffer.from('the second server') } });
    expect(second.requests.map((r) => r.path)).toEqual(['/secret']);
  });

  it('checks a redirect to a name after resolving it, once', async () => {
    const resolve = resolverOf({ 'images.example.test': '127.0.0.1', 'cdn.example.test': '127.0.0.2' });
    first.serve('/cat.png', { kind: 'redirect', location: `http://cdn.example.test:${second.port}/secret` });
    const result = await guardedGet(guardOf(['127.0.0.1/32'], resolve), `http://images.example.test:${first.port}/cat.png`, request);
    expect(result).toEqual({
      ok: false,
      failure: { code: 'refused', message: `redirected to http://cdn.example.test:${second.port}/secret: refused: cdn.example.test (127.0.0.2) is loopback` },
    });
    expect(resolve.asked).toEqual(['images.example.test', 'cdn.example.test']);
    expect(first.requests).toEqual([{ path: '/cat.png', host: `images.example.test:${first.port}` }]);
    expect(second.requests).toEqual([]);
  });

  it('follows at most 5 redirects', async () => {
    for (let i = 0; i < 6; i++) first.serve(`/r${i}`, { kind: 'redirect', location: `/r${i + 1}` });
    first.serve('/r6', { kind: 'page', contentType: 'text/plain', body: 'arrived' });
    const guard = guardOf(['127.0.0.1/32']);
    expect(await guardedGet(guard, `${first.url}/r1`, request)).toMatchObject({ ok: true, response: { url: `${first.url}/r6` } });
    first.requests.length = 0;
    expect(await guardedGet(guard, `${first.url}/r0`, request)).toEqual({ ok: false, failure: { code: 'not_followed', message: 'more than 5 redirects' } });
    expect(first.requests.map((r) => r.path)).toEqual(['/r0', '/r1', '/r2', '/r3', '/r4', '/r5']);
  });
});

describe('guardedGet and DNS', () => {
  it('connects to the address it checked: one lookup, so a second answer cannot swap it (rebinding)', async () => {
    first.serve('/page', { kind: 'page', contentType: 'text/plain', body: 'checked' });
    const answers = ['127.0.0.1', '127.0.0.2'];
    const asked: string[] = [];
    const rebinding: Resolver = (hostname) => {
      asked.push(hostname);
      return Promise.resolve([{ address: answers[Math.min(asked.length - 1, 1)] as string, family: 4 }]);
    };
    const result = await guardedGet(guardOf(['127.0.0.1/32'], rebinding), `http://rebind.example.test:${first.port}/page`, request);
    expect(result).toMatchObject({ ok: true, response: { body: Buffer.from('checked') } });
    expect(asked).toEqual(['rebind.example.test']);
    expect(first.requests.map((r) => r.path)).toEqual(['/page']);
  });

  it('refuses a name whose answer is refused, before any connection', async () => {
    const resolve = resolverOf({ 'images.example.test': '127.0.0.2' });
    const result = await guardedGet(guardOf(['127.0.0.1/32'], resolve), `http://images.example.test:${second.port}/secret`, request);
    expect(result).toEqual({ ok: false, failure: { code: 'refused', message: 'refused: images.example.test (127.0.0.2) is loopback' } });
    expect(second.requests).toEqual([]);
  });
});

describe('guardedGet with allow_private', () => {
  it('opens every address', async () => {
    const open = buildFetchGuard({ allowPrivate: true, allowCidrs: [] }, {});
    expect(await guardedGet(open, `${second.url}/secret`, request)).toMatchObject({ ok: true, response: { body: Buffer.from('the second server') } });
  });
});
