import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postInboundSms, startFakeTwilio, type FakeTwilio } from './twilio-api.js';

const SID = 'AC11112222333344445555666677778888';
const TOKEN = 'secret-token-0123456789abcdef0123';
const auth = (sid = SID, token = TOKEN) => `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`;
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

let twilio: FakeTwilio;
beforeEach(async () => {
  twilio = await startFakeTwilio({ accountSid: SID, authToken: TOKEN });
});
afterEach(async () => {
  await twilio.close();
});

async function createMessage(fields: Record<string, string>, authorization = auth(), sid = SID) {
  const response = await fetch(`${twilio.url}/2010-04-01/Accounts/${sid}/Messages.json`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
    body: form(fields),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Record<string, unknown> };
}

const twilioError = (status: number, code: number, message: string) => ({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });

describe('fake Twilio: Messages.json', () => {
  it('creates a message: 201 with a message resource and an SM sid; recorded in requests and sent', async () => {
    const answer = await createMessage({ To: '+15557654321', From: '+15550001111', Body: 'hello' });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      account_sid: SID,
      to: '+15557654321',
      from: '+15550001111',
      body: 'hello',
      status: 'queued',
      direction: 'outbound-api',
      api_version: '2010-04-01',
      error_code: null,
    });
    const sid = answer.body.sid as string;
    expect(sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(answer.body.uri).toBe(`/2010-04-01/Accounts/${SID}/Messages/${sid}.json`);
    expect(twilio.sent).toEqual([{ to: '+15557654321', from: '+15550001111', body: 'hello', sid }]);
    expect(twilio.requests).toEqual([
      expect.objectContaining({ method: 'POST', path: `/2010-04-01/Accounts/${SID}/Messages.json`, authOk: true, params: { To: '+15557654321', From: '+15550001111', Body: 'hello' } }),
    ]);
  });

  it('wrong credentials → 401 20003 Authenticate, nothing sent, recorded as not authenticated', async () => {
    const answer = await createMessage({ To: '+1', From: '+2', Body: 'x' }, auth(SID, 'wrong'));
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject(twilioError(401, 20003, 'Authenticate'));
    expect(twilio.sent).toEqual([]);
    expect(twilio.requests[0]!.authOk).toBe(false);
    expect((await createMessage({ To: '+1', From: '+2', Body: 'x' }, '')).status).toBe(401);
  });

  it("validates like Twilio: 21604 no To, 21602 no Body, 21617 a Body over 1600 characters", async () => {
    expect(await createMessage({ From: '+2', Body: 'x' })).toMatchObject({ status: 400, body: twilioError(400, 21604, "A 'To' phone number is required.") });
    expect(await createMessage({ To: '+1', From: '+2' })).toMatchObject({ status: 400, body: twilioError(400, 21602, 'Message body is required.') });
    expect(await createMessage({ To: '+1', From: '+2', Body: 'x'.repeat(1601) })).toMatchObject({
      status: 400,
      body: twilioError(400, 21617, 'The concatenated message body exceeds the 1600 character limit.'),
    });
    expect((await createMessage({ To: '+1', From: '+2', Body: 'x'.repeat(1600) })).status).toBe(201);
    expect(twilio.sent).toHaveLength(1);
  });

  it('another account in the path → 404 20404; an unknown path → 404', async () => {
    expect((await createMessage({ To: '+1', From: '+2', Body: 'x' }, auth(), 'ACother')).body).toMatchObject({ code: 20404, status: 404 });
    expect((await fetch(`${twilio.url}/nowhere`)).status).toBe(404);
  });

  it('failNext answers the next requests with the fault (and Retry-After), then serves again', async () => {
    twilio.failNext({ status: 429, code: 20429, message: 'Too Many Requests', retryAfter: 2 }, 2);
    const fields = { To: '+1', From: '+2', Body: 'x' };
    expect(await createMessage(fields)).toEqual({ status: 429, retryAfter: '2', body: twilioError(429, 20429, 'Too Many Requests') });
    expect((await createMessage(fields)).status).toBe(429);
    expect((await createMessage(fields)).status).toBe(201);
    expect(twilio.requests).toHaveLength(3);
  });

  it('waitForSent resolves once enough are sent, and rejects on time', async () => {
    const waiting = twilio.waitForSent(2, 2000);
    await createMessage({ To: '+1', From: '+2', Body: 'a' });
    await createMessage({ To: '+1', From: '+2', Body: 'b' });
    expect((await waiting).map((m) => m.body)).toEqual(['a', 'b']);
    await expect(twilio.waitForSent(3, 50)).rejects.toThrow('2 of 3 messages sent after 50 ms');
  });
});

