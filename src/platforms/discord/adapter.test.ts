// The Discord adapter against the fake Discord (test/fakes/discord-api.ts): real frames over a
// real socket, real REST over HTTP.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INTENT_DIRECT_MESSAGES, INTENT_GUILD_MESSAGES, INTENT_MESSAGE_CONTENT, startFakeDiscord, type FakeDiscord } from '../../../test/fakes/discord-api.js';
import type { InboundMessage, PlatformAdapter, PlatformLog } from '../types.js';
import { createDiscordAdapter } from './adapter.js';

const TOKEN = 'MTEx.fake-discord-token.for_tests';
const ALICE = '410000000000000001';
const GUILD = '520000000000000001';
const CHANNEL = '530000000000000001';
const THREAD = '540000000000000001';
const DM = '550000000000000001';

let discord: FakeDiscord;
let adapter: PlatformAdapter;
let received: InboundMessage[];
let lines: { level: string; message: string; fields: object }[];
let failSink: number;

const log: PlatformLog = {
  debug: (fields, message) => void lines.push({ level: 'debug', message, fields }),
  info: (fields, message) => void lines.push({ level: 'info', message, fields }),
  warn: (fields, message) => void lines.push({ level: 'warn', message, fields }),
  error: (fields, message) => void lines.push({ level: 'error', message, fields }),
};

function make(token = TOKEN): PlatformAdapter {
  return createDiscordAdapter({ extra: { api_base: discord.url }, env: { DISCORD_BOT_TOKEN: token }, log, backoff: { firstMs: 20, maxMs: 200 }, jitter: () => 0.1 });
}

