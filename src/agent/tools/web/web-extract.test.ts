// web_extract against real local servers: a fake site on 127.0.0.1, a fake CONNECT proxy, and
// names given local addresses through the injected resolver (the only seam; the fetch guard, the
// dispatcher and the sockets are the production ones). Only loopback addresses are ever let
// through: the other classes are src/net/address-rules.test.ts's, on the pure rules.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startConnectProxy, type ConnectProxy } from '../../../../test/fakes/connect-proxy.js';
import { startPageServer, type PageServer } from '../../../../test/fakes/page-server.js';
import { LOOPBACK_FORMS } from '../../../../test/helpers/loopback-forms.js';
import { articlePage, longPage, TIDES_PARAGRAPHS } from '../../../../test/fakes/web-pages.js';
import { resolveHomePaths, type Env } from '../../../config/home.js';
import { buildFetchGuard } from '../../../net/fetch-guard.js';
import type { Resolver } from '../../../net/guarded-lookup.js';
import { resolveProxySettings } from '../../../providers/wire/network.js';
import { APPROVED } from '../test-support.js';
import type { ToolContext } from '../types.js';
import { createWebExtractTool, type Summarize, type WebExtractOptions } from './web-extract.js';

let site: PageServer;
let proxy: ConnectProxy | undefined;
beforeEach(async () => {
  site = await startPageServer();
});
afterEach(async () => {
  await site.close();
  await proxy?.close();
  proxy = undefined;
});

const context: ToolContext = {
  workspaceRoot: tmpdir(),
  home: resolveHomePaths({ IRIS_HOME: join(tmpdir(), 'iris-web-extract-unused') }),
  approve: () => Promise.resolve(APPROVED),
};

/** A resolver that answers every name with these addresses, and records the names asked. */
function resolverTo(...addresses: string[]): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = (hostname: string) => {
    asked.push(hostname);
    return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
  return Object.assign(resolve, { asked });
}

type RunOptions = Omit<WebExtractOptions, 'guard'> & { allowPrivate?: boolean; allowCidrs?: string[]; env?: Env; resolve?: Resolver };

// No proxy from the machine running the tests: every test says what it wants.
const run = (args: Record<string, unknown>, { allowPrivate = false, allowCidrs = [], env = {}, resolve, ...options }: RunOptions = {}) =>
  createWebExtractTool({ ...options, guard: { ...buildFetchGuard({ allowPrivate, allowCidrs }, resolveProxySettings(env)), ...(resolve ? { resolve } : {}) } }).run(args, context);

