import { describe, expect, it } from 'vitest';
import { basicAuth, createMessagesApi, redact } from './messages-api.js';

const credentials = { accountSid: 'AC0123456789abcdef0123456789abcdef', authToken: 'tok-secret-123' };

type Seen = { url: string; init: RequestInit };
function recordingFetch(respond: () => Response): typeof fetch & { seen: Seen[] } {
  const seen: Seen[] = [];
  const fake = (async (url: string | URL | Request, init?: RequestInit) => {
    seen.push({ url: typeof url === 'string' ? url : url instanceof URL ? url.href : url.url, init: init ?? {} });
    return respond();
  }) as typeof fetch & { seen: Seen[] };
  fake.seen = seen;
  return fake;
}

describe('createMessagesApi', () => {
  it('builds the Messages.json URL under api_base (trailing slash or not) with basic auth and a form body', async () => {
    const fake = recordingFetch(() => new Response('{"sid":"SM1"}', { status: 201 }));
    const api = createMessagesApi({ apiBase: 'http://fake.test/', credentials, fetch: fake });
    expect(await api.sendMessage({ to: '+1 555', from: '+2', body: 'a b' })).toEqual({ kind: 'answer', status: 201, retryAfter: null, body: { sid: 'SM1' } });
    const [call] = fake.seen;
    expect(call!.url).toBe(`http://fake.test/2010-04-01/Accounts/${credentials.accountSid}/Messages.json`);
    expect(call!.init.method).toBe('POST');
    expect(call!.init.body).toBe('To=%2B1+555&From=%2B2&Body=a+b');
    expect(call!.init.headers).toMatchObject({ 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(credentials) });
    expect(basicAuth(credentials)).toBe(`Basic ${Buffer.from(`${credentials.accountSid}:${credentials.authToken}`).toString('base64')}`);
  });

  it('fetches the account with GET {api_base}/2010-04-01/Accounts/{sid}.json', async () => {
    const fake = recordingFetch(() => new Response('{"status":"active"}', { status: 200 }));
    await createMessagesApi({ apiBase: 'http://fake.test', credentials, fetch: fake }).fetchAccount();
    expect(fake.seen.map((s) => [s.init.method, s.url])).toEqual([['GET', `http://fake.test/2010-04-01/Accounts/${credentials.accountSid}.json`]]);
  });

  it('gives up at its deadline and says so', async () => {
    const hanging: typeof fetch = (_url, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    const api = createMessagesApi({ apiBase: 'http://fake.test', credentials, fetch: hanging, timeoutMs: 30 });
    expect(await api.sendMessage({ to: '+1', from: '+2', body: 'x' })).toEqual({ kind: 'failed', reason: 'no answer from Twilio within 30 ms' });
  });

  it('a body that is not JSON is undefined; Retry-After is passed on', async () => {
    const fake = recordingFetch(() => new Response('<html>busy</html>', { status: 503, headers: { 'retry-after': '9' } }));
    expect(await createMessagesApi({ apiBase: 'http://fake.test', credentials, fetch: fake }).fetchAccount()).toEqual({ kind: 'answer', status: 503, retryAfter: '9', body: undefined });
  });

  it('takes the secrets out of whatever comes back, an answer or an error', async () => {
    const echoing = recordingFetch(() => new Response(JSON.stringify({ code: 20404, message: `no /Accounts/${credentials.accountSid} for ${credentials.authToken}` }), { status: 404 }));
    const outcome = await createMessagesApi({ apiBase: 'http://fake.test', credentials, fetch: echoing }).fetchAccount();
    expect(outcome).toMatchObject({ body: { message: 'no /Accounts/[redacted] for [redacted]' } });
    const throwing: typeof fetch = async () => {
      throw new Error(`connect failed for ${credentials.authToken}`);
    };
    expect(await createMessagesApi({ apiBase: 'http://fake.test', credentials, fetch: throwing }).fetchAccount()).toEqual({
      kind: 'failed',
      reason: 'Twilio unreachable: connect failed for [redacted]',
    });
  });
});

describe('redact', () => {
  it('replaces every occurrence of either secret, and leaves text alone when a secret is empty', () => {
    expect(redact('tok-secret-123 and tok-secret-123', credentials)).toBe('[redacted] and [redacted]');
    expect(redact('abc', { accountSid: '', authToken: '' })).toBe('abc');
  });
});
