// The adapter against the fake signal-cli daemon on loopback: what reaches the sink, and what goes
// on the wire for sends, typing and checks.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeSignal } from '../../../test/fakes/signal-daemon.js';
import type { FakeSignal, FakeSignalOptions } from '../../../test/fakes/signal-daemon.js';
import type { InboundMessage, PlatformAdapter, PlatformLog } from '../types.js';
import { HTTP_URL_NOT_SET, createSignalAdapter } from './adapter.js';

const BOT = '+15550000000';
const ADA = '+15551234567';
const BOB = '+15557654321';
const GROUP = 'Pmpi+EfPWmsxiomLe9Nx2XF9HOE483p6iKiFj65iMwI=';
const FAST = { firstMs: 20, maxMs: 100 };

type LogLine = { level: 'debug' | 'info' | 'warn' | 'error'; fields: object; message: string };

function captureLog(): PlatformLog & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at = (level: LogLine['level']) => (fields: object, message: string) => void lines.push({ level, fields, message });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

function extra(httpUrl: string, account = BOT) {
  return { allowed_users: [], owners: [], allow_all_users: false, home_channel: '', group_sessions_per_user: true, http_url: httpUrl, account };
}

async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

let fake: FakeSignal | undefined;
let adapter: PlatformAdapter | undefined;
afterEach(async () => {
  await adapter?.stop();
  await fake?.close();
  adapter = undefined;
  fake = undefined;
});

async function setup(options: Partial<FakeSignalOptions> = {}, account = BOT) {
  fake = await startFakeSignal({ account: BOT, ...options });
  const log = captureLog();
  adapter = createSignalAdapter({ extra: extra(fake.url, account), log, backoff: FAST });
  const received: InboundMessage[] = [];
  return { fake, adapter, log, received, sink: async (message: InboundMessage) => void received.push(message) };
}

