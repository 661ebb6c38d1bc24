// The adapter against the fake Bot API on loopback: what it asks Telegram, in what order, and
// when it acknowledges (the getUpdates offsets the fake recorded).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../test/fakes/telegram-api.js';
import type { InboundMessage, PlatformAdapter, PlatformLog } from '../types.js';
import { createTelegramAdapter, type TelegramAdapterOptions } from './adapter.js';

const TOKEN = '4242:adapter-secret-token';

type LogEntry = { level: 'debug' | 'info' | 'warn' | 'error'; fields: object; message: string };

let fake: FakeTelegram;
let entries: LogEntry[];
let adapters: PlatformAdapter[];

const log: PlatformLog = {
  debug: (fields, message) => entries.push({ level: 'debug', fields, message }),
  info: (fields, message) => entries.push({ level: 'info', fields, message }),
  warn: (fields, message) => entries.push({ level: 'warn', fields, message }),
  error: (fields, message) => entries.push({ level: 'error', fields, message }),
};

beforeEach(async () => {
  fake = await startFakeTelegram({ token: TOKEN });
  entries = [];
  adapters = [];
});
afterEach(async () => {
  await Promise.all(adapters.map((adapter) => adapter.stop()));
  await fake.close();
  // Whatever happened, the token is in no log line.
  expect(JSON.stringify(entries)).not.toContain('adapter-secret-token');
});

function adapter(overrides: Partial<TelegramAdapterOptions> & { pollTimeout?: number } = {}): PlatformAdapter {
  const created = createTelegramAdapter({
    extra: { api_base: fake.url, poll_timeout: overrides.pollTimeout ?? 1 },
    env: { TELEGRAM_BOT_TOKEN: TOKEN },
    log,
    backoff: { firstMs: 20, maxMs: 100 },
    ...overrides,
  });
  adapters.push(created);
  return created;
}

function collector(behaviour: (message: InboundMessage, call: number) => Promise<void> = async () => {}) {
  const received: InboundMessage[] = [];
  const sink = async (message: InboundMessage) => {
    received.push(message);
    await behaviour(message, received.length);
  };
  return { received, sink };
}

