// The fake Telegram's own protocol: routing and auth, the update queue confirmed by offset, long
// polls that wake and conflict, sendMessage's checks and the fault injection tests rely on.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from './telegram-api.js';

const TOKEN = '4242:fake-token';
let fake: FakeTelegram;

beforeEach(async () => {
  fake = await startFakeTelegram({ token: TOKEN });
});
afterEach(async () => {
  await fake.close();
});

async function call(method: string, params: Record<string, unknown> = {}, token = TOKEN): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${fake.url}/bot${token}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(params),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const updateIds = (body: Record<string, unknown>) => (body.result as Array<{ update_id: number }>).map((update) => update.update_id);

describe('routing and auth', () => {
  it('answers getMe with the bot', async () => {
    expect(await call('getMe')).toEqual({
      status: 200,
      body: { ok: true, result: { id: 4242, is_bot: true, first_name: 'Iris', username: 'iris_test_bot' } },
    });
  });

  it('refuses a wrong token with 401 Unauthorized, and records the call', async () => {
    expect(await call('getMe', {}, '4242:wrong')).toEqual({ status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } });
    expect(fake.requests).toEqual([{ method: 'getMe', params: {}, at: expect.any(Number) as unknown }]);
  });

  it('answers an unknown method with 404 Not Found', async () => {
    expect(await call('sendTelepathy')).toEqual({ status: 404, body: { ok: false, error_code: 404, description: 'Not Found' } });
  });

  it('takes form fields and query parameters as well as JSON', async () => {
    const form = await fetch(`${fake.url}/bot${TOKEN}/sendMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ chat_id: '7', text: 'by form' }).toString(),
    });
    expect(form.status).toBe(200);
    const query = await fetch(`${fake.url}/bot${TOKEN}/sendMessage?chat_id=8&text=by%20query`);
    expect(query.status).toBe(200);
    expect(fake.sent.map(({ chat_id, text }) => ({ chat_id, text }))).toEqual([
      { chat_id: '7', text: 'by form' },
      { chat_id: '8', text: 'by query' },
    ]);
  });
});

describe('getUpdates', () => {
  it('returns the earliest unconfirmed updates without an offset, and again until confirmed', async () => {
    const first = fake.pushMessage({ chatId: 1, userId: 1, text: 'a' });
    const second = fake.pushMessage({ chatId: 1, userId: 1, text: 'b' });
    expect(second).toBe(first + 1);
    expect(updateIds((await call('getUpdates')).body)).toEqual([first, second]);
    expect(updateIds((await call('getUpdates')).body)).toEqual([first, second]);
  });

  it('confirms (forgets) the updates below the offset', async () => {
    const first = fake.pushMessage({ chatId: 1, userId: 1, text: 'a' });
    const second = fake.pushMessage({ chatId: 1, userId: 1, text: 'b' });
    expect(updateIds((await call('getUpdates', { offset: first + 1 })).body)).toEqual([second]);
    expect(fake.pending().map((update) => update.update_id)).toEqual([second]);
    expect(updateIds((await call('getUpdates')).body)).toEqual([second]);
    expect(updateIds((await call('getUpdates', { offset: second + 1 })).body)).toEqual([]);
    expect(fake.pending()).toEqual([]);
  });

  it('respects limit', async () => {
    const first = fake.pushMessage({ chatId: 1, userId: 1, text: 'a' });
    fake.pushMessage({ chatId: 1, userId: 1, text: 'b' });
    expect(updateIds((await call('getUpdates', { limit: 1 })).body)).toEqual([first]);
  });

  it('builds a proper message object', async () => {
    fake.pushMessage({ chatId: -100, userId: 5, text: 'in a topic', chatType: 'supergroup', threadId: 77, userName: 'grace', date: 1_700_000_000 });
    const [update] = (await call('getUpdates')).body.result as Array<Record<string, unknown>>;
    expect(update).toEqual({
      update_id: expect.any(Number) as unknown,
      message: {
        message_id: 1,
        from: { id: 5, is_bot: false, first_name: 'grace', username: 'grace' },
        chat: { id: -100, type: 'supergroup', title: 'Test group', is_forum: true },
        date: 1_700_000_000,
        text: 'in a topic',
        message_thread_id: 77,
        is_topic_message: true,
      },
    });
  });

  it('long-polls: waits, and answers at once when an update is pushed', async () => {
    const started = Date.now();
    const polling = call('getUpdates', { timeout: 10 });
    await fake.waitForCalls('getUpdates', 1);
    const id = fake.pushMessage({ chatId: 1, userId: 1, text: 'wake up' });
    const answer = await polling;
    expect(updateIds(answer.body)).toEqual([id]);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('answers an empty list when the long poll times out', async () => {
    const started = Date.now();
    expect(await call('getUpdates', { timeout: 1 })).toEqual({ status: 200, body: { ok: true, result: [] } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('terminates a waiting poll with 409 when another getUpdates comes', async () => {
    const older = call('getUpdates', { timeout: 10 });
    await fake.waitForCalls('getUpdates', 1);
    const newer = call('getUpdates', { timeout: 1 });
    expect(await older).toEqual({
      status: 409,
      body: { ok: false, error_code: 409, description: 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running' },
    });
    expect((await newer).status).toBe(200);
  });

  it('forgets a poll whose client gave up, so the next one is no conflict', async () => {
    const controller = new AbortController();
    const abandoned = fetch(`${fake.url}/bot${TOKEN}/getUpdates`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ timeout: 10 }),
      signal: controller.signal,
    }).catch(() => 'aborted');
    await fake.waitForCalls('getUpdates', 1);
    controller.abort();
    expect(await abandoned).toBe('aborted');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await call('getUpdates', { timeout: 0 })).status).toBe(200);
  });

  it('answers 409 while a webhook is set; deleteWebhook keeps updates unless told to drop them', async () => {
    fake.pushMessage({ chatId: 1, userId: 1, text: 'a' });
    await call('setWebhook', { url: 'https://example.org/hook' });
    expect(await call('getUpdates')).toEqual({
      status: 409,
      body: { ok: false, error_code: 409, description: "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first" },
    });
    await call('deleteWebhook');
    expect(fake.pending()).toHaveLength(1);
    await call('deleteWebhook', { drop_pending_updates: true });
    expect(fake.pending()).toEqual([]);
  });

  it('keeps only allowed update types once allowed_updates is given', async () => {
    fake.pushRawUpdate({ edited_message: { message_id: 1 } });
    const id = fake.pushMessage({ chatId: 1, userId: 1, text: 'a' });
    expect(updateIds((await call('getUpdates', { allowed_updates: ['message'] })).body)).toEqual([id]);
  });

  it('passes raw updates through, numbering them unless they carry their own update_id', async () => {
    const numbered = fake.pushRawUpdate({ message: 'not an object' });
    fake.pushRawUpdate({ update_id: 'broken' });
    const { result } = (await call('getUpdates')).body as { result: unknown[] };
    expect(result).toEqual([{ update_id: numbered, message: 'not an object' }, { update_id: 'broken' }]);
  });
});

describe('sendMessage', () => {
  it('accepts a message, numbering messages per chat, and records it', async () => {
    const first = await call('sendMessage', { chat_id: '-100', text: '<b>hi</b>', parse_mode: 'HTML', message_thread_id: 3 });
    expect(first.body).toMatchObject({ ok: true, result: { message_id: 1, text: 'hi', message_thread_id: 3 } });
    await call('sendMessage', { chat_id: -100, text: 'again' });
    await call('sendMessage', { chat_id: 5, text: 'elsewhere' });
    expect(fake.sent).toEqual([
      { chat_id: '-100', text: '<b>hi</b>', parse_mode: 'HTML', message_thread_id: 3, message_id: 1 },
      { chat_id: '-100', text: 'again', parse_mode: undefined, message_thread_id: undefined, message_id: 2 },
      { chat_id: '5', text: 'elsewhere', parse_mode: undefined, message_thread_id: undefined, message_id: 1 },
    ]);
  });

  it.each([
    ['Bad Request: chat_id is empty', { text: 'x' }],
    ['Bad Request: chat not found', { chat_id: 'someone', text: 'x' }],
    ['Bad Request: message text is empty', { chat_id: 1 }],
    ['Bad Request: message text is empty', { chat_id: 1, text: '  ' }],
    ['Bad Request: message is too long', { chat_id: 1, text: 'x'.repeat(4097) }],
    ['Bad Request: can\'t parse entities: Unmatched end tag at byte offset 4, expected "</b>", found "</i>"', { chat_id: 1, text: '<b>x</i>', parse_mode: 'HTML' }],
    ['Bad Request: can\'t parse entities: Unsupported start tag "h1" at byte offset 0', { chat_id: 1, text: '<h1>x</h1>', parse_mode: 'HTML' }],
    ["Bad Request: can't parse entities: Can't find end of the entity starting at byte offset 2", { chat_id: 1, text: 'a & b', parse_mode: 'HTML' }],
    ['Bad Request: can\'t parse entities: Can\'t find end tag corresponding to start tag "b"', { chat_id: 1, text: '<b>open', parse_mode: 'HTML' }],
    ['Bad Request: unsupported parse_mode "Fancy"', { chat_id: 1, text: 'x', parse_mode: 'Fancy' }],
  ])('answers 400 %s', async (description, params) => {
    expect(await call('sendMessage', params)).toEqual({ status: 400, body: { ok: false, error_code: 400, description } });
    expect(fake.sent).toEqual([]);
  });

  it('counts the limit on the visible text, not the tags', async () => {
    expect((await call('sendMessage', { chat_id: 1, text: 'x'.repeat(4096) })).status).toBe(200);
    expect((await call('sendMessage', { chat_id: 1, text: `<b>${'x'.repeat(4096)}</b>`, parse_mode: 'HTML' })).status).toBe(200);
    expect((await call('sendMessage', { chat_id: 1, text: `&amp;${'x'.repeat(4096)}`, parse_mode: 'HTML' })).status).toBe(400);
  });

  it('refuses any parse_mode while refuseHtml is on', async () => {
    fake.refuseHtml(true);
    const refused = await call('sendMessage', { chat_id: 1, text: 'plain', parse_mode: 'HTML' });
    expect(refused.status).toBe(400);
    expect(refused.body.description).toMatch(/^Bad Request: can't parse entities: /);
    expect((await call('sendMessage', { chat_id: 1, text: 'plain' })).status).toBe(200);
    fake.refuseHtml(false);
    expect((await call('sendMessage', { chat_id: 1, text: 'plain', parse_mode: 'HTML' })).status).toBe(200);
  });
});

describe('fault injection and waiting', () => {
  it('fails the next calls of a method, with retry_after on 429', async () => {
    fake.failNext('sendMessage', { status: 429, retryAfter: 3 }, 2);
    const expected = {
      status: 429,
      body: { ok: false, error_code: 429, description: 'Too Many Requests: retry after 3', parameters: { retry_after: 3 } },
    };
    expect(await call('sendMessage', { chat_id: 1, text: 'x' })).toEqual(expected);
    expect(await call('sendMessage', { chat_id: 1, text: 'x' })).toEqual(expected);
    expect((await call('sendMessage', { chat_id: 1, text: 'x' })).status).toBe(200);
  });

  it('uses the given description, and leaves other methods alone', async () => {
    fake.failNext('getMe', { status: 502, description: 'Bad Gateway' });
    expect((await call('sendMessage', { chat_id: 1, text: 'x' })).status).toBe(200);
    expect(await call('getMe')).toEqual({ status: 502, body: { ok: false, error_code: 502, description: 'Bad Gateway' } });
  });

  it('sendChatAction checks the action', async () => {
    expect(await call('sendChatAction', { chat_id: 1, action: 'typing' })).toEqual({ status: 200, body: { ok: true, result: true } });
    expect(await call('sendChatAction', { chat_id: 1, action: 'dancing' })).toEqual({
      status: 400,
      body: { ok: false, error_code: 400, description: 'Bad Request: wrong parameter action in request' },
    });
  });

  it('waitForSent resolves when enough messages are sent and rejects on timeout', async () => {
    const waiting = fake.waitForSent(1, 2000);
    await call('sendMessage', { chat_id: 1, text: 'x' });
    expect(await waiting).toHaveLength(1);
    await expect(fake.waitForSent(2, 50)).rejects.toThrow(/timed out after 50 ms waiting for 2 sent message/);
  });
});

describe('slow sends (crash tests)', () => {
  it('a send slow before it is taken is not sent when the client hangs up; one slow after is sent but its 200 never arrives', async () => {
    fake.slowSends((params) => (params.text === 'before' ? { beforeMs: 300 } : params.text === 'after' ? { afterMs: 300 } : undefined));
    const hangUp = (text: string) => {
      const controller = new AbortController();
      const request = fetch(`${fake.url}/bot${TOKEN}/sendMessage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chat_id: 5, text }),
        signal: controller.signal,
      }).catch(() => undefined);
      return { request, controller };
    };
    const before = hangUp('before');
    await fake.waitFor(() => fake.sendsInFlight() === 1, 2000, 'the slow send');
    before.controller.abort();
    await before.request;
    const after = hangUp('after');
    await fake.waitFor(() => fake.sent.length === 1, 2000, 'the send taken');
    after.controller.abort();
    await after.request;
    await fake.waitFor(() => fake.sendsInFlight() === 0, 2000, 'no send in flight');
    expect(fake.sent.map((m) => m.text)).toEqual(['after']);
    expect(fake.sentAnsweredAt).toEqual([null]);

    expect((await call('sendMessage', { chat_id: 5, text: 'quick' })).status).toBe(200);
    fake.slowSends(null);
    expect((await call('sendMessage', { chat_id: 5, text: 'plain' })).status).toBe(200);
    expect(fake.sent.map((m) => m.text)).toEqual(['after', 'quick', 'plain']);
    expect(fake.sentAnsweredAt).toEqual([null, expect.any(Number), expect.any(Number)]);
  });
});
