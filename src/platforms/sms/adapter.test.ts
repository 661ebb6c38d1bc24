import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeTwilio, type FakeTwilio } from '../../../test/fakes/twilio-api.js';
import { recordingLog, smsExtra, TEST_ACCOUNT_SID, TEST_AUTH_TOKEN, TEST_ENV } from '../../../test/fakes/twilio-api-kit.js';
import { checkResult, createSmsAdapter } from './adapter.js';

const BASIC = `Basic ${Buffer.from(`${TEST_ACCOUNT_SID}:${TEST_AUTH_TOKEN}`).toString('base64')}`;
const MESSAGES_PATH = `/2010-04-01/Accounts/${TEST_ACCOUNT_SID}/Messages.json`;
const ACCOUNT_PATH = `/2010-04-01/Accounts/${TEST_ACCOUNT_SID}.json`;

let twilio: FakeTwilio;
let log: ReturnType<typeof recordingLog>;

const adapterWith = (env: Record<string, string> = TEST_ENV, extra = {}) =>
  createSmsAdapter({ extra: smsExtra({ api_base: twilio.url, ...extra }), env, log });
const message = (text: string, chatId = '+15557654321') => ({ chatId, threadId: null, text });

beforeEach(async () => {
  twilio = await startFakeTwilio({ accountSid: TEST_ACCOUNT_SID, authToken: TEST_AUTH_TOKEN });
  log = recordingLog();
});

afterEach(async () => {
  await twilio.close();
});

describe('sms adapter: send', () => {
  it('POSTs To=chatId, From=extra.from, Body=text, form-encoded with basic auth, and returns the SM sid', async () => {
    const result = await adapterWith().send(message('Hi & bye = 100% +1'));
    expect(twilio.requests).toHaveLength(1);
    const [request] = twilio.requests;
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe(MESSAGES_PATH);
    expect(request!.headers.authorization).toBe(BASIC);
    expect(request!.authOk).toBe(true);
    expect(request!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request!.rawBody).toBe('To=%2B15557654321&From=%2B15550001111&Body=Hi+%26+bye+%3D+100%25+%2B1');
    expect(twilio.sent).toEqual([{ to: '+15557654321', from: '+15550001111', body: 'Hi & bye = 100% +1', sid: expect.stringMatching(/^SM[0-9a-f]{32}$/) as string }]);
    expect(result).toEqual({ ok: true, messageId: twilio.sent[0]!.sid });
  });

  it('429 with Retry-After → retry after that many seconds', async () => {
    twilio.failNext({ status: 429, code: 20429, message: 'Too Many Requests', retryAfter: 3 });
    expect(await adapterWith().send(message('x'))).toEqual({ ok: false, kind: 'retry', reason: 'Twilio answered 429: 20429 Too Many Requests', retryAfterMs: 3000 });
    expect(twilio.sent).toEqual([]);
  });

  it('500 → retry', async () => {
    twilio.failNext({ status: 500, code: 20500, message: 'Internal Server Error' });
    expect(await adapterWith().send(message('x'))).toEqual({ ok: false, kind: 'retry', reason: 'Twilio answered 500: 20500 Internal Server Error' });
  });

  it("400 (Twilio's own validation: a body over 1600 characters) → permanent with code and message", async () => {
    expect(await adapterWith().send(message('y'.repeat(1601)))).toEqual({
      ok: false,
      kind: 'permanent',
      reason: 'Twilio answered 400: 21617 The concatenated message body exceeds the 1600 character limit.',
    });
  });

  it('400 for a missing To → permanent', async () => {
    expect(await adapterWith().send(message('x', ''))).toEqual({ ok: false, kind: 'permanent', reason: "Twilio answered 400: 21604 A 'To' phone number is required." });
  });

  it('401 → permanent, state says the credentials were rejected, and the token is in no reason, state or log', async () => {
    const adapter = adapterWith({ TWILIO_ACCOUNT_SID: TEST_ACCOUNT_SID, TWILIO_AUTH_TOKEN: 'wrong-token-000' });
    expect(adapter.state().connected).toBe(true);
    const result = await adapter.send(message('x'));
    expect(result).toEqual({
      ok: false,
      kind: 'permanent',
      reason: 'Twilio rejected the credentials (TWILIO_ACCOUNT_SID / TWILIO_AUTH_TOKEN): Twilio answered 401: 20003 Authenticate',
    });
    expect(adapter.state()).toEqual({ connected: false, detail: 'Twilio rejected the credentials (TWILIO_ACCOUNT_SID / TWILIO_AUTH_TOKEN)' });
    expect(log.lines.filter((line) => line.level === 'error')).toHaveLength(1);
    const everything = JSON.stringify([result, adapter.state(), log.lines]);
    expect(everything).not.toContain('wrong-token-000');
    expect(everything).not.toContain(TEST_ACCOUNT_SID);
  });

  it('a later success clears the rejected-credentials state', async () => {
    const adapter = adapterWith();
    twilio.failNext({ status: 401, code: 20003, message: 'Authenticate' });
    await adapter.send(message('x'));
    expect(adapter.state().connected).toBe(false);
    expect((await adapter.send(message('x'))).ok).toBe(true);
    expect(adapter.state().connected).toBe(true);
  });

  it('Twilio unreachable → retry, and the reason names neither the sid nor the token', async () => {
    const url = twilio.url;
    await twilio.close();
    const result = await createSmsAdapter({ extra: smsExtra({ api_base: url }), env: TEST_ENV, log }).send(message('x'));
    expect(result).toMatchObject({ ok: false, kind: 'retry', reason: expect.stringMatching(/^Twilio unreachable: /) as string });
    expect(JSON.stringify(result)).not.toContain(TEST_ACCOUNT_SID);
    twilio = await startFakeTwilio({ accountSid: TEST_ACCOUNT_SID, authToken: TEST_AUTH_TOKEN }); // for afterEach
  });

  it('a caller that gives up → retry ("cancelled"), nothing hangs', async () => {
    const hanging: typeof fetch = (_url, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error)));
    const adapter = createSmsAdapter({ extra: smsExtra({ api_base: twilio.url }), env: TEST_ENV, log, fetch: hanging });
    const controller = new AbortController();
    const pending = adapter.send(message('x'), controller.signal);
    controller.abort();
    expect(await pending).toEqual({ ok: false, kind: 'retry', reason: 'cancelled' });
  });

  it('not configured → retry naming what is missing, and no request is made', async () => {
    const result = await adapterWith(TEST_ENV, { from: '' }).send(message('x'));
    expect(result).toEqual({ ok: false, kind: 'retry', reason: 'SMS is not configured (missing platforms.sms.extra.from)' });
    expect(twilio.requests).toEqual([]);
  });
});

