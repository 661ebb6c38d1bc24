// The client on a stand-in fetch: what it sends, how it reads each kind of answer, and that the
// token never shows in what it reports. The real HTTP path is covered in adapter.test.ts.
import { describe, expect, it } from 'vitest';
import { createBotApi, redactToken } from './bot-api.js';

const TOKEN = '123456:AAE-secret_Token';

type Seen = { url: string; init: RequestInit };

function stubFetch(answer: (seen: Seen) => Promise<Response> | Response): { fetch: typeof fetch; seen: Seen[] } {
  const seen: Seen[] = [];
  const fetchStub = (async (input: string | URL | Request, init?: RequestInit) => {
    const entry = { url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, init: init ?? {} };
    seen.push(entry);
    return answer(entry);
  }) as typeof fetch;
  return { fetch: fetchStub, seen };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('createBotApi', () => {
  it('POSTs JSON to <api_base>/bot<token>/<method> and returns the result', async () => {
    const stub = stubFetch(() => json(200, { ok: true, result: { username: 'iris_bot' } }));
    const api = createBotApi({ apiBase: 'https://api.example/', token: TOKEN, fetch: stub.fetch });
    expect(await api.call('getMe', { a: 1 })).toEqual({ ok: true, result: { username: 'iris_bot' } });
    expect(stub.seen[0]?.url).toBe(`https://api.example/bot${TOKEN}/getMe`);
    expect(stub.seen[0]?.init.method).toBe('POST');
    expect(stub.seen[0]?.init.body).toBe('{"a":1}');
    expect(stub.seen[0]?.init.headers).toEqual({ 'content-type': 'application/json' });
  });

  it('reads Telegram\'s error shape, retry_after in milliseconds', async () => {
    const stub = stubFetch(() =>
      json(429, { ok: false, error_code: 429, description: 'Too Many Requests: retry after 4', parameters: { retry_after: 4 } }),
    );
    const api = createBotApi({ apiBase: 'https://api.example', token: TOKEN, fetch: stub.fetch });
    expect(await api.call('sendMessage')).toEqual({
      ok: false,
      kind: 'api',
      status: 429,
      errorCode: 429,
      description: 'Too Many Requests: retry after 4',
      retryAfterMs: 4000,
    });
  });

  it('describes a non-JSON error page by its status', async () => {
    const stub = stubFetch(() => new Response('<html>502 Bad Gateway</html>', { status: 502 }));
    const api = createBotApi({ apiBase: 'https://api.example', token: TOKEN, fetch: stub.fetch });
    expect(await api.call('getUpdates')).toEqual({
      ok: false,
      kind: 'api',
      status: 502,
      errorCode: 502,
      description: 'HTTP 502 without a Bot API answer',
    });
  });

  it('does not take ok:true from a non-2xx answer', async () => {
    const stub = stubFetch(() => json(500, { ok: true, result: [] }));
    const api = createBotApi({ apiBase: 'https://api.example', token: TOKEN, fetch: stub.fetch });
    expect(await api.call('getUpdates')).toMatchObject({ ok: false, status: 500 });
  });

  it('returns a network failure without the token, even when the error quotes the URL', async () => {
    const stub = stubFetch(({ url }) => {
      throw new TypeError('fetch failed', { cause: new Error(`connect ECONNREFUSED for ${url}`) });
    });
    const api = createBotApi({ apiBase: 'https://api.example', token: TOKEN, fetch: stub.fetch });
    const result = await api.call('getMe');
    expect(result).toEqual({
      ok: false,
      kind: 'network',
      reason: 'fetch failed: connect ECONNREFUSED for https://api.example/bot<redacted>/getMe',
      timedOut: false,
    });
    expect(JSON.stringify(result)).not.toContain('secret');
  });

  it('gives up after the timeout', async () => {
    const stub = stubFetch(
      ({ init }) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const api = createBotApi({ apiBase: 'https://api.example', token: TOKEN, fetch: stub.fetch });
    expect(await api.call('getUpdates', {}, { timeoutMs: 30 })).toEqual({ ok: false, kind: 'network', reason: 'no answer within 30 ms', timedOut: true });
  });

  it('reports an abort by the caller as aborted, not timed out', async () => {
    const stub = stubFetch(
      ({ init }) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const api = createBotApi({ apiBase: 'https://api.example', token: TOKEN, fetch: stub.fetch });
    const controller = new AbortController();
    const pending = api.call('getUpdates', {}, { signal: controller.signal, timeoutMs: 10_000 });
    controller.abort();
    expect(await pending).toEqual({ ok: false, kind: 'network', reason: 'aborted', timedOut: false });
  });
});

describe('redactToken', () => {
  it('removes the token and any /bot…/ segment', () => {
    expect(redactToken(`GET https://h/bot${TOKEN}/getMe and ${TOKEN}`, TOKEN)).toBe('GET https://h/bot<redacted>/getMe and <redacted>');
    expect(redactToken('https://h/bot999:other/sendMessage', TOKEN)).toBe('https://h/bot<redacted>/sendMessage');
  });
});
