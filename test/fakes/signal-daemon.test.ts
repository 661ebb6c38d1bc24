// The fake's protocol, spoken to with plain fetch and node:http: what signal-cli's HTTP daemon
// answers is what the adapter is tested against, so it is pinned here.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeSignal } from './signal-daemon.js';
import type { FakeSignal } from './signal-daemon.js';

const BOT = '+15550000000';
const ADA = '+15551234567';
const GROUP = 'Pmpi+EfPWmsxiomLe9Nx2XF9HOE483p6iKiFj65iMwI=';

let fake: FakeSignal | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function rpc(f: FakeSignal, body: unknown, contentType = 'application/json') {
  const response = await fetch(`${f.url}/api/v1/rpc`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, json: text ? (JSON.parse(text) as unknown) : undefined };
}

/** Reads an event stream until `count` events arrived; returns the raw text. */
async function readEvents(f: FakeSignal, count: number, query = ''): Promise<string> {
  const controller = new AbortController();
  const response = await fetch(`${f.url}/api/v1/events${query}`, { signal: controller.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (text.split('\n\n').length - 1 < count) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  controller.abort();
  return text;
}

describe('fake signal-cli daemon', () => {
  it('answers /api/v1/check with 200 and no body, and 404/405 like the daemon', async () => {
    fake = await startFakeSignal({ account: BOT });
    const check = await fetch(`${fake.url}/api/v1/check`);
    expect(check.status).toBe(200);
    expect(await check.text()).toBe('');
    expect((await fetch(`${fake.url}/api/v1/nope`)).status).toBe(404);
    expect((await fetch(`${fake.url}/api/v1/rpc`)).status).toBe(405);
    expect((await fetch(`${fake.url}/api/v1/events`, { method: 'POST' })).status).toBe(405);
  });

  it('sends a message to a number and records it', async () => {
    fake = await startFakeSignal({ account: BOT });
    const answer = await rpc(fake, { jsonrpc: '2.0', id: 4, method: 'send', params: { recipient: [ADA], message: 'hi', account: BOT } });
    expect(answer.status).toBe(200);
    const body = answer.json as { jsonrpc: string; id: number; result: { timestamp: number; results: unknown[] } };
    expect(body).toEqual({
      jsonrpc: '2.0',
      id: 4,
      result: { timestamp: expect.any(Number) as number, results: [{ recipientAddress: { uuid: null, number: ADA, username: null }, type: 'SUCCESS' }] },
    });
    expect(fake.sent).toEqual([{ recipient: [ADA], groupId: null, message: 'hi', account: BOT, timestamp: body.result.timestamp }]);
    expect(fake.requests).toEqual([
      { kind: 'rpc', method: 'send', params: { recipient: [ADA], message: 'hi', account: BOT }, id: 4, contentType: 'application/json' },
    ]);
  });

  it('accepts a group id once the group is known, and refuses an unknown one as signal-cli does', async () => {
    fake = await startFakeSignal({ account: BOT, groups: [GROUP] });
    const ok = await rpc(fake, { jsonrpc: '2.0', id: 1, method: 'send', params: { groupId: GROUP, message: 'all' } });
    expect(ok.json).toMatchObject({ result: { timestamp: expect.any(Number) as number } });
    expect(fake.sent[0]).toMatchObject({ recipient: [], groupId: GROUP, message: 'all' });
    const other = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
    const unknown = await rpc(fake, { jsonrpc: '2.0', id: 2, method: 'send', params: { groupId: other, message: 'x' } });
    expect(unknown.json).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -1, message: `Group not found: ${other}`, data: null } });
  });

  it.each([
    ['no recipient', { message: 'x' }, -1, 'No recipients given'],
    ['an empty message', { recipient: [ADA] }, -1, 'Sending empty message is not allowed, either a message, attachment or sticker must be given.'],
    ['an unknown account', { recipient: [ADA], message: 'x', account: '+15557777777' }, -32602, 'Specified account does not exist'],
    ['an unregistered user', { recipient: ['+15559999999'], message: 'x' }, -1, 'The user +15559999999 is not registered.'],
  ])('answers %s with the error signal-cli gives', async (_kind, params, code, message) => {
    fake = await startFakeSignal({ account: BOT, unregistered: ['+15559999999'] });
    const answer = await rpc(fake, { jsonrpc: '2.0', id: 'a', method: 'send', params });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ jsonrpc: '2.0', id: 'a', error: { code, message, data: null } });
    expect(fake.sent).toEqual([]);
  });

  it('answers an unknown method -32601, bad JSON -32700, a missing method -32600', async () => {
    fake = await startFakeSignal({ account: BOT });
    expect((await rpc(fake, { jsonrpc: '2.0', id: 1, method: 'fly' })).json).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32601, message: 'Method not implemented', data: null },
    });
    expect((await rpc(fake, '{nope')).json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect((await rpc(fake, { jsonrpc: '2.0' })).json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'method field must be set', data: null },
    });
  });

  it('answers a notification 201 with no body, and a body not sent as JSON 415', async () => {
    fake = await startFakeSignal({ account: BOT });
    const notification = await rpc(fake, { jsonrpc: '2.0', method: 'send', params: { recipient: [ADA], message: 'n' } });
    expect(notification).toMatchObject({ status: 201, text: '' });
    expect(fake.sent).toHaveLength(1);
    expect((await rpc(fake, { jsonrpc: '2.0', id: 1, method: 'version' }, 'text/plain')).status).toBe(415);
  });

  it('lists its account in multi-account mode; single-account mode has no listAccounts', async () => {
    fake = await startFakeSignal({ account: BOT });
    expect((await rpc(fake, { jsonrpc: '2.0', id: 1, method: 'listAccounts' })).json).toEqual({ jsonrpc: '2.0', id: 1, result: [{ number: BOT }] });
    await fake.close();
    fake = await startFakeSignal({ account: BOT, mode: 'single' });
    expect((await rpc(fake, { jsonrpc: '2.0', id: 1, method: 'listAccounts' })).json).toMatchObject({ error: { code: -32601 } });
  });

  it('refuses a foreign Host header with 421', async () => {
    fake = await startFakeSignal({ account: BOT });
    const { port } = new URL(fake.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/api/v1/rpc', method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end('{}');
    });
    expect(status).toBe(421);
  });

  it('streams a pushed message as the receive event signal-cli writes, queued until a client connects', async () => {
    fake = await startFakeSignal({ account: BOT });
    const ts = fake.pushMessage({ from: ADA, text: 'hello', sourceName: 'Ada', groupId: GROUP });
    const text = await readEvents(fake, 1);
    const match = /^event:receive\ndata:(.*)\n\n$/.exec(text);
    expect(match).not.toBeNull();
    expect(JSON.parse(match?.[1] ?? '')).toEqual({
      account: BOT,
      envelope: {
        source: ADA,
        sourceNumber: ADA,
        sourceUuid: expect.any(String) as string,
        sourceName: 'Ada',
        sourceDevice: 1,
        timestamp: ts,
        serverReceivedTimestamp: ts + 5,
        serverDeliveredTimestamp: ts + 10,
        dataMessage: {
          timestamp: ts,
          message: 'hello',
          expiresInSeconds: 0,
          viewOnce: false,
          groupInfo: { groupId: GROUP, groupName: 'Group', revision: 1, type: 'DELIVER' },
        },
      },
    });
    expect(fake.requests).toEqual([{ kind: 'events', query: {} }]);
  });

  it('sends raw events as given, and keep-alives as a bare colon line', async () => {
    fake = await startFakeSignal({ account: BOT, keepAliveMs: 20 });
    fake.pushRaw('receive', '{broken');
    const text = await readEvents(fake, 1);
    expect(text.startsWith('event:receive\ndata:{broken\n\n')).toBe(true);
    const controller = new AbortController();
    const response = await fetch(`${fake.url}/api/v1/events`, { signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const { value } = await reader.read();
    controller.abort();
    expect(new TextDecoder().decode(value)).toBe(':\n');
  });

  it('answers 400 for events of an unknown account in multi-account mode', async () => {
    fake = await startFakeSignal({ account: BOT });
    expect((await fetch(`${fake.url}/api/v1/events?account=%2B15557777777`)).status).toBe(400);
  });

  it('injects faults for a number of calls, then behaves again', async () => {
    fake = await startFakeSignal({ account: BOT });
    fake.failNext('send', { httpStatus: 503 });
    fake.failNext('send', { rpcError: { code: -5, message: 'Failed to send message due to rate limiting' } });
    const params = { recipient: [ADA], message: 'x' };
    expect((await rpc(fake, { jsonrpc: '2.0', id: 1, method: 'send', params })).status).toBe(503);
    expect((await rpc(fake, { jsonrpc: '2.0', id: 2, method: 'send', params })).json).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -5, message: 'Failed to send message due to rate limiting', data: null },
    });
    expect((await rpc(fake, { jsonrpc: '2.0', id: 3, method: 'send', params })).json).toMatchObject({ id: 3, result: {} });
    expect(fake.sent).toHaveLength(1);
    fake.failNext('check', { httpStatus: 500 }, 2);
    expect((await fetch(`${fake.url}/api/v1/check`)).status).toBe(500);
    expect((await fetch(`${fake.url}/api/v1/check`)).status).toBe(500);
    expect((await fetch(`${fake.url}/api/v1/check`)).status).toBe(200);
  });

  it('waitForSent times out with a clear message', async () => {
    fake = await startFakeSignal({ account: BOT });
    await expect(fake.waitForSent(1, 30)).rejects.toThrow(/1 sent message/);
  });
});