describe('signal adapter: receiving', () => {
  it('hands messages to the sink one at a time, in order', async () => {
    const { fake, adapter, received } = await setup();
    let inSink = 0;
    let most = 0;
    await adapter.start(async (message) => {
      inSink++;
      most = Math.max(most, inSink);
      await new Promise((resolve) => setTimeout(resolve, 10));
      received.push(message);
      inSink--;
    });
    await fake.waitForConnections(1);
    const stamps = [
      fake.pushMessage({ from: ADA, text: 'one', sourceName: 'Ada' }),
      fake.pushMessage({ from: ADA, text: 'two', sourceName: 'Ada' }),
      fake.pushMessage({ from: BOB, text: 'three' }),
    ];
    await until(() => received.length === 3, 'three messages');
    expect(most).toBe(1);
    expect(received.map((m) => m.text)).toEqual(['one', 'two', 'three']);
    expect(received[0]).toEqual({
      platform: 'signal',
      chatId: ADA,
      threadId: null,
      messageId: `${ADA}:${stamps[0]}`,
      userId: ADA,
      userName: 'Ada',
      text: 'one',
      isDirect: true,
      receivedAt: stamps[0],
    });
    expect(received[2]).toMatchObject({ chatId: BOB, userId: BOB, userName: null, messageId: `${BOB}:${stamps[2]}` });
    expect(adapter.state()).toEqual({ connected: true, detail: `receiving from ${fake.url}` });
    expect(fake.requests).toEqual([{ kind: 'events', query: { account: BOT } }]);
  });

  it('gives a group message the chat group.<id>, and answers it with groupId', async () => {
    const { fake, adapter, received, sink } = await setup();
    await adapter.start(sink);
    fake.pushMessage({ from: ADA, text: 'hello team', groupId: GROUP });
    await until(() => received.length === 1, 'the group message');
    expect(received[0]).toMatchObject({ chatId: `group.${GROUP}`, isDirect: false, userId: ADA });

    const result = await adapter.send({ chatId: `group.${GROUP}`, threadId: null, text: 'hi all' });
    const [sent] = await fake.waitForSent(1);
    expect(result).toEqual({ ok: true, messageId: String(sent?.timestamp) });
    expect(fake.requests.filter((r) => r.kind === 'rpc')).toEqual([
      { kind: 'rpc', method: 'send', params: { groupId: GROUP, message: 'hi all', account: BOT }, id: 1, contentType: 'application/json' },
    ]);
  });

  it('logs a malformed event at warn and still delivers the next one', async () => {
    const { fake, adapter, received, sink, log } = await setup();
    await adapter.start(sink);
    fake.pushRaw('receive', '{"envelope":');
    fake.pushRaw('receive', JSON.stringify({ account: BOT, envelope: { timestamp: 'x' } }));
    fake.pushMessage({ from: ADA, text: 'after' });
    await until(() => received.length === 1, 'the good message');
    expect(received[0]?.text).toBe('after');
    const warnings = log.lines.filter((line) => line.level === 'warn');
    expect(warnings.map((line) => line.message)).toEqual([
      'signal: malformed receive event skipped',
      'signal: malformed receive event skipped',
    ]);
    expect(warnings[0]?.fields).toEqual({ platform: 'signal', detail: 'the event data is not JSON' });
  });

  it('skips receipts, typing and own messages without a warning', async () => {
    const { fake, adapter, received, sink, log } = await setup();
    await adapter.start(sink);
    const base = { source: ADA, sourceNumber: ADA, sourceUuid: null, sourceName: null, sourceDevice: 1, timestamp: 1 };
    fake.pushRaw('receive', JSON.stringify({ account: BOT, envelope: { ...base, receiptMessage: { when: 1, isDelivery: true } } }));
    fake.pushRaw('receive', JSON.stringify({ account: BOT, envelope: { ...base, typingMessage: { action: 'STARTED', timestamp: 1 } } }));
    fake.pushMessage({ from: BOT, text: 'note to self' });
    fake.pushMessage({ from: ADA, text: 'real' });
    await until(() => received.length === 1, 'the real message');
    expect(received.map((m) => m.text)).toEqual(['real']);
    expect(log.lines.filter((line) => line.level === 'warn' || line.level === 'error')).toEqual([]);
    expect(log.lines.filter((line) => line.message === 'signal: event skipped').map((line) => (line.fields as { skip: string }).skip)).toEqual([
      'not_a_message',
      'not_a_message',
      'own_account',
    ]);
  });

  it('logs a sink failure at error with the message id and goes on', async () => {
    const { fake, adapter, received, log } = await setup();
    await adapter.start(async (message) => {
      if (message.text === 'bad') throw new Error('disk full');
      received.push(message);
    });
    const stamp = fake.pushMessage({ from: ADA, text: 'bad' });
    fake.pushMessage({ from: ADA, text: 'good' });
    await until(() => received.length === 1, 'the second message');
    expect(received[0]?.text).toBe('good');
    const errors = log.lines.filter((line) => line.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.fields).toEqual({ platform: 'signal', messageId: `${ADA}:${stamp}`, chatId: ADA, error: 'disk full' });
  });

  it.each([false, true])('reconnects when the stream is cut (graceful end: %s) and keeps receiving', async (graceful) => {
    const { fake, adapter, received, sink, log } = await setup();
    await adapter.start(sink);
    fake.pushMessage({ from: ADA, text: 'before' });
    await until(() => received.length === 1, 'the first message');
    fake.dropStreams({ graceful });
    await until(() => !adapter.state().connected, 'the adapter to notice');
    fake.pushMessage({ from: ADA, text: 'after' });
    await fake.waitForConnections(2);
    await until(() => received.length === 2, 'the message after the reconnect');
    expect(received.map((m) => m.text)).toEqual(['before', 'after']);
    expect(adapter.state().connected).toBe(true);
    expect(fake.requests.filter((r) => r.kind === 'events')).toHaveLength(2);
    expect(log.lines.some((line) => line.level === 'warn' && line.message === 'signal: event stream lost, reconnecting')).toBe(true);
  });

  it('says the HTTP status when the daemon refuses the stream, and recovers', async () => {
    const { fake, adapter, received, sink } = await setup();
    fake.failNext('events', { httpStatus: 500 }, 3);
    await adapter.start(sink);
    await until(() => adapter.state().detail.includes('HTTP 500'), 'the HTTP status in the state');
    expect(adapter.state()).toEqual({ connected: false, detail: 'the signal-cli daemon answered HTTP 500 for the event stream' });
    await fake.waitForConnections(1);
    fake.pushMessage({ from: ADA, text: 'back' });
    await until(() => received.length === 1, 'the message after recovery');
    expect(fake.requests.filter((r) => r.kind === 'events')).toHaveLength(4);
  });

  it('doubles the pause while failing and starts again from the first once connected', async () => {
    fake = await startFakeSignal({ account: BOT });
    const f = fake;
    const attempts: number[] = [];
    const timingFetch: typeof fetch = (input, init) => {
      attempts.push(Date.now());
      return fetch(input, init);
    };
    const received: InboundMessage[] = [];
    f.failNext('events', { httpStatus: 503 }, 5);
    adapter = createSignalAdapter({ extra: extra(f.url), log: captureLog(), backoff: { firstMs: 20, maxMs: 2_000 }, fetch: timingFetch });
    await adapter.start(async (message) => void received.push(message));
    await f.waitForConnections(1);
    // Five failures: pauses of 20, 40, 80, 160 and 320 ms before the sixth attempt.
    const gaps = attempts.slice(1).map((at, i) => at - (attempts[i] ?? at));
    expect(gaps).toHaveLength(5);
    expect(gaps[4]).toBeGreaterThanOrEqual(310);
    expect(gaps[4]).toBeGreaterThan(gaps[0] ?? 0);
    const cut = Date.now();
    f.dropStreams();
    await f.waitForConnections(2);
    // Back to 20 ms, not the 640 ms the doubling had reached.
    expect(Date.now() - cut).toBeLessThan(450);
  });

  it('reconnects a stream that went silent (no keep-alive)', async () => {
    fake = await startFakeSignal({ account: BOT, keepAliveMs: 60_000 });
    const f = fake;
    const received: InboundMessage[] = [];
    adapter = createSignalAdapter({ extra: extra(f.url), log: captureLog(), backoff: FAST, idleTimeoutMs: 80 });
    await adapter.start(async (message) => void received.push(message));
    await f.waitForConnections(2);
    f.pushMessage({ from: ADA, text: 'still here' });
    await until(() => received.length === 1, 'a message on a new stream');
    expect(received[0]?.text).toBe('still here');
  });

  it('keeps a quiet stream that gets keep-alives', async () => {
    fake = await startFakeSignal({ account: BOT, keepAliveMs: 20 });
    const f = fake;
    adapter = createSignalAdapter({ extra: extra(f.url), log: captureLog(), backoff: FAST, idleTimeoutMs: 150 });
    await adapter.start(async () => undefined);
    await f.waitForConnections(1);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(f.requests.filter((r) => r.kind === 'events')).toHaveLength(1);
    expect(adapter.state().connected).toBe(true);
  });

  it('asks whether the daemon holds the account when the stream is refused with 400', async () => {
    const { adapter, fake } = await setup({}, '+15553333333');
    await adapter.start(async () => undefined);
    await until(() => adapter.state().detail.includes('HTTP 400'), 'the refusal in the state');
    expect(adapter.state()).toEqual({
      connected: false,
      detail: 'the signal-cli daemon answered HTTP 400 for the event stream (does it hold +15553333333?)',
    });
    expect(fake.requests[0]).toEqual({ kind: 'events', query: { account: '+15553333333' } });
  });

  it('says the daemon is unreachable, and keeps trying', async () => {
    const gone = await startFakeSignal({ account: BOT });
    const url = gone.url;
    await gone.close();
    const calls: string[] = [];
    const countingFetch: typeof fetch = (input, init) => {
      calls.push(input instanceof Request ? input.url : input.toString());
      return fetch(input, init);
    };
    adapter = createSignalAdapter({ extra: extra(url), log: captureLog(), backoff: FAST, fetch: countingFetch });
    await adapter.start(async () => undefined);
    await until(() => calls.length >= 3, 'three connection attempts');
    expect(adapter.state()).toEqual({ connected: false, detail: 'signal-cli daemon unreachable: ECONNREFUSED' });
    expect(calls[0]).toBe(`${url}/api/v1/events?account=%2B15550000000`);
  });

  it('stops promptly, closing the stream', async () => {
    const { fake, adapter, sink } = await setup();
    await adapter.start(sink);
    await fake.waitForConnections(1);
    await until(() => adapter.state().connected, 'connected');
    const began = Date.now();
    await adapter.stop();
    expect(Date.now() - began).toBeLessThan(1_000);
    expect(adapter.state()).toEqual({ connected: false, detail: 'stopped' });
    await until(() => fake.streamCount() === 0, 'the daemon to see the stream close');
    expect(fake.requests.filter((r) => r.kind === 'events')).toHaveLength(1);
  });

  it('does nothing without http_url, and says why', async () => {
    const calls: string[] = [];
    const recordingFetch: typeof fetch = async (input) => {
      calls.push(input instanceof Request ? input.url : input.toString());
      throw new Error('no fetch expected');
    };
    adapter = createSignalAdapter({ extra: extra(''), log: captureLog(), fetch: recordingFetch });
    await adapter.start(async () => undefined);
    expect(adapter.state()).toEqual({ connected: false, detail: HTTP_URL_NOT_SET });
    expect(await adapter.send({ chatId: ADA, threadId: null, text: 'x' })).toEqual({ ok: false, kind: 'permanent', reason: HTTP_URL_NOT_SET });
    expect(await adapter.check()).toEqual({ ok: false, reason: HTTP_URL_NOT_SET });
    expect(calls).toEqual([]);
  });
});

