// send(), typing() and check() against the fake Bot API: the exact requests, and how each of
// Telegram's answers becomes a SendResult.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../test/fakes/telegram-api.js';
import type { PlatformAdapter, PlatformLog } from '../types.js';
import { createTelegramAdapter, type TelegramAdapterOptions } from './adapter.js';

const TOKEN = '4242:send-secret-token';
const silent: PlatformLog = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

let fake: FakeTelegram;
beforeEach(async () => {
  fake = await startFakeTelegram({ token: TOKEN });
});
afterEach(async () => {
  await fake.close();
});

function adapter(overrides: Partial<TelegramAdapterOptions> = {}): PlatformAdapter {
  return createTelegramAdapter({ extra: { api_base: fake.url, poll_timeout: 1 }, env: { TELEGRAM_BOT_TOKEN: TOKEN }, log: silent, ...overrides });
}

const sendCalls = () => fake.calls('sendMessage').map((request) => request.params);

describe('send', () => {
  it('sends the Markdown rendered as HTML and returns the message id', async () => {
    const result = await adapter().send({ chatId: '42', threadId: null, text: '**hi** <there> & `x`' });
    expect(result).toEqual({ ok: true, messageId: '1' });
    expect(sendCalls()).toEqual([{ chat_id: '42', text: '<b>hi</b> &lt;there&gt; &amp; <code>x</code>', parse_mode: 'HTML' }]);
    expect(fake.sent).toEqual([
      { chat_id: '42', text: '<b>hi</b> &lt;there&gt; &amp; <code>x</code>', parse_mode: 'HTML', message_thread_id: undefined, message_id: 1 },
    ]);
  });

  it('sends into a forum topic', async () => {
    await adapter().send({ chatId: '-100', threadId: '7', text: 'hello' });
    expect(sendCalls()).toEqual([{ chat_id: '-100', text: 'hello', parse_mode: 'HTML', message_thread_id: 7 }]);
  });

  it('429 with retry_after is a retry after that long', async () => {
    fake.failNext('sendMessage', { status: 429, retryAfter: 5 });
    expect(await adapter().send({ chatId: '42', threadId: null, text: 'x' })).toEqual({
      ok: false,
      kind: 'retry',
      reason: 'Telegram 429: Too Many Requests: retry after 5',
      retryAfterMs: 5000,
    });
  });

  it('500 is a retry', async () => {
    fake.failNext('sendMessage', { status: 500, description: 'Internal Server Error' });
    expect(await adapter().send({ chatId: '42', threadId: null, text: 'x' })).toEqual({
      ok: false,
      kind: 'retry',
      reason: 'Telegram 500: Internal Server Error',
    });
  });

  it('400 is permanent, and not sent again as plain text', async () => {
    expect(await adapter().send({ chatId: 'nobody', threadId: null, text: 'x' })).toEqual({
      ok: false,
      kind: 'permanent',
      reason: 'Telegram 400: Bad Request: chat not found',
    });
    expect(sendCalls()).toHaveLength(1);
  });

  it('403 (blocked by the user) is permanent', async () => {
    fake.failNext('sendMessage', { status: 403, description: 'Forbidden: bot was blocked by the user' });
    expect(await adapter().send({ chatId: '42', threadId: null, text: 'x' })).toMatchObject({ ok: false, kind: 'permanent' });
  });

  it('sends again as plain text (the Markdown as written) when the HTML is refused', async () => {
    fake.refuseHtml(true);
    const result = await adapter().send({ chatId: '42', threadId: '3', text: '**bold** <x>' });
    expect(result).toEqual({ ok: true, messageId: '1' });
    expect(sendCalls()).toEqual([
      { chat_id: '42', text: '<b>bold</b> &lt;x&gt;', parse_mode: 'HTML', message_thread_id: 3 },
      { chat_id: '42', text: '**bold** <x>', message_thread_id: 3 },
    ]);
    expect(fake.sent).toEqual([{ chat_id: '42', text: '**bold** <x>', parse_mode: undefined, message_thread_id: 3, message_id: 1 }]);
  });

  it('lets the plain-text answer decide', async () => {
    // A fetch that lets the fake refuse the HTML, then has the plain-text send hit a 502.
    let sends = 0;
    const flaky: typeof fetch = async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.endsWith('/sendMessage') && ++sends === 2) {
        return new Response(JSON.stringify({ ok: false, error_code: 502, description: 'Bad Gateway' }), { status: 502 });
      }
      return fetch(input, init);
    };
    fake.refuseHtml(true);
    expect(await adapter({ fetch: flaky }).send({ chatId: '42', threadId: null, text: 'x' })).toEqual({
      ok: false,
      kind: 'retry',
      reason: 'Telegram 502: Bad Gateway',
    });
    expect(sends).toBe(2);
  });

  it('an unreachable Telegram is a retry', async () => {
    const result = await adapter({ extra: { api_base: 'http://127.0.0.1:9', poll_timeout: 1 } }).send({ chatId: '1', threadId: null, text: 'x' });
    expect(result).toMatchObject({ ok: false, kind: 'retry' });
    expect(JSON.stringify(result)).not.toContain('send-secret-token');
  });

  it('without a token, nothing is sent and the failure is permanent', async () => {
    expect(await adapter({ env: {} }).send({ chatId: '1', threadId: null, text: 'x' })).toEqual({
      ok: false,
      kind: 'permanent',
      reason: 'TELEGRAM_BOT_TOKEN is not set in .env',
    });
    expect(fake.requests).toEqual([]);
  });

  it('an aborted send is a retry', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await adapter().send({ chatId: '1', threadId: null, text: 'x' }, controller.signal)).toEqual({
      ok: false,
      kind: 'retry',
      reason: 'Telegram did not answer: aborted',
    });
  });
});

describe('typing', () => {
  it('sends the typing action, into the topic when there is one', async () => {
    const telegram = adapter();
    await telegram.typing?.('42', null);
    await telegram.typing?.('-100', '9');
    expect(fake.calls('sendChatAction').map((request) => request.params)).toEqual([
      { chat_id: '42', action: 'typing' },
      { chat_id: '-100', action: 'typing', message_thread_id: 9 },
    ]);
  });

  it('ignores failures', async () => {
    fake.failNext('sendChatAction', { status: 500, description: 'Internal Server Error' });
    await expect(adapter().typing?.('42', null)).resolves.toBeUndefined();
  });
});

describe('check', () => {
  it('names the bot when the token works', async () => {
    expect(await adapter().check()).toEqual({ ok: true, detail: '@iris_test_bot' });
    expect(fake.requests.map((request) => request.method)).toEqual(['getMe']);
  });

  it('copes with a getMe answer without a result', async () => {
    const bare: typeof fetch = async () => new Response('{"ok":true}', { status: 200 });
    expect(await adapter({ fetch: bare }).check()).toEqual({ ok: true, detail: 'token accepted' });
  });

  it('says the token was rejected', async () => {
    expect(await adapter({ env: { TELEGRAM_BOT_TOKEN: '4242:wrong' } }).check()).toEqual({ ok: false, reason: 'Telegram rejected the token in TELEGRAM_BOT_TOKEN (401)', cause: 'credentials' });
  });

  it('says the token is missing, without asking Telegram', async () => {
    expect(await adapter({ env: { TELEGRAM_BOT_TOKEN: '  ' } }).check()).toEqual({ ok: false, reason: 'TELEGRAM_BOT_TOKEN is not set in .env' });
    expect(fake.requests).toEqual([]);
  });
});