async function until(predicate: () => boolean, what: string, timeoutMs = 4000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function startAdapter(): Promise<void> {
  await adapter.start(async (message) => {
    if (failSink > 0) {
      failSink -= 1;
      throw new Error('store unavailable');
    }
    received.push(message);
  });
  await discord.waitFor(() => discord.isConnected(), 4000, 'the adapter connected');
  await until(() => adapter.state().connected, 'state connected');
}

beforeEach(async () => {
  discord = await startFakeDiscord({ token: TOKEN, heartbeatIntervalMs: 100 });
  received = [];
  lines = [];
  failSink = 0;
  adapter = make();
});
afterEach(async () => {
  await adapter.stop();
  await discord.close();
});

const dm = (content: string, id?: string) => discord.pushMessage({ channelId: DM, authorId: ALICE, authorName: 'alice', content, ...(id ? { id } : {}) });

describe('Discord adapter: the Gateway', () => {
  it('IDENTIFYs with the message-content intent over ?v=10&encoding=json, then DMs arrive mapped', async () => {
    await startAdapter();
    const identify = discord.opsOf(2)[0]?.d as { token: string; intents: number; properties: object };
    expect(identify.token).toBe(TOKEN);
    for (const bit of [INTENT_GUILD_MESSAGES, INTENT_DIRECT_MESSAGES, INTENT_MESSAGE_CONTENT]) expect(identify.intents & bit).toBe(bit);
    expect(discord.connections[0]?.query).toBe('?v=10&encoding=json');
    expect(discord.requests[0]).toMatchObject({ method: 'GET', path: '/gateway/bot', authorized: true });
    const id = dm('hello there');
    await until(() => received.length === 1, 'the DM');
    expect(received[0]).toMatchObject({ platform: 'discord', chatId: DM, threadId: null, messageId: id, userId: ALICE, userName: 'alice', text: 'hello there', isDirect: true });
    expect(adapter.state()).toEqual({ connected: true, detail: 'connected as iris-test' });
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
  });

  it('heartbeats at the interval with the last sequence received', async () => {
    await startAdapter();
    dm('one');
    await until(() => received.length === 1, 'the DM');
    const before = discord.opsOf(1).length;
    await discord.waitForOps(1, before + 3, 2000);
    const beats = discord.opsOf(1).slice(before);
    expect(beats.at(-1)?.d).toBe(2);
    const gaps = beats.slice(1).map((b, i) => b.at - (beats[i]?.at ?? 0));
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(80);
  });

  it('after a drop RESUMEs on resume_gateway_url with the session id and last seq; what was missed arrives in order', async () => {
    await startAdapter();
    dm('before');
    await until(() => received.length === 1, 'first');
    const session = discord.sessionId();
    discord.dropSocket();
    dm('during 1');
    dm('during 2');
    await until(() => received.length === 3, 'the replay');
    expect(received.map((m) => m.text)).toEqual(['before', 'during 1', 'during 2']);
    expect(discord.opsOf(6)[0]?.d).toEqual({ token: TOKEN, session_id: session, seq: 2 });
    expect(discord.opsOf(2)).toHaveLength(1);
    expect(discord.connections[1]?.path).toBe('/resume');
    await until(() => adapter.state().connected, 'connected again');
  });

  it('RECONNECT (op 7) resumes too', async () => {
    await startAdapter();
    discord.requestReconnect();
    await discord.waitForOps(6, 1);
    await discord.waitFor(() => discord.isConnected(), 2000, 'resumed');
    dm('after');
    await until(() => received.length === 1, 'after the reconnect');
    expect(discord.opsOf(2)).toHaveLength(1);
  });

  it('a heartbeat without an ACK before the next one ends the connection; it RESUMEs', async () => {
    await startAdapter();
    discord.withholdAcks(true);
    await discord.waitForOps(6, 1, 3000);
    discord.withholdAcks(false);
    expect(discord.connections.length).toBeGreaterThanOrEqual(2);
    await discord.waitFor(() => discord.isConnected(), 2000, 'resumed');
    dm('still here');
    await until(() => received.length === 1, 'a message after the zombie');
    expect(discord.opsOf(2)).toHaveLength(1);
  });

  it('a refused RESUME (INVALID_SESSION false) is followed by a new IDENTIFY', async () => {
    await startAdapter();
    discord.invalidateSession();
    discord.dropSocket();
    await discord.waitForOps(2, 2, 4000);
    expect(discord.opsOf(6)).toHaveLength(1);
    await discord.waitFor(() => discord.isConnected(), 2000, 'ready again');
    dm('new session');
    await until(() => received.length === 1, 'a message in the new session');
  });

  it('a message the sink could not store comes again through RESUME', async () => {
    await startAdapter();
    failSink = 1;
    const id = dm('stored late');
    await until(() => received.length === 1, 'the replay');
    expect(received[0]?.messageId).toBe(id);
    expect(discord.opsOf(6)).toHaveLength(1);
  });

  it('a token Discord rejects is said in state()', async () => {
    await adapter.stop();
    adapter = make('wrong');
    await adapter.start(async () => {});
    await until(() => adapter.state().detail.includes('token rejected'), 'the state');
    expect(adapter.state().connected).toBe(false);
  });
});

describe('Discord adapter: which messages pass', () => {
  it('skips its own posts, other bots, guild messages without a mention, non-default types, empty content', async () => {
    await startAdapter();
    discord.pushMessage({ channelId: CHANNEL, guildId: GUILD, authorId: ALICE, content: 'just chatting' });
    discord.pushMessage({ channelId: DM, authorId: discord.botId, content: 'my own words' });
    discord.pushMessage({ channelId: DM, authorId: '420000000000000009', authorBot: true, content: 'beep' });
    discord.pushMessage({ channelId: DM, authorId: ALICE, content: 'pinned', type: 6 });
    discord.pushMessage({ channelId: DM, authorId: ALICE, content: '' });
    discord.pushMessage({ channelId: CHANNEL, guildId: GUILD, authorId: ALICE, content: `<@${discord.botId}> what time is it?`, mentionsBot: true });
    await until(() => received.length === 1, 'the mention');
    await new Promise((r) => setTimeout(r, 100));
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ chatId: CHANNEL, threadId: null, text: 'what time is it?', isDirect: false });
  });

  it('a message in a thread: the parent is the chat, the thread the thread (GET /channels once, cached)', async () => {
    discord.addChannel({ id: THREAD, type: 11, guildId: GUILD, parentId: CHANNEL });
    await startAdapter();
    discord.pushMessage({ channelId: THREAD, guildId: GUILD, authorId: ALICE, content: `<@!${discord.botId}> in the thread`, mentionsBot: true });
    discord.pushMessage({ channelId: THREAD, guildId: GUILD, authorId: ALICE, content: `<@${discord.botId}> again`, mentionsBot: true });
    await until(() => received.length === 2, 'the thread messages');
    expect(received.map((m) => [m.chatId, m.threadId, m.text])).toEqual([
      [CHANNEL, THREAD, 'in the thread'],
      [CHANNEL, THREAD, 'again'],
    ]);
    expect(discord.requests.filter((r) => r.path === `/channels/${THREAD}`)).toHaveLength(1);
  });

  it('a malformed dispatch is logged and skipped; the next message still arrives', async () => {
    await startAdapter();
    discord.pushDispatch('MESSAGE_CREATE', { id: 'not-a-snowflake', content: 5 });
    dm('fine');
    await until(() => received.length === 1, 'the good one');
    expect(lines.some((l) => l.level === 'warn' && l.message.includes('malformed'))).toBe(true);
  });
});