describe('signal adapter: sending', () => {
  it('sends to a number with recipient and account, the timestamp as message id', async () => {
    const { fake, adapter } = await setup();
    const result = await adapter.send({ chatId: ADA, threadId: null, text: 'hello **there**' });
    expect(fake.sent).toEqual([{ recipient: [ADA], groupId: null, message: 'hello **there**', account: BOT, timestamp: expect.any(Number) as number }]);
    expect(result).toEqual({ ok: true, messageId: String(fake.sent[0]?.timestamp) });
    expect(fake.requests).toEqual([
      { kind: 'rpc', method: 'send', params: { recipient: [ADA], message: 'hello **there**', account: BOT }, id: 1, contentType: 'application/json' },
    ]);
  });

  it('leaves account out when none is configured', async () => {
    const { fake, adapter } = await setup({}, '');
    await adapter.send({ chatId: ADA, threadId: null, text: 'x' });
    expect(fake.requests[0]).toMatchObject({ params: { recipient: [ADA], message: 'x' } });
    expect((fake.requests[0] as { params: object }).params).not.toHaveProperty('account');
  });

  it('prepares Markdown as plain text', async () => {
    const { adapter } = await setup();
    expect(adapter.prepare?.('# Title\n**bold** and [a link](https://example.com)')).toBe('Title\nbold and a link (https://example.com)');
  });

  it('retries on HTTP 429 (with Retry-After) and 500, and on the rate-limit error with its wait', async () => {
    const { fake, adapter } = await setup();
    fake.failNext('send', { httpStatus: 429, headers: { 'retry-after': '4' } });
    fake.failNext('send', { httpStatus: 500 });
    fake.failNext('send', {
      rpcError: {
        code: -5,
        message: 'Failed to send message due to rate limiting',
        data: { response: { timestamp: 1, results: [{ recipientAddress: { uuid: null, number: ADA, username: null }, type: 'RATE_LIMIT_FAILURE', retryAfterSeconds: 9 }] } },
      },
    });
    const message = { chatId: ADA, threadId: null, text: 'x' };
    expect(await adapter.send(message)).toEqual({ ok: false, kind: 'retry', reason: 'HTTP 429 from the signal-cli daemon', retryAfterMs: 4000 });
    expect(await adapter.send(message)).toEqual({ ok: false, kind: 'retry', reason: 'HTTP 500 from the signal-cli daemon' });
    expect(await adapter.send(message)).toEqual({
      ok: false,
      kind: 'retry',
      reason: 'signal-cli error -5: Failed to send message due to rate limiting',
      retryAfterMs: 9000,
    });
    expect(await adapter.send(message)).toMatchObject({ ok: true });
    expect(fake.sent).toHaveLength(1);
  });

  it('gives up on a recipient that is not on Signal, and on an unknown group', async () => {
    const { fake, adapter } = await setup({ unregistered: [BOB] });
    expect(await adapter.send({ chatId: BOB, threadId: null, text: 'x' })).toEqual({
      ok: false,
      kind: 'permanent',
      reason: `signal-cli error -1: The user ${BOB} is not registered.`,
    });
    expect(await adapter.send({ chatId: `group.${GROUP}`, threadId: null, text: 'x' })).toEqual({
      ok: false,
      kind: 'permanent',
      reason: `signal-cli error -1: Group not found: ${GROUP}`,
    });
    expect(fake.sent).toEqual([]);
  });

  it('retries when the daemon is unreachable', async () => {
    const gone = await startFakeSignal({ account: BOT });
    await gone.close();
    adapter = createSignalAdapter({ extra: extra(gone.url), log: captureLog() });
    expect(await adapter.send({ chatId: ADA, threadId: null, text: 'x' })).toEqual({
      ok: false,
      kind: 'retry',
      reason: 'signal-cli daemon unreachable: ECONNREFUSED',
    });
  });

  it('shows typing with sendTyping, and ignores its failures', async () => {
    const { fake, adapter } = await setup({ groups: [GROUP] });
    await adapter.typing?.(ADA, null);
    await adapter.typing?.(`group.${GROUP}`, null);
    fake.failNext('sendTyping', { httpStatus: 500 });
    await expect(adapter.typing?.(ADA, null)).resolves.toBeUndefined();
    expect(fake.requests.map((r) => (r.kind === 'rpc' ? [r.method, r.params] : r.kind))).toEqual([
      ['sendTyping', { recipient: [ADA], account: BOT }],
      ['sendTyping', { groupId: GROUP, account: BOT }],
      ['sendTyping', { recipient: [ADA], account: BOT }],
    ]);
  });
});

