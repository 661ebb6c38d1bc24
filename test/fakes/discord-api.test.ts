// The fake Discord itself: the frames it speaks and the REST answers the adapter relies on.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { INTENT_DIRECT_MESSAGES, INTENT_GUILD_MESSAGES, INTENT_MESSAGE_CONTENT, startFakeDiscord, type FakeDiscord } from './discord-api.js';

const TOKEN = 'fake.discord.token';
let discord: FakeDiscord;

beforeEach(async () => {
  discord = await startFakeDiscord({ token: TOKEN, heartbeatIntervalMs: 100 });
});
afterEach(() => discord.close());

async function until(predicate: () => boolean, timeoutMs = 3000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

type FrameData = { heartbeat_interval?: number; session_id?: string; resume_gateway_url?: string; content?: string; author?: { id: string }; user?: { id: string } };
type Frame = { op: number; d: FrameData; s: number | null; t: string | null };
const text = (data: WebSocket.RawData) => (Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(new Uint8Array(data))).toString('utf8');

function client(url = `${discord.gatewayUrl}/?v=10&encoding=json`) {
  const ws = new WebSocket(url);
  const frames: Frame[] = [];
  let closed: number | null = null;
  ws.on('message', (data) => frames.push(JSON.parse(text(data)) as Frame));
  ws.on('close', (code) => (closed = code));
  const next = async (pred: (f: Frame) => boolean) => {
    await until(() => frames.some(pred));
    return frames.find(pred) as Frame;
  };
  const send = (payload: object) => ws.send(JSON.stringify(payload));
  return { ws, frames, next, send, closed: () => closed };
}

const auth = { authorization: `Bot ${TOKEN}` };
const intents = INTENT_GUILD_MESSAGES | INTENT_DIRECT_MESSAGES | INTENT_MESSAGE_CONTENT;

describe('fake Discord', () => {
  it('REST: gateway url, @me, 401 on a bad token, channels', async () => {
    const gateway: unknown = await (await fetch(`${discord.url}/gateway/bot`, { headers: auth })).json();
    expect(gateway).toMatchObject({ url: discord.gatewayUrl, shards: 1 });
    expect(await (await fetch(`${discord.url}/users/@me`, { headers: auth })).json()).toMatchObject({ id: discord.botId, bot: true });
    const bad = await fetch(`${discord.url}/users/@me`, { headers: { authorization: 'Bot nope' } });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ message: '401: Unauthorized', code: 0 });
    discord.addChannel({ id: '77', type: 11, guildId: '5', parentId: '70' });
    expect(await (await fetch(`${discord.url}/channels/77`, { headers: auth })).json()).toMatchObject({ id: '77', type: 11, parent_id: '70' });
    expect((await fetch(`${discord.url}/channels/78/messages`, { method: 'POST', headers: auth })).status).toBe(404);
  });

  it('REST: sends with rate-limit headers, 429 past the budget, failNext', async () => {
    discord.setRateLimit({ limit: 2, resetAfterMs: 500 });
    discord.addChannel({ id: '10', type: 1 });
    const post = (content: string) => fetch(`${discord.url}/channels/10/messages`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ content }) });
    const first = await post('a');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    expect(first.headers.get('x-ratelimit-bucket')).toBeTruthy();
    expect((await post('b')).headers.get('x-ratelimit-remaining')).toBe('0');
    const over = await post('c');
    expect(over.status).toBe(429);
    const overBody = (await over.json()) as { global: boolean; retry_after: number };
    expect(overBody.global).toBe(false);
    expect(overBody.retry_after).toBeGreaterThan(0);
    expect(discord.violations).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 550));
    discord.failNext({ status: 429, retryAfter: 0.2, global: true });
    const limited = await post('d');
    expect(await limited.json()).toMatchObject({ retry_after: 0.2, global: true });
    expect((await post('x'.repeat(2001))).status).toBe(400);
    expect(discord.sent.map((m) => m.content)).toEqual(['a', 'b']);
  });

  it('Gateway: HELLO, IDENTIFY, READY, heartbeats, dispatches with s, bot posts echoed', async () => {
    const c = client();
    const hello = await c.next((f) => f.op === 10);
    expect(hello.d.heartbeat_interval).toBe(100);
    c.send({ op: 2, d: { token: TOKEN, intents, properties: { os: 'linux', browser: 'iris', device: 'iris' } } });
    const ready = await c.next((f) => f.t === 'READY');
    expect(ready).toMatchObject({ op: 0, s: 1, d: { user: { id: discord.botId } } });
    expect(ready.d.session_id).toMatch(/^[0-9a-f]{32}$/);
    expect(ready.d.resume_gateway_url).toMatch(/^ws:\/\//);
    c.send({ op: 1, d: 1 });
    await c.next((f) => f.op === 11);
    discord.pushMessage({ channelId: '20', authorId: '30', content: 'hi' });
    const message = await c.next((f) => f.t === 'MESSAGE_CREATE');
    expect(message.s).toBe(2);
    expect(message.d).toMatchObject({ channel_id: '20', author: { id: '30' }, content: 'hi', type: 0 });
    await fetch(`${discord.url}/channels/20/messages`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ content: 'hello' }) });
    const echo = await c.next((f) => f.t === 'MESSAGE_CREATE' && f.d.author?.id === discord.botId);
    expect(echo.s).toBe(3);
    expect(discord.opsOf(2)[0]?.d).toMatchObject({ intents });
    c.ws.close();
  });

  it('Gateway: RESUME replays what was missed then RESUMED; an invalidated session gets op 9 false', async () => {
    const c = client();
    await c.next((f) => f.op === 10);
    c.send({ op: 2, d: { token: TOKEN, intents, properties: {} } });
    const ready = await c.next((f) => f.t === 'READY');
    discord.dropSocket();
    await until(() => c.closed() !== null);
    discord.pushMessage({ channelId: '20', authorId: '30', content: 'missed' });
    const r = client(`${String(ready.d.resume_gateway_url)}/?v=10&encoding=json`);
    await r.next((f) => f.op === 10);
    r.send({ op: 6, d: { token: TOKEN, session_id: ready.d.session_id, seq: 1 } });
    const replayed = await r.next((f) => f.t === 'MESSAGE_CREATE');
    expect(replayed).toMatchObject({ s: 2, d: { content: 'missed' } });
    await r.next((f) => f.t === 'RESUMED');
    expect(discord.connections[1]?.path).toBe('/resume/');
    discord.invalidateSession();
    r.ws.terminate();
    const again = client();
    await again.next((f) => f.op === 10);
    again.send({ op: 6, d: { token: TOKEN, session_id: ready.d.session_id, seq: 3 } });
    expect((await again.next((f) => f.op === 9)).d).toBe(false);
    again.send({ op: 2, d: { token: 'wrong', intents, properties: {} } });
    await until(() => again.closed() !== null);
    expect(again.closed()).toBe(4004);
  });

  it('Gateway: RECONNECT, and no content without the MESSAGE_CONTENT intent', async () => {
    const c = client();
    await c.next((f) => f.op === 10);
    c.send({ op: 2, d: { token: TOKEN, intents: INTENT_GUILD_MESSAGES, properties: {} } });
    await c.next((f) => f.t === 'READY');
    discord.pushMessage({ channelId: '21', guildId: '5', authorId: '30', content: 'secret' });
    expect((await c.next((f) => f.t === 'MESSAGE_CREATE')).d.content).toBe('');
    discord.requestReconnect();
    await c.next((f) => f.op === 7);
    c.ws.close();
  });
});