describe('Discord adapter: sending', () => {
  beforeEach(() => {
    discord.addChannel({ id: DM, type: 1 });
    discord.addChannel({ id: THREAD, type: 11, guildId: GUILD, parentId: CHANNEL });
  });

  it('posts to the thread when there is one, else the chat; Markdown as it is', async () => {
    expect(await adapter.send({ chatId: DM, threadId: null, text: '**bold** and `code`' })).toMatchObject({ ok: true, messageId: expect.stringMatching(/^\d+$/) as unknown });
    expect(await adapter.send({ chatId: CHANNEL, threadId: THREAD, text: 'in thread' })).toMatchObject({ ok: true });
    expect(discord.sent.map((m) => [m.channelId, m.content])).toEqual([
      [DM, '**bold** and `code`'],
      [THREAD, 'in thread'],
    ]);
    const post = discord.requests.find((r) => r.method === 'POST');
    expect(post?.body).toMatchObject({ allowed_mentions: { parse: [] } });
  });

  it('classifies failures: 429 retry with retry_after, 500 retry, 403 and 404 permanent', async () => {
    discord.failNext({ status: 429, retryAfter: 1.5 });
    expect(await adapter.send({ chatId: DM, threadId: null, text: 'a' })).toEqual({ ok: false, kind: 'retry', reason: 'Discord 429: You are being rate limited.', retryAfterMs: 1500 });
    discord.failNext({ status: 500, message: 'Internal Server Error' });
    expect(await adapter.send({ chatId: DM, threadId: null, text: 'a' })).toMatchObject({ ok: false, kind: 'retry' });
    discord.failNext({ status: 403, message: 'Missing Access', code: 50001 });
    expect(await adapter.send({ chatId: DM, threadId: null, text: 'a' })).toEqual({ ok: false, kind: 'permanent', reason: 'Discord 403: Missing Access (code 50001)' });
    expect(await adapter.send({ chatId: '560000000000000009', threadId: null, text: 'a' })).toMatchObject({ ok: false, kind: 'permanent' });
  });

  it('after X-RateLimit-Remaining: 0 the next send waits out Reset-After', async () => {
    discord.setRateLimit({ limit: 1, resetAfterMs: 300 });
    const first = Date.now();
    expect(await adapter.send({ chatId: DM, threadId: null, text: 'one' })).toMatchObject({ ok: true });
    expect(await adapter.send({ chatId: DM, threadId: null, text: 'two' })).toMatchObject({ ok: true });
    expect(discord.violations).toEqual([]);
    expect(Date.now() - first).toBeGreaterThanOrEqual(250);
    const [a, b] = discord.sent;
    expect((b?.at ?? 0) - (a?.at ?? 0)).toBeGreaterThanOrEqual(250);
  });

  it('typing posts to the channel; check() reads @me and says when the token is rejected', async () => {
    await adapter.typing?.(CHANNEL, THREAD);
    expect(discord.typing).toEqual([THREAD]);
    expect(await adapter.check()).toEqual({ ok: true, detail: 'bot iris-test' });
    expect(await make('nope').check()).toEqual({ ok: false, reason: 'Discord rejected the token in DISCORD_BOT_TOKEN (401)', cause: 'credentials' });
    expect(await createDiscordAdapter({ extra: { api_base: discord.url }, env: {}, log }).check()).toEqual({ ok: false, reason: 'DISCORD_BOT_TOKEN is not set in .env' });
  });
});