async function until(predicate: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const offsets = () => fake.calls('getUpdates').map((request) => request.params.offset);

describe('start and polling', () => {
  it('checks the token with getMe, then long-polls for messages only, never dropping anything', async () => {
    const telegram = adapter();
    await telegram.start(collector().sink);
    expect(telegram.state()).toEqual({ connected: true, detail: 'connected as @iris_test_bot' });
    await fake.waitForCalls('getUpdates', 1);
    expect(fake.requests.map((request) => [request.method, request.params])).toEqual([
      ['getMe', {}],
      ['getUpdates', { timeout: 1, allowed_updates: ['message'] }],
    ]);
    expect(fake.calls('deleteWebhook')).toEqual([]);
  });

  it('delivers queued updates to the sink in order, then acknowledges past the last', async () => {
    const ids = ['one', 'two', 'three'].map((text) => fake.pushMessage({ chatId: 42, userId: 42, text, userName: 'ada', date: 1_764_000_000 }));
    const { received, sink } = collector();
    await adapter().start(sink);
    await until(() => received.length === 3, 'three messages');
    expect(received.map((message) => message.text)).toEqual(['one', 'two', 'three']);
    expect(received[0]).toEqual({
      platform: 'telegram',
      chatId: '42',
      threadId: null,
      messageId: '1',
      userId: '42',
      userName: 'ada',
      text: 'one',
      isDirect: true,
      receivedAt: 1_764_000_000_000,
    });
    await fake.waitForCalls('getUpdates', 2);
    expect(offsets().slice(0, 2)).toEqual([undefined, (ids[2] ?? 0) + 1]);
    expect(fake.pending()).toEqual([]);
  });

  it('delivers a forum topic message with its thread', async () => {
    fake.pushMessage({ chatId: -100, userId: 7, text: 'in topic', chatType: 'supergroup', threadId: 12 });
    const { received, sink } = collector();
    await adapter().start(sink);
    await until(() => received.length === 1, 'the message');
    expect(received[0]).toMatchObject({ chatId: '-100', threadId: '12', isDirect: false, userId: '7' });
  });

  it('moves the offset only after the sink has resolved', async () => {
    const id = fake.pushMessage({ chatId: 1, userId: 1, text: 'slow' });
    let release: () => void = () => {};
    const stored = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { received, sink } = collector(() => stored);
    await adapter().start(sink);
    await until(() => received.length === 1, 'the delivery');
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Still storing: no new poll, so nothing acknowledged; Telegram still holds the update.
    expect(offsets()).toEqual([undefined]);
    expect(fake.pending().map((update) => update.update_id)).toEqual([id]);
    release();
    await fake.waitForCalls('getUpdates', 2);
    expect(offsets()[1]).toBe(id + 1);
    expect(fake.pending()).toEqual([]);
  });

  it('does not acknowledge an update the sink rejected: it is delivered again', async () => {
    const first = fake.pushMessage({ chatId: 1, userId: 1, text: 'A' });
    const second = fake.pushMessage({ chatId: 1, userId: 1, text: 'B' });
    const { received, sink } = collector(async (message, call) => {
      if (message.text === 'B' && call === 2) throw new Error('disk full');
    });
    await adapter().start(sink);
    await until(() => received.length === 3, 'A, B, and B again');
    expect(received.map((message) => message.text)).toEqual(['A', 'B', 'B']);
    await fake.waitForCalls('getUpdates', 3);
    // A was stored, so the retry confirms it; B only once it was stored the second time.
    expect(offsets().slice(0, 3)).toEqual([undefined, first + 1, second + 1]);
    expect(entries).toContainEqual({
      level: 'error',
      fields: { platform: 'telegram', updateId: second, chatId: '1', messageId: '2', err: 'disk full' },
      message: 'Telegram message not stored; it stays unconfirmed and comes again',
    });
  });

  it('redelivers from the first unstored update when the very first one fails', async () => {
    fake.pushMessage({ chatId: 1, userId: 1, text: 'A' });
    const { received, sink } = collector(async (_message, call) => {
      if (call === 1) throw new Error('store down');
    });
    await adapter().start(sink);
    await until(() => received.length === 2, 'A twice');
    expect(received.map((message) => message.text)).toEqual(['A', 'A']);
    expect(offsets().slice(0, 2)).toEqual([undefined, undefined]);
  });

  it('logs and skips a malformed update without stopping, and acknowledges past it', async () => {
    const broken = fake.pushRawUpdate({ message: { message_id: 'x', chat: 'nowhere' } });
    const good = fake.pushMessage({ chatId: 1, userId: 1, text: 'fine' });
    const { received, sink } = collector();
    await adapter().start(sink);
    await until(() => received.length === 1, 'the good message');
    expect(received[0]?.text).toBe('fine');
    expect(entries).toContainEqual({
      level: 'warn',
      fields: { platform: 'telegram', updateId: broken, reason: 'malformed message (at message_id)' },
      message: 'Telegram update skipped: malformed',
    });
    await fake.waitForCalls('getUpdates', 2);
    expect(offsets()[1]).toBe(good + 1);
  });

  it('skips a message without text at debug level and acknowledges it', async () => {
    const sticker = fake.pushRawUpdate({ message: { message_id: 5, date: 1, chat: { id: 1, type: 'private' }, from: { id: 1 }, sticker: {} } });
    const { received, sink } = collector();
    await adapter().start(sink);
    await fake.waitForCalls('getUpdates', 2);
    expect(received).toEqual([]);
    expect(offsets()[1]).toBe(sticker + 1);
    expect(entries.find((entry) => entry.message === 'Telegram update skipped')?.level).toBe('debug');
  });
});

describe('connection trouble', () => {
  it('backs off on 5xx, says so in state(), and recovers', async () => {
    fake.failNext('getUpdates', { status: 502, description: 'Bad Gateway' }, 3);
    const telegram = adapter();
    await telegram.start(collector().sink);
    await fake.waitForCalls('getUpdates', 2);
    expect(telegram.state()).toEqual({ connected: false, detail: 'Telegram 502: Bad Gateway' });
    await fake.waitForCalls('getUpdates', 4);
    const at = fake.calls('getUpdates').map((request) => request.at);
    // 20, 40, 80 ms between the tries (doubling), give or take the clock's grain.
    expect((at[1] ?? 0) - (at[0] ?? 0)).toBeGreaterThanOrEqual(15);
    expect((at[2] ?? 0) - (at[1] ?? 0)).toBeGreaterThanOrEqual(35);
    expect((at[3] ?? 0) - (at[2] ?? 0)).toBeGreaterThanOrEqual(75);
    await until(() => telegram.state().connected, 'connected again');
    expect(telegram.state()).toEqual({ connected: true, detail: 'connected as @iris_test_bot' });
    // One warning for the outage, not one per try; and a line when it is over.
    const polling = entries.filter((entry) => entry.message.startsWith('Telegram getUpdates failed') || entry.message === 'Telegram polling again');
    expect(polling.map((entry) => [entry.level, entry.message])).toEqual([
      ['warn', 'Telegram getUpdates failed: Telegram 502: Bad Gateway'],
      ['debug', 'Telegram getUpdates failed again: Telegram 502: Bad Gateway'],
      ['debug', 'Telegram getUpdates failed again: Telegram 502: Bad Gateway'],
      ['info', 'Telegram polling again'],
    ]);
  });

  it('waits Telegram\'s retry_after on a 429', async () => {
    fake.failNext('getUpdates', { status: 429, retryAfter: 0.2 });
    const telegram = adapter();
    await telegram.start(collector().sink);
    await fake.waitForCalls('getUpdates', 2);
    const at = fake.calls('getUpdates').map((request) => request.at);
    expect((at[1] ?? 0) - (at[0] ?? 0)).toBeGreaterThanOrEqual(180);
  });

  it('says the token was rejected and keeps trying, slowly', async () => {
    const telegram = adapter({ env: { TELEGRAM_BOT_TOKEN: '4242:wrong-token' } });
    await telegram.start(collector().sink);
    expect(telegram.state()).toEqual({ connected: false, detail: 'token rejected (401)' });
    await fake.waitForCalls('getUpdates', 2);
    const at = fake.calls('getUpdates').map((request) => request.at);
    expect((at[1] ?? 0) - (at[0] ?? 0)).toBeGreaterThanOrEqual(95);
    expect(telegram.state()).toEqual({ connected: false, detail: 'token rejected (401)' });
  });

  it('names a webhook conflict, and leaves the webhook and the pending updates alone', async () => {
    await fetch(`${fake.url}/bot${TOKEN}/setWebhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"url":"https://example.org/hook"}' });
    fake.pushMessage({ chatId: 1, userId: 1, text: 'waiting' });
    const telegram = adapter();
    await telegram.start(collector().sink);
    await fake.waitForCalls('getUpdates', 2);
    expect(telegram.state()).toEqual({
      connected: false,
      detail: 'conflict (409): a webhook is set for this bot, so getUpdates cannot run; remove it (deleteWebhook) to poll',
    });
    expect(fake.calls('deleteWebhook')).toEqual([]);
    expect(fake.pending()).toHaveLength(1);
  });

  it('names another poller when a second adapter polls with the same token', async () => {
    const first = adapter({ pollTimeout: 5 });
    const second = adapter({ pollTimeout: 5 });
    await first.start(collector().sink);
    await fake.waitForCalls('getUpdates', 1);
    await second.start(collector().sink);
    await until(() => !first.state().connected || !second.state().connected, 'a conflict');
    const detail = [first.state(), second.state()].find((state) => !state.connected)?.detail;
    expect(detail).toBe('conflict (409): another poller is using this bot token (a second gateway or another program)');
  });

  it('reports an unreachable Telegram without the token', async () => {
    const telegram = adapter({ extra: { api_base: 'http://127.0.0.1:9', poll_timeout: 1 } });
    await telegram.start(collector().sink);
    expect(telegram.state().connected).toBe(false);
    expect(telegram.state().detail).toMatch(/^Telegram unreachable: /);
    expect(telegram.state().detail).not.toContain('secret');
  });

  it('does not start without a token, and says why', async () => {
    const telegram = adapter({ env: {} });
    await telegram.start(collector().sink);
    expect(telegram.state()).toEqual({ connected: false, detail: 'TELEGRAM_BOT_TOKEN is not set in .env' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.requests).toEqual([]);
  });

  it('stop() ends a long poll in flight at once, and polls no more', async () => {
    const telegram = adapter({ pollTimeout: 30 });
    await telegram.start(collector().sink);
    await fake.waitForCalls('getUpdates', 1);
    const started = Date.now();
    await telegram.stop();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(telegram.state()).toEqual({ connected: false, detail: 'stopped' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fake.calls('getUpdates')).toHaveLength(1);
  });

  it('a second start() while running starts no second poller', async () => {
    const telegram = adapter();
    await Promise.all([telegram.start(collector().sink), telegram.start(collector().sink)]);
    await fake.waitForCalls('getUpdates', 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.calls('getMe')).toHaveLength(1);
    expect(fake.calls('getUpdates')).toHaveLength(1);
  });

  it('stop() during start() leaves it stopped, with no poller', async () => {
    const telegram = adapter();
    const starting = telegram.start(collector().sink);
    await telegram.stop();
    await starting;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(telegram.state()).toEqual({ connected: false, detail: 'stopped' });
    expect(fake.calls('getUpdates')).toEqual([]);
  });

  it('stop() ends a backoff pause at once', async () => {
    fake.failNext('getUpdates', { status: 500, description: 'Internal Server Error' });
    const telegram = adapter({ backoff: { firstMs: 60_000, maxMs: 60_000 } });
    await telegram.start(collector().sink);
    await until(() => !telegram.state().connected, 'the failure');
    const started = Date.now();
    await telegram.stop();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
