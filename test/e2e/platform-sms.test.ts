// SMS end to end: `iris gateway run` as a subprocess with the fake model upstream and the fake
// Twilio (test/fakes/twilio-api.ts) in this process. Inbound is Twilio's signed webhook posted to
// the gateway's /platforms/sms; answers go out through the Messages API, from the outbox.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeTwilio, postInboundSms, type FakeTwilio } from '../fakes/twilio-api.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { postEvent, startGatewayProcess, waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { inboundRows, outboxRows, writePlatformConfig } from '../helpers/platforms.js';

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'f00dfeedc0ffee0123456789abcdef01';
const PUBLIC_URL = 'https://iris.example.com/platforms/sms';
const BOT = '+15550000000';
const ALICE = '+15551230001';
const STRANGER = '+15559870002';

let upstream: FakeUpstream;
let twilio: FakeTwilio;
let dir: string;
let home: string;
const running: GatewayProcess[] = [];

beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());
beforeEach(async () => {
  upstream.reset();
  twilio = await startFakeTwilio({ accountSid: SID, authToken: TOKEN });
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
});
afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.stop('SIGKILL');
  await twilio.close();
  await removeDir(dir);
});

const smsYaml = (extra = '') =>
  `  sms:\n    enabled: true\n    extra:\n      api_base: ${twilio.url}\n      from: "${BOT}"\n      public_url: ${PUBLIC_URL}\n      allowed_users: ["${ALICE}"]\n${extra}`;

