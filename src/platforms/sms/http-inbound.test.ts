import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postInboundSms } from '../../../test/fakes/twilio-api.js';
import type { PlatformAdapter } from '../types.js';
import { createSmsAdapter } from './adapter.js';
import { createSmsInboundHandler } from './http-inbound.js';
import { readSmsSettings } from './settings.js';
import {
  recordingLog,
  recordingSink,
  smsExtra,
  startLoopbackGateway,
  TEST_ACCOUNT_SID,
  TEST_AUTH_TOKEN,
  TEST_ENV,
  type RecordingSink,
} from '../../../test/fakes/twilio-api-kit.js';
import { EMPTY_TWIML } from './twiml.js';

const NOW = 1_764_000_000_000;
/** `expect.objectContaining`, typed so that it can sit inside another expected object. */
const containing = (shape: object): object => expect.objectContaining(shape) as object;
const SID = 'SMaaaabbbbccccddddeeeeffff00001111';

let gateway: Awaited<ReturnType<typeof startLoopbackGateway>>;
let sink: RecordingSink;
let log: ReturnType<typeof recordingLog>;
let adapter: PlatformAdapter;
let publicUrl: string;

function adapterFor(extra = {}, env: Record<string, string> = TEST_ENV): PlatformAdapter {
  const made = createSmsAdapter({ extra: smsExtra({ public_url: publicUrl, ...extra }), env, log, nowMs: () => NOW });
  const http = made.http!;
  gateway.route(http.path, (req, res, target) => http.handle(req, res, target));
  return made;
}

const inbound = (over: Partial<Parameters<typeof postInboundSms>[0]> = {}) =>
  postInboundSms({ url: publicUrl, authToken: TEST_AUTH_TOKEN, accountSid: TEST_ACCOUNT_SID, from: '+15557654321', to: '+15550001111', body: 'Hello, Iris!', messageSid: SID, ...over });

/** A raw POST with the given headers and body chunks; `end: false` leaves the body unfinished. */
function rawPost(headers: Record<string, string>, chunks: Buffer[], end = true): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(publicUrl, { method: 'POST', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', () => undefined); // the server may close while we still write: the answer is what counts
    for (const chunk of chunks) req.write(chunk);
    if (end) req.end();
  });
}

beforeEach(async () => {
  sink = recordingSink();
  log = recordingLog();
  gateway = await startLoopbackGateway(sink);
  publicUrl = `${gateway.url}/platforms/sms`;
  adapter = adapterFor();
});

afterEach(async () => {
  await gateway.close();
});

