import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { fetchWithin } from './fetch-within.js';

/** Never answers; rejects like fetch does when its signal aborts (or already has). */
const hanging: typeof fetch = (_url, init) =>
  new Promise((_resolve, reject) => {
    const abort = () => reject(new DOMException('This operation was aborted', 'AbortError'));
    if (init?.signal?.aborted) abort();
    else init?.signal?.addEventListener('abort', abort);
  });

const refusing: typeof fetch = async () => {
  throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9 secret-token') });
};

describe('fetchWithin', () => {
  it('hands back the status, headers and body text', async () => {
    const answering: typeof fetch = async () => new Response('busy', { status: 503, headers: { 'retry-after': '9' } });
    const got = await fetchWithin(answering, 'http://fake.test/x', { method: 'POST' }, { timeoutMs: 1000 });
    expect(got.ok && { status: got.status, text: got.text, retryAfter: got.headers.get('retry-after') }).toEqual({ status: 503, text: 'busy', retryAfter: '9' });
  });

  it('gives up after the deadline and says so', async () => {
    expect(await fetchWithin(hanging, 'http://fake.test/x', {}, { timeoutMs: 20 })).toEqual({ ok: false, kind: 'network', reason: 'no answer within 20 ms', timedOut: true });
  });

  it('ends when the caller aborts, before or during the call', async () => {
    const aborted = { ok: false, kind: 'network', reason: 'aborted', timedOut: false };
    expect(await fetchWithin(hanging, 'http://fake.test/x', {}, { timeoutMs: 60_000, signal: AbortSignal.abort() })).toEqual(aborted);
    const controller = new AbortController();
    const pending = fetchWithin(hanging, 'http://fake.test/x', {}, { timeoutMs: 60_000, signal: controller.signal });
    controller.abort();
    expect(await pending).toEqual(aborted);
  });

  it('words a network failure with its cause, cleaned by redact; describe can word it otherwise', async () => {
    const redact = (text: string) => text.split('secret-token').join('<redacted>');
    expect(await fetchWithin(refusing, 'http://fake.test/x', {}, { timeoutMs: 1000, redact })).toEqual({
      ok: false,
      kind: 'network',
      reason: 'fetch failed: connect ECONNREFUSED 127.0.0.1:9 <redacted>',
      timedOut: false,
    });
    const describe = (error: unknown) => `unreachable (${(error as Error).message}) secret-token`;
    expect(await fetchWithin(refusing, 'http://fake.test/x', {}, { timeoutMs: 1000, redact, describe })).toMatchObject({ reason: 'unreachable (fetch failed) <redacted>' });
  });

  it('leaves no listener on a long-lived signal, however many calls it carried', async () => {
    const signal = new AbortController().signal;
    const answering: typeof fetch = async () => new Response('ok');
    for (let i = 0; i < 1000; i++) await fetchWithin(answering, 'http://fake.test/x', {}, { timeoutMs: 1000, signal });
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });
});