describe('the session kept between processes (the platform cursor)', () => {
  it('saves the session with the last stored sequence; a new adapter RESUMEs it and gets what came meanwhile', async () => {
    const saved: string[] = [];
    const cursor = { load: () => Promise.resolve(saved[saved.length - 1]), save: (value: string) => Promise.resolve(void saved.push(value)) };
    await adapter.stop();
    adapter = createDiscordAdapter({ extra: { api_base: discord.url }, env: { DISCORD_BOT_TOKEN: TOKEN }, log, backoff: { firstMs: 20, maxMs: 200 }, jitter: () => 0.1, cursor });
    await startAdapter();
    discord.pushMessage({ channelId: DM, authorId: ALICE, content: 'one' });
    await until(() => received.length === 1, 'the first message');
    const savedSeq = () => (JSON.parse(saved[saved.length - 1] ?? 'null') as { seq: number } | null)?.seq ?? 0;
    await until(() => savedSeq() > 1, 'the cursor saved past it');
    const last = JSON.parse(saved[saved.length - 1]!) as { id: string; seq: number; botId: string; resumeUrl: string };
    expect(last.id).toBe(discord.sessionId());
    expect(last.botId).toMatch(/^\d+$/);
    // The process dies (no goodbye); a message arrives while nothing is connected.
    await adapter.stop();
    discord.dropSocket();
    discord.pushMessage({ channelId: DM, authorId: ALICE, content: 'two' });
    const identifiesBefore = discord.opsOf(2).length;
    adapter = createDiscordAdapter({ extra: { api_base: discord.url }, env: { DISCORD_BOT_TOKEN: TOKEN }, log, backoff: { firstMs: 20, maxMs: 200 }, jitter: () => 0.1, cursor });
    await startAdapter();
    await until(() => received.length === 2, 'the message sent while down');
    expect(received.map((m) => m.text)).toEqual(['one', 'two']);
    const resume = discord.opsOf(6).at(-1)?.d as { session_id: string; seq: number };
    expect(resume).toMatchObject({ session_id: last.id, seq: last.seq });
    expect(discord.opsOf(2).length).toBe(identifiesBefore);
  });

  it('an unreadable cursor is no session: it identifies anew', async () => {
    await adapter.stop();
    adapter = createDiscordAdapter({ extra: { api_base: discord.url }, env: { DISCORD_BOT_TOKEN: TOKEN }, log, backoff: { firstMs: 20, maxMs: 200 }, jitter: () => 0.1, cursor: { load: () => Promise.resolve('{not json'), save: () => Promise.resolve() } });
    await startAdapter();
    expect(discord.opsOf(2).length).toBeGreaterThan(0);
  });
});

describe('idempotent sends (the outbox key as an enforced nonce)', () => {
  it('sends the key as nonce with enforce_nonce; the same key again posts nothing new', async () => {
    discord.addChannel({ id: DM, type: 1 });
    await startAdapter();
    const first = await adapter.send({ chatId: DM, threadId: null, text: 'once', key: 'iris-41' });
    const again = await adapter.send({ chatId: DM, threadId: null, text: 'once', key: 'iris-41' });
    expect(first).toMatchObject({ ok: true });
    expect(again).toEqual(first);
    const posts = discord.requests.filter((r) => r.method === 'POST' && r.path === `/channels/${DM}/messages`);
    expect(posts.map((r) => r.body)).toEqual([
      { content: 'once', allowed_mentions: { parse: [] }, nonce: 'iris-41', enforce_nonce: true },
      { content: 'once', allowed_mentions: { parse: [] }, nonce: 'iris-41', enforce_nonce: true },
    ]);
    expect(discord.sent.filter((m) => m.content === 'once')).toHaveLength(1);
    expect(discord.noncesHonoured()).toBe(1);
    // No key (a caller without an outbox row): no nonce.
    await adapter.send({ chatId: DM, threadId: null, text: 'plain' });
    expect(discord.requests.at(-1)?.body).toEqual({ content: 'plain', allowed_mentions: { parse: [] } });
  });
});