describe('signal adapter: check', () => {
  it('is ok when the daemon answers and holds the account', async () => {
    const { fake, adapter } = await setup();
    expect(await adapter.check()).toEqual({ ok: true, detail: `the signal-cli daemon at ${fake.url} answers and holds ${BOT}` });
    expect(fake.requests.map((r) => (r.kind === 'rpc' ? r.method : r.kind))).toEqual(['check', 'listAccounts']);
  });

  it('fails when the daemon does not hold the configured account', async () => {
    const { fake, adapter } = await setup({}, '+15553333333');
    expect(await adapter.check()).toEqual({
      ok: false,
      reason: `the signal-cli daemon at ${fake.url} does not hold the account +15553333333 (it has: ${BOT})`,
    });
  });

  it('is ok for a single-account daemon, which has no listAccounts', async () => {
    const { adapter } = await setup({ mode: 'single' });
    expect(await adapter.check()).toMatchObject({ ok: true, detail: expect.stringContaining('single-account mode') as string });
  });

  it('reports an HTTP status and an unreachable daemon', async () => {
    const { fake, adapter } = await setup();
    fake.failNext('check', { httpStatus: 503 });
    expect(await adapter.check()).toEqual({ ok: false, reason: `the signal-cli daemon at ${fake.url} answered HTTP 503` });
    const url = fake.url;
    await fake.close();
    expect(await adapter.check()).toEqual({ ok: false, reason: `signal-cli daemon unreachable at ${url}: ECONNREFUSED`, cause: 'unreachable' });
  });
});