describe('web_extract reading pages (allow_private, to reach the local site)', () => {
  const allowed = { allowPrivate: true };

  it('turns a realistic article into Markdown without navigation, ads, banners or footer', async () => {
    site.serve('/tides', { kind: 'page', body: articlePage('How the tides of Lune work', TIDES_PARAGRAPHS) });
    const result = await run({ urls: [`${site.url}/tides`] }, allowed);
    expect(result.ok).toBe(true);
    const head = result.content.slice(0, result.content.indexOf('\n\n'));
    const body = result.content.slice(head.length);
    expect(head).toBe(`Source: ${site.url}/tides\nTitle: How the tides of Lune work`);
    expect(body).toContain('The tides of Lune follow the smaller of its two moons');
    expect(body).toContain(`[spring tides](${site.url}/tides/spring)`);
    expect(body).toContain('Visitors should check the tide table');
    for (const noise of ['Subscribe now', 'Sport', 'cookies', 'WATCHES', 'Sponsored', 'Trending', 'All rights reserved', 'Privacy policy', 'dataLayer', 'border: 1px']) {
      expect(result.content).not.toContain(noise);
    }
  });

  it('passes plain text and JSON through, and refuses other content as not text', async () => {
    site.serve('/notes.txt', { kind: 'page', contentType: 'text/plain; charset=utf-8', body: 'line one\nline <two>\n' });
    site.serve('/data.json', { kind: 'page', contentType: 'application/json', body: '{"tide":"high","at":"06:12"}' });
    site.serve('/logo.png', { kind: 'page', contentType: 'image/png', body: Buffer.from([0x89, 0x50, 0x4e, 0x47]) });
    const result = await run({ urls: [`${site.url}/notes.txt`, `${site.url}/data.json`, `${site.url}/logo.png`] }, allowed);
    expect(result).toEqual({
      ok: true,
      content: [
        `Source: ${site.url}/notes.txt\n\nline one\nline <two>`,
        `Source: ${site.url}/data.json\n\n{"tide":"high","at":"06:12"}`,
        `Source: ${site.url}/logo.png\nError: not text: the page is image/png`,
      ].join('\n\n---\n\n'),
    });
  });

  it('decodes an HTML page in the charset its <meta> names when the header names none', async () => {
    const html = `<html><head><meta charset="iso-8859-1"><title>Caf\u00e9</title></head><body><article><p>${'Le caf\u00e9 du port ouvre \u00e0 six heures. '.repeat(12)}</p></article></body></html>`;
    site.serve('/latin1', { kind: 'page', contentType: 'text/html', body: Buffer.from(html, 'latin1') });
    const result = await run({ urls: [`${site.url}/latin1`] }, allowed);
    expect(result.content).toContain('Le café du port ouvre à six heures.');
  });

  it('reads a gzip-encoded page', async () => {
    site.serve('/z', { kind: 'page', contentType: 'text/plain', body: gzipSync('squeezed text'), headers: { 'content-encoding': 'gzip' } });
    expect(await run({ urls: [`${site.url}/z`] }, allowed)).toEqual({ ok: true, content: `Source: ${site.url}/z\n\nsqueezed text` });
  });

  it('reports per-URL errors, and is an error only when every URL failed', async () => {
    site.serve('/ok', { kind: 'page', contentType: 'text/plain', body: 'fine' });
    const mixed = await run({ urls: [`${site.url}/missing`, `${site.url}/ok`, 'ftp://example.com/x', 'not a url'] }, allowed);
    expect(mixed).toEqual({
      ok: true,
      content: [
        `Source: ${site.url}/missing\nError: HTTP 404 Not Found`,
        `Source: ${site.url}/ok\n\nfine`,
        'Source: ftp://example.com/x\nError: only http and https URLs are fetched, not ftp',
        'Source: not a url\nError: not a valid URL',
      ].join('\n\n---\n\n'),
    });
    const allFailed = await run({ urls: [`${site.url}/missing`] }, allowed);
    expect(allFailed).toEqual({ ok: false, content: `Source: ${site.url}/missing\nError: HTTP 404 Not Found` });
  });

  it('refuses more than 5 URLs, or none, before fetching anything', async () => {
    const six = Array.from({ length: 6 }, (_, i) => `${site.url}/${i}`);
    expect(await run({ urls: six }, allowed)).toEqual({ ok: false, content: 'invalid arguments for web_extract: urls must be at most 5' });
    expect(await run({ urls: [] }, allowed)).toEqual({ ok: false, content: 'invalid arguments for web_extract: urls must be at least 1' });
    expect(site.requests).toEqual([]);
  });

  it('follows up to 5 redirects and says where the page ended up; the sixth is an error', async () => {
    for (let i = 0; i < 6; i++) site.serve(`/r${i}`, { kind: 'redirect', location: `/r${i + 1}` });
    site.serve('/r6', { kind: 'page', contentType: 'text/plain', body: 'arrived' });
    expect(await run({ urls: [`${site.url}/r1`] }, allowed)).toEqual({
      ok: true,
      content: `Source: ${site.url}/r1\nRedirected to: ${site.url}/r6\n\narrived`,
    });
    site.requests.length = 0;
    expect(await run({ urls: [`${site.url}/r0`] }, allowed)).toEqual({ ok: false, content: `Source: ${site.url}/r0\nError: more than 5 redirects` });
    expect(site.requests.map((r) => r.path)).toEqual(['/r0', '/r1', '/r2', '/r3', '/r4', '/r5']);
  });

  it('stops reading at 5 MB and fails that URL', async () => {
    site.serve('/huge', { kind: 'endless' });
    site.serve('/small', { kind: 'page', contentType: 'text/plain', body: 'small' });
    const result = await run({ urls: [`${site.url}/huge`, `${site.url}/small`] }, allowed);
    expect(result.content).toBe(`Source: ${site.url}/huge\nError: the page is larger than 5 MB (reading stopped at the cap)\n\n---\n\nSource: ${site.url}/small\n\nsmall`);
    await site.endlessClosed;
    // What was written before the socket closed: the cap plus what sits in socket buffers, not more.
    expect(site.written).toBeGreaterThan(5 * 1024 * 1024);
    expect(site.written).toBeLessThan(12 * 1024 * 1024);
  });

  it('refuses a page whose Content-Length is over the cap without reading it', async () => {
    site.serve('/declared', { kind: 'page', contentType: 'text/plain', body: 'x'.repeat(2000) });
    const result = await run({ urls: [`${site.url}/declared`] }, { ...allowed, maxBytes: 1000 });
    expect(result).toEqual({ ok: false, content: `Source: ${site.url}/declared\nError: the page is larger than 1000 bytes (reading stopped at the cap)` });
  });

  it('gives each page one deadline for the whole fetch, even when bytes keep coming', async () => {
    site.serve('/drip', { kind: 'drip', everyMs: 50 });
    const started = Date.now();
    const result = await run({ urls: [`${site.url}/drip`] }, { ...allowed, timeoutMs: 400 });
    expect(result).toEqual({ ok: false, content: `Source: ${site.url}/drip\nError: timed out: no complete page within 0.4 s` });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('connects to the address the resolver gave, not to what the system would resolve', async () => {
    site.serve('/named', { kind: 'page', contentType: 'text/plain', body: 'reached by name' });
    const resolve = resolverTo('127.0.0.1');
    const result = await run({ urls: [`http://pages.iris-test.invalid:${site.port}/named`] }, { ...allowed, resolve });
    expect(result).toEqual({ ok: true, content: `Source: http://pages.iris-test.invalid:${site.port}/named\n\nreached by name` });
    expect(resolve.asked).toEqual(['pages.iris-test.invalid']);
    expect(site.requests).toEqual([{ path: '/named', host: `pages.iris-test.invalid:${site.port}` }]);
  });
});

describe('web_extract refusing local addresses (allow_private false, the default)', () => {
  it('refuses every spelling of a loopback address before connecting', async () => {
    site.serve('/secret', { kind: 'page', contentType: 'text/plain', body: 'secret' });
    const forms = [...LOOPBACK_FORMS, ['2130706433', 'refused: 127.0.0.1 is loopback'], ['localhost', 'refused: localhost is loopback']];
    const urls = forms.map(([host]) => `http://${host}:${site.port}/secret`);
    const results = [await run({ urls: urls.slice(0, 4) }), await run({ urls: urls.slice(4) })];
    expect(results.map((r) => r.ok)).toEqual([false, false]);
    expect(results.map((r) => r.content).join('\n\n---\n\n')).toBe(forms.map(([, refusal], i) => `Source: ${urls[i]}\nError: ${refusal}`).join('\n\n---\n\n'));
    expect(site.requests).toEqual([]);
  });

  it('refuses a public-looking name that resolves to a local address, checking every answer', async () => {
    site.serve('/secret', { kind: 'page', contentType: 'text/plain', body: 'secret' });
    const url = `http://news.iris-test.invalid:${site.port}/secret`;
    const local = await run({ urls: [url] }, { resolve: resolverTo('127.0.0.1') });
    expect(local).toEqual({ ok: false, content: `Source: ${url}\nError: refused: news.iris-test.invalid (127.0.0.1) is loopback` });
    // 127.0.0.1 stands in for a public answer (allow_cidrs opens it); the second answer is refused,
    // so the name is, and nothing connects.
    const mixed = await run({ urls: [url] }, { allowCidrs: ['127.0.0.1/32'], resolve: resolverTo('127.0.0.1', '127.0.0.2') });
    expect(mixed).toEqual({ ok: false, content: `Source: ${url}\nError: refused: news.iris-test.invalid (127.0.0.2) is loopback` });
    expect(site.requests).toEqual([]);
  });

  it('opens a range listed in allow_cidrs, and only that range', async () => {
    site.serve('/inside', { kind: 'page', contentType: 'text/plain', body: 'inside' });
    const url = `http://127.0.0.1:${site.port}/inside`;
    expect(await run({ urls: [url] }, { allowCidrs: ['127.0.0.0/30'] })).toEqual({ ok: true, content: `Source: ${url}\n\ninside` });
    expect(await run({ urls: [url] }, { allowCidrs: ['127.0.0.2/31', '10.0.0.0/8'] })).toEqual({ ok: false, content: `Source: ${url}\nError: refused: 127.0.0.1 is loopback` });
    expect(site.requests.map((r) => r.path)).toEqual(['/inside']);
  });

  it('behind a proxy, leaves names to the proxy but refuses a redirect to a literal loopback address', async () => {
    proxy = await startConnectProxy(site.port);
    site.serve('/start', { kind: 'redirect', location: `http://127.0.0.1:${site.port}/secret` });
    site.serve('/secret', { kind: 'page', contentType: 'text/plain', body: 'secret' });
    const resolve = resolverTo('127.0.0.1');
    const result = await run({ urls: ['http://public.iris-test.invalid/start'] }, { env: { HTTP_PROXY: proxy.url }, resolve });
    expect(result).toEqual({
      ok: false,
      content: `Source: http://public.iris-test.invalid/start\nError: redirected to http://127.0.0.1:${site.port}/secret: refused: 127.0.0.1 is loopback`,
    });
    // The name went to the proxy unresolved; the refused hop went nowhere.
    expect(resolve.asked).toEqual([]);
    expect(proxy.targets).toEqual(['public.iris-test.invalid:80']);
    expect(site.requests).toEqual([{ path: '/start', host: 'public.iris-test.invalid' }]);
  });

  it('checks a redirect to a name after resolving it, when that name bypasses the proxy', async () => {
    proxy = await startConnectProxy(site.port);
    site.serve('/start', { kind: 'redirect', location: `http://intranet.corp.iris-test:${site.port}/secret` });
    site.serve('/secret', { kind: 'page', contentType: 'text/plain', body: 'secret' });
    const resolve = resolverTo('127.0.0.1');
    const result = await run({ urls: ['http://public.iris-test.invalid/start'] }, { env: { HTTP_PROXY: proxy.url, NO_PROXY: 'corp.iris-test' }, resolve });
    expect(result).toEqual({
      ok: false,
      content: `Source: http://public.iris-test.invalid/start\nError: redirected to http://intranet.corp.iris-test:${site.port}/secret: refused: intranet.corp.iris-test (127.0.0.1) is loopback`,
    });
    expect(resolve.asked).toEqual(['intranet.corp.iris-test']);
    expect(proxy.targets).toEqual(['public.iris-test.invalid:80']);
    expect(site.requests.map((r) => r.path)).toEqual(['/start']);
  });

  it('a host in NO_PROXY bypasses the proxy and gets the full check again', async () => {
    proxy = await startConnectProxy(site.port);
    const resolve = resolverTo('127.0.0.1');
    const url = `http://intranet.iris-test.invalid:${site.port}/`;
    const result = await run({ urls: [url] }, { env: { HTTP_PROXY: proxy.url, NO_PROXY: 'iris-test.invalid' }, resolve });
    expect(result.content).toBe(`Source: ${url}\nError: refused: intranet.iris-test.invalid (127.0.0.1) is loopback`);
    expect(proxy.targets).toEqual([]);
    expect(resolve.asked).toEqual(['intranet.iris-test.invalid']);
  });
});

describe('web_extract summarising long pages', () => {
  const { html, lateFact } = longPage();

  function recordingSummarizer(answer: Awaited<ReturnType<Summarize>>): Summarize & { prompts: string[] } {
    const prompts: string[] = [];
    const summarize: Summarize = (prompt) => {
      prompts.push(prompt);
      return Promise.resolve(answer);
    };
    return Object.assign(summarize, { prompts });
  }

  it('hands a page over 4,000 characters to the summariser with the question, and says so', async () => {
    site.serve('/long', { kind: 'page', body: html });
    const summarize = recordingSummarizer({ ok: true, text: 'Extension 4417, during the equinox.' });
    const result = await run({ urls: [`${site.url}/long`], question: 'How do I reach the harbour master?' }, { allowPrivate: true, summarize });
    expect(summarize.prompts).toHaveLength(1);
    expect(summarize.prompts[0]).toContain('How do I reach the harbour master?');
    expect(summarize.prompts[0]).toContain(lateFact);
    expect(summarize.prompts[0]).toContain(`Page: ${site.url}/long`);
    expect(result).toEqual({
      ok: true,
      content: expect.stringMatching(
        /^Source: http:\/\/127\.0\.0\.1:\d+\/long\nTitle: A long history of Lune harbour\nSummarised by the web_extract model towards the question from [\d,]+ characters of page text\.\n\nExtension 4417, during the equinox\.$/,
      ) as unknown,
    });
  });

  it('gives the start of the page, and why, when the summariser fails', async () => {
    site.serve('/long', { kind: 'page', body: html });
    const summarize = recordingSummarizer({ ok: false, error: 'no usable model' });
    const result = await run({ urls: [`${site.url}/long`] }, { allowPrivate: true, summarize });
    expect(result.ok).toBe(true);
    expect(result.content).toMatch(/\nOnly the first 4,000 of [\d,]+ characters: the web_extract model failed \(no usable model\)\.\n\nSection 1 of the harbour history/);
    expect(result.content).not.toContain(lateFact);
  });

  it('returns short pages whole without calling the summariser', async () => {
    site.serve('/short', { kind: 'page', body: articlePage('Short', TIDES_PARAGRAPHS) });
    const summarize = recordingSummarizer({ ok: true, text: 'unused' });
    const result = await run({ urls: [`${site.url}/short`] }, { allowPrivate: true, summarize });
    expect(result.content).toContain('The tides of Lune follow');
    expect(summarize.prompts).toEqual([]);
  });
});