describe('POST /platforms/sms', () => {
  it('a correctly signed SMS → 200 empty TwiML (text/xml), and the sink got exactly the message', async () => {
    const answer = await inbound();
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(answer.body).toBe(EMPTY_TWIML);
    expect(answer.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    expect(sink.received).toEqual([
      {
        platform: 'sms',
        chatId: '+15557654321',
        threadId: null,
        messageId: SID,
        userId: '+15557654321',
        userName: null,
        text: 'Hello, Iris!',
        isDirect: true,
        receivedAt: NOW,
      },
    ]);
  });

  it('keeps a body with form-special characters and unicode intact', async () => {
    const body = 'a+b & c=d % 100 — ünïcode 🚀\nsecond line';
    expect((await inbound({ body })).status).toBe(200);
    expect(sink.received.map((m) => m.text)).toEqual([body]);
  });

  it('a signature made with another key → 403, nothing stored', async () => {
    const answer = await inbound({ badSignature: true });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toEqual({ error: 'Invalid signature' });
    expect(sink.received).toEqual([]);
    expect(log.lines).toContainEqual(containing({ level: 'warn', message: 'SMS inbound signature refused', fields: containing({ reason: 'mismatch' }) }));
  });

  it('no X-Twilio-Signature → 403, nothing stored', async () => {
    const answer = await inbound({ omitSignature: true });
    expect(answer.status).toBe(403);
    expect(sink.received).toEqual([]);
    expect(log.lines).toContainEqual(containing({ fields: containing({ reason: 'missing' }) }));
  });

  it('a signature over a different URL (another path, http for https) → 403, nothing stored', async () => {
    expect((await inbound({ signatureUrl: `${gateway.url}/platforms/sms-other` })).status).toBe(403);
    expect((await inbound({ signatureUrl: publicUrl.replace('http:', 'https:') })).status).toBe(403);
    expect(sink.received).toEqual([]);
  });

  it('verifies against public_url, not the address the request reached (a proxy in between)', async () => {
    adapter = adapterFor({ public_url: 'https://iris.example.com/platforms/sms' });
    expect((await inbound({ signatureUrl: 'https://iris.example.com/platforms/sms' })).status).toBe(200);
    expect((await inbound({ messageSid: 'SM2', signatureUrl: publicUrl })).status).toBe(403);
    expect(sink.received.map((m) => m.messageId)).toEqual([SID]);
  });

  it('a signed message for another account → 403 (signed, but not ours to store), nothing stored', async () => {
    const answer = await inbound({ accountSid: 'ACffffffffffffffffffffffffffffffff' });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toEqual({ error: 'AccountSid is not this account' });
    expect(sink.received).toEqual([]);
  });

  it('a signed form without From → 400 after the signature check, logged, nothing stored', async () => {
    const answer = await inbound({ omit: ['From'] });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ error: 'missing From' });
    expect(sink.received).toEqual([]);
    expect(log.lines).toContainEqual(containing({ level: 'warn', message: 'SMS inbound refused', fields: containing({ code: 'malformed' }) }));
  });

  it('an unsigned malformed form is a 403, not a 400: strangers learn nothing about the fields', async () => {
    expect((await inbound({ omit: ['From'], omitSignature: true })).status).toBe(403);
  });

  it('a body over 64 KiB (declared) → 413, nothing stored', async () => {
    const answer = await inbound({ body: 'x'.repeat(70 * 1024) });
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe('close');
    expect(sink.received).toEqual([]);
  });

  it('a chunked body that grows past 64 KiB → 413 before the client has finished sending', async () => {
    const chunk = Buffer.alloc(16 * 1024, 'a');
    const answer = await rawPost(
      { 'content-type': 'application/x-www-form-urlencoded', 'transfer-encoding': 'chunked' },
      [chunk, chunk, chunk, chunk, chunk],
      false,
    );
    expect(answer.status).toBe(413);
    expect(sink.received).toEqual([]);
  });

  it('a body not complete within the deadline → 408', async () => {
    const handle = createSmsInboundHandler({ settings: readSmsSettings(smsExtra({ public_url: publicUrl }), TEST_ENV), log, nowMs: () => NOW, bodyTimeoutMs: 100 });
    gateway.route('/platforms/sms', handle);
    const answer = await rawPost({ 'content-type': 'application/x-www-form-urlencoded', 'content-length': '100' }, [Buffer.from('From=%2B1')], false);
    expect(answer.status).toBe(408);
    expect(sink.received).toEqual([]);
  });

  it.each(['GET', 'PUT', 'DELETE'])('%s → 405 with Allow: POST', async (method) => {
    const response = await fetch(publicUrl, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await response.json()).toEqual({ error: 'Method not allowed' });
  });

  it.each(['application/json', 'text/plain', 'multipart/form-data; boundary=x', ''])('Content-Type %j → 415', async (type) => {
    const headers: Record<string, string> = type === '' ? {} : { 'content-type': type };
    const answer = await rawPost(headers, [Buffer.from('{}')]);
    expect(answer.status).toBe(415);
    expect(JSON.parse(answer.body)).toEqual({ error: 'Content-Type must be application/x-www-form-urlencoded' });
    expect(sink.received).toEqual([]);
  });

  it('the sink failing to store → 503 (Twilio was not acknowledged), logged', async () => {
    sink.fail = new Error('database is locked');
    const answer = await inbound();
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body)).toEqual({ error: 'Storage unavailable' });
    expect(log.lines).toContainEqual(containing({ level: 'error', fields: containing({ err: 'database is locked', message_id: SID }) }));
  });

  it.each([
    [{ TWILIO_ACCOUNT_SID: TEST_ACCOUNT_SID }, {}, 'TWILIO_AUTH_TOKEN'],
    [{ TWILIO_AUTH_TOKEN: TEST_AUTH_TOKEN }, {}, 'TWILIO_ACCOUNT_SID'],
    [TEST_ENV, { public_url: '' }, 'platforms.sms.extra.public_url'],
  ])('not configured (%j, %j) → 503 and a log line naming %s', async (env, extra, missing) => {
    adapterFor(extra, env);
    const answer = await inbound();
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body)).toEqual({ error: 'SMS is not configured' });
    expect(sink.received).toEqual([]);
    expect(log.lines).toContainEqual(containing({ level: 'error', message: expect.stringContaining(missing) as string }));
  });

  it('a handler bug → 500 with a JSON body and no stack; the server keeps serving', async () => {
    const throwing = createSmsInboundHandler({
      settings: readSmsSettings(smsExtra({ public_url: publicUrl }), TEST_ENV),
      log,
      nowMs: () => {
        throw new Error('clock broke');
      },
    });
    gateway.route('/platforms/sms', throwing);
    const answer = await inbound();
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body)).toEqual({ error: 'Internal error' });
    const http = adapter.http!;
    gateway.route(http.path, (req, res, target) => http.handle(req, res, target));
    expect((await inbound()).status).toBe(200);
  });

  it('never writes the secrets into a log line', async () => {
    await inbound();
    await inbound({ badSignature: true });
    await inbound({ accountSid: 'ACffffffffffffffffffffffffffffffff' });
    sink.fail = new Error('down');
    await inbound();
    expect(log.lines.length).toBeGreaterThan(0);
    expect(log.text()).not.toContain(TEST_AUTH_TOKEN);
    expect(log.text()).not.toContain(TEST_ACCOUNT_SID);
  });
});