describe('fake Twilio: Account', () => {
  it('GET the account with good credentials → 200 active; bad → 401', async () => {
    const ok = await fetch(`${twilio.url}/2010-04-01/Accounts/${SID}.json`, { headers: { authorization: auth() } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ sid: SID, status: 'active', friendly_name: 'Iris test account' });
    const bad = await fetch(`${twilio.url}/2010-04-01/Accounts/${SID}.json`, { headers: { authorization: auth(SID, 'x') } });
    expect(bad.status).toBe(401);
  });
});

describe('postInboundSms', () => {
  type Captured = { headers: IncomingMessage['headers']; body: string; url: string };
  let captured: Captured[];
  let server: ReturnType<typeof createServer>;
  let url: string;

  beforeEach(async () => {
    captured = [];
    server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        captured.push({ headers: req.headers, body, url: req.url ?? '' });
        res.writeHead(200, { 'content-type': 'text/xml' });
        res.end('<Response/>');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/platforms/sms`;
  });
  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const expectedSignature = (key: string, signedUrl: string, body: string) => {
    const pairs = [...new URLSearchParams(body)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return createHmac('sha1', key).update(signedUrl + pairs.map(([n, v]) => `${n}${v}`).join('')).digest('base64');
  };

  it("POSTs Twilio's parameter set, form-encoded, signed over the URL", async () => {
    const answer = await postInboundSms({ url, authToken: TOKEN, accountSid: SID, from: '+15557654321', to: '+15550001111', body: 'hi & bye', messageSid: 'SMx' });
    expect(answer).toMatchObject({ status: 200, body: '<Response/>' });
    const [request] = captured;
    expect(request!.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    const params = Object.fromEntries(new URLSearchParams(request!.body));
    expect(params).toMatchObject({ MessageSid: 'SMx', SmsSid: 'SMx', SmsMessageSid: 'SMx', AccountSid: SID, From: '+15557654321', To: '+15550001111', Body: 'hi & bye', NumMedia: '0', NumSegments: '1', SmsStatus: 'received', ApiVersion: '2010-04-01' });
    expect(request!.headers['x-twilio-signature']).toBe(expectedSignature(TOKEN, url, request!.body));
  });

  it('signs over signatureUrl when given, with a wrong key when asked, or not at all', async () => {
    const base = { url, authToken: TOKEN, accountSid: SID, from: '+1', to: '+2', body: 'x' };
    await postInboundSms({ ...base, signatureUrl: 'https://iris.example.com/platforms/sms' });
    await postInboundSms({ ...base, badSignature: true });
    await postInboundSms({ ...base, omitSignature: true, omit: ['From'] });
    expect(captured[0]!.headers['x-twilio-signature']).toBe(expectedSignature(TOKEN, 'https://iris.example.com/platforms/sms', captured[0]!.body));
    expect(captured[1]!.headers['x-twilio-signature']).not.toBe(expectedSignature(TOKEN, url, captured[1]!.body));
    expect(captured[2]!.headers['x-twilio-signature']).toBeUndefined();
    expect(new URLSearchParams(captured[2]!.body).has('From')).toBe(false);
    expect(captured[0]!.headers['x-twilio-signature']).toMatch(/^[A-Za-z0-9+/]{27}=$/);
  });
});