describe('sms adapter: check, state and the rest', () => {
  it('check → GET the account with basic auth → ok', async () => {
    expect(await adapterWith().check()).toEqual({ ok: true, detail: 'Twilio account "Iris test account" is active' });
    expect(twilio.requests.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([['GET', ACCOUNT_PATH, BASIC]]);
  });

  it('check with a wrong token → credentials rejected, and state says so', async () => {
    const adapter = adapterWith({ TWILIO_ACCOUNT_SID: TEST_ACCOUNT_SID, TWILIO_AUTH_TOKEN: 'nope' });
    expect(await adapter.check()).toEqual({ ok: false, reason: 'Twilio rejected the credentials (TWILIO_ACCOUNT_SID / TWILIO_AUTH_TOKEN)', cause: 'credentials' });
    expect(adapter.state().detail).toContain('rejected the credentials');
  });

  it('check with another status → its code and message, without the sid Twilio quotes in the path', async () => {
    twilio.failNext({ status: 404, code: 20404, message: `The requested resource ${ACCOUNT_PATH} was not found` });
    expect(await adapterWith().check()).toEqual({
      ok: false,
      reason: 'Twilio answered 404: 20404 The requested resource /2010-04-01/Accounts/[redacted].json was not found',
    });
  });

  it('a suspended or closed account is not ok', () => {
    expect(checkResult({ kind: 'answer', status: 200, retryAfter: null, body: { status: 'suspended' } })).toEqual({ ok: false, reason: 'the Twilio account is suspended' });
  });

  it('check and state when not configured name what is missing; nothing is requested', async () => {
    const adapter = adapterWith(TEST_ENV, { public_url: '' });
    expect(adapter.state()).toEqual({ connected: false, detail: 'not configured: missing platforms.sms.extra.public_url' });
    expect(await adapter.check()).toEqual({ ok: false, reason: 'not configured: missing platforms.sms.extra.public_url' });
    expect(adapterWith({}).state()).toEqual({ connected: false, detail: 'not configured: missing TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN' });
    expect(twilio.requests).toEqual([]);
  });

  it('configured → connected, naming the number and the URL', () => {
    expect(adapterWith().state()).toEqual({ connected: true, detail: 'sending from +15550001111; Twilio posts to https://iris.example.com/platforms/sms' });
  });

  it('is named sms, starts at once, has no typing, prepares plain text, and serves /platforms/sms', async () => {
    const adapter = adapterWith();
    expect(adapter.name).toBe('sms');
    await expect(adapter.start(async () => undefined)).resolves.toBeUndefined();
    expect(adapter).not.toHaveProperty('typing');
    expect(adapter.prepare?.('# Title\n\n**bold** and [a link](https://x.example)')).toBe('Title\n\nbold and a link (https://x.example)');
    expect(adapter.http?.path).toBe('/platforms/sms');
    await expect(adapter.stop()).resolves.toBeUndefined();
    expect(twilio.requests).toEqual([]);
  });
});