const ENV = () => ({ OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${upstream.url}/v1`, TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN });

async function start(): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess(home, ENV());
  running.push(gateway);
  return gateway;
}

let sidCounter = 0;
function text(gateway: GatewayProcess, from: string, body: string, over: Partial<Parameters<typeof postInboundSms>[0]> = {}) {
  return postInboundSms({ url: `${gateway.url}/platforms/sms`, signatureUrl: PUBLIC_URL, authToken: TOKEN, accountSid: SID, from, to: BOT, body, messageSid: `SM${String(++sidCounter).padStart(32, '0')}`, ...over });
}

const modelCalls = () => upstream.requests.filter((r) => r.path.endsWith('/chat/completions') || r.path.endsWith('/responses'));

describe('sms: in and out', () => {
  it('an allowed user gets the answer by SMS, in a session of their own; the inbound webhook answers empty TwiML', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'Re: ' });
    await writePlatformConfig(home, smsYaml());
    const gateway = await start();
    const answer = await text(gateway, ALICE, 'Is the build green?');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toContain('text/xml');
    expect(answer.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    const [sent] = await twilio.waitForSent(1);
    expect(sent).toMatchObject({ to: ALICE, from: BOT, body: 'Re: Is the build green?' });
    expect(twilio.requests.find((r) => r.path.endsWith('/Messages.json'))?.authOk).toBe(true);

    await text(gateway, ALICE, 'And the tests?');
    await twilio.waitForSent(2);
    const sessions = JSON.parse((await runIris(['sessions', 'list', '--json'], { home })).stdout) as Array<{ source: string; messages: number }>;
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ source: 'sms', messages: 4 });
    expect(inboundRows(home).map((r) => [r.chat_id, r.user_id, r.text, r.state, r.session_key])).toEqual([
      [ALICE, ALICE, 'Is the build green?', 'answered', `sms:${ALICE}`],
      [ALICE, ALICE, 'And the tests?', 'answered', `sms:${ALICE}`],
    ]);
  });

  it('Twilio sending the same message again (same MessageSid) is answered once', async () => {
    await writePlatformConfig(home, smsYaml());
    const gateway = await start();
    const first = await text(gateway, ALICE, 'hello', { messageSid: 'SM00000000000000000000000000000abc' });
    const again = await text(gateway, ALICE, 'hello', { messageSid: 'SM00000000000000000000000000000abc' });
    expect([first.status, again.status]).toEqual([200, 200]);
    await twilio.waitForSent(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(twilio.sent).toHaveLength(1);
    expect(inboundRows(home)).toHaveLength(1);
  });

  it('an unknown number gets a pairing code and no run; iris pairing approve lets them in', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'Hi: ' });
    await writePlatformConfig(home, smsYaml());
    const gateway = await start();
    expect((await text(gateway, STRANGER, 'let me in')).status).toBe(200);
    const [pairing] = await twilio.waitForSent(1);
    expect(pairing!.to).toBe(STRANGER);
    const code = /pairing code is ([A-Z0-9]{8})/.exec(pairing!.body)?.[1];
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(pairing!.body).toContain(`iris pairing approve sms ${code}`);
    // A second message meanwhile: still no run, and the code is not sent again.
    await text(gateway, STRANGER, 'hello?');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(twilio.sent).toHaveLength(1);
    expect(modelCalls()).toHaveLength(0);
    expect(inboundRows(home).map((r) => r.state)).toEqual(['ignored', 'ignored']);

    const approved = await runIris(['pairing', 'approve', 'sms', code!.toLowerCase()], { home });
    expect(approved.code).toBe(0);
    await text(gateway, STRANGER, 'now?');
    const sent = await twilio.waitForSent(2);
    expect(sent[1]).toMatchObject({ to: STRANGER, body: 'Hi: now?' });
  });

  it('two messages sent during a run are answered after it, in order', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'A: ', delayMs: 1_500 }, { kind: 'echo', prefix: 'A: ' });
    await writePlatformConfig(home, smsYaml());
    const gateway = await start();
    await text(gateway, ALICE, 'one');
    await waitFor(() => (modelCalls().length === 1 ? true : undefined), 10_000, 'the first run');
    await text(gateway, ALICE, 'two');
    await text(gateway, ALICE, 'three');
    const sent = await twilio.waitForSent(3, 20_000);
    // One run at a time: were they run side by side, the slow first answer would come last.
    expect(sent.map((m) => m.body)).toEqual(['A: one', 'A: two', 'A: three']);
  });

  it('a 5,000-character answer arrives as 1,600-character parts, in order, Markdown stripped', async () => {
    const paragraph = (c: string) => `**${c.repeat(1200)}**`;
    upstream.script('main-m', { kind: 'text', deltas: [[paragraph('a'), paragraph('b'), paragraph('c'), paragraph('d')].join('\n\n')] });
    await writePlatformConfig(home, smsYaml());
    const gateway = await start();
    await text(gateway, ALICE, 'long please');
    const sent = await twilio.waitForSent(4, 15_000);
    expect(sent.map((m) => m.body)).toEqual(['a'.repeat(1200), 'b'.repeat(1200), 'c'.repeat(1200), 'd'.repeat(1200)]);
    for (const m of sent) expect(m.body.length).toBeLessThanOrEqual(1600);
  });

  it('a 429 waits for Retry-After and a 500 is retried; a 400 is not', { timeout: 30_000 }, async () => {
    await writePlatformConfig(home, smsYaml());
    const gateway = await start();
    // The first retry waits 5 s; the 429 then asks for 1 s instead of the schedule's 25 s.
    twilio.failNext({ status: 500, code: 20500, message: 'Internal Server Error' });
    twilio.failNext({ status: 429, code: 20429, message: 'Too Many Requests', retryAfter: 1 });
    await text(gateway, ALICE, 'hi');
    const [sent] = await twilio.waitForSent(1, 20_000);
    expect(sent!.body).toBe('ok');
    const sends = twilio.requests.filter((r) => r.path.endsWith('/Messages.json'));
    expect(sends).toHaveLength(3);
    // Twilio has the message before the gateway records it as sent.
    const settled = await waitFor(() => (outboxRows(home)[0]?.state === 'sent' ? outboxRows(home) : undefined), 5_000, 'the message recorded as sent');
    expect(settled).toMatchObject([{ state: 'sent', attempts: 3 }]);

    twilio.failNext({ status: 400, code: 21211, message: "The 'To' number +15550 is not a valid phone number." });
    const refused = await runIris(['send', '--to', `sms:${ALICE}`, 'a note', '--json'], { home, env: ENV() });
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ state: 'failed', platform: 'sms', chat_id: ALICE, parts: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(twilio.requests.filter((r) => r.path.endsWith('/Messages.json'))).toHaveLength(4);
    expect(outboxRows(home)[1]).toMatchObject({ state: 'failed', attempts: 1, text: 'a note' });
    expect(outboxRows(home)[1]!.last_error).toContain('21211');
  });

  it('a bad or missing Twilio signature gets 403 and stores nothing; a malformed form is refused without a crash', async () => {
    await writePlatformConfig(home, smsYaml());
    const gateway = await start();
    expect((await text(gateway, ALICE, 'forged', { badSignature: true })).status).toBe(403);
    expect((await text(gateway, ALICE, 'unsigned', { omitSignature: true })).status).toBe(403);
    expect((await text(gateway, ALICE, 'other url', { signatureUrl: `${gateway.url}/platforms/sms` })).status).toBe(403);
    expect((await text(gateway, ALICE, 'no sender', { omit: ['From'] })).status).toBe(400);
    expect(inboundRows(home)).toEqual([]);
    expect(modelCalls()).toHaveLength(0);
    // Still serving.
    expect((await text(gateway, ALICE, 'real')).status).toBe(200);
    await twilio.waitForSent(1);
  });
});

describe('sms: webhook deliveries and iris send', () => {
  const routes = (deliverExtra: string) =>
    `        alerts:\n          secret: alerts-secret-0123456789\n          deliver: sms\n          prompt: "Summarise {alert}"\n${deliverExtra}`;

  it('deliver: sms goes to deliver_extra.chat_id, and to home_channel without one', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'Summary: ' });
    await writePlatformConfig(home, smsYaml(`      home_channel: "${ALICE}"\n`), `${routes('          deliver_extra:\n            chat_id: "{oncall}"\n')}        home:\n          secret: home-secret-0123456789ab\n          deliver: sms\n          prompt: "Home {alert}"\n`);
    const gateway = await start();
    expect((await postEvent(gateway.url, 'alerts', { alert: 'disk full', oncall: '+15557770003' }, { secret: 'alerts-secret-0123456789' })).status).toBe(202);
    expect((await postEvent(gateway.url, 'home', { alert: 'cpu hot' }, { secret: 'home-secret-0123456789ab' })).status).toBe(202);
    const sent = await twilio.waitForSent(2, 15_000);
    expect(sent.map((m) => [m.to, m.body]).sort()).toEqual([
      [ALICE, 'Summary: Home cpu hot'],
      ['+15557770003', 'Summary: Summarise disk full'],
    ]);
    expect(outboxRows(home).map((r) => r.origin).sort()).toEqual(['webhook:1', 'webhook:2']);
  });

  it('a route to sms without chat_id or home_channel is reported at start and disabled (403); subscribe refuses it', async () => {
    await writePlatformConfig(home, smsYaml(), routes(''));
    const gateway = await start();
    expect(gateway.output()).toContain('route "alerts" delivers to sms without a deliver_extra.chat_id, and sms has no home_channel');
    expect((await postEvent(gateway.url, 'alerts', { alert: 'x' }, { secret: 'alerts-secret-0123456789' })).status).toBe(403);
    const refused = await runIris(['webhook', 'subscribe', 'pager', '--deliver', 'sms'], { home });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('route "pager" delivers to sms without a deliver_extra.chat_id');
  });

  it('iris send without a gateway sends at once; with no chat it goes to the home channel', async () => {
    await writePlatformConfig(home, smsYaml(`      home_channel: "${ALICE}"\n`));
    const result = await runIris(['send', '--to', 'sms', '**Deploy** done'], { home, env: ENV() });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`sent to sms:${ALICE} by this command (no gateway is running)\n`);
    expect(twilio.sent).toMatchObject([{ to: ALICE, from: BOT, body: 'Deploy done' }]);
    const unknown = await runIris(['send', '--to', 'fax:1', 'x'], { home, env: ENV() });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('"fax" is not a platform');
  });
});
