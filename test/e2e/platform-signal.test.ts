// Signal end to end: `iris gateway run` as a subprocess with the fake model upstream and the fake
// signal-cli HTTP daemon (test/fakes/signal-daemon.ts) in this process. Inbound is the daemon's
// event stream (SSE GET /api/v1/events) the gateway holds open; answers go out as JSON-RPC `send`
// calls (POST /api/v1/rpc), from the outbox.
import { mkdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeSignal, type FakeSignal } from '../fakes/signal-daemon.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { postEvent, send, startGatewayProcess, waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { inboundRows, outboxRows, platformSessions, writePlatformConfig } from '../helpers/platforms.js';

const BOT = '+15550000001';
const ALICE = '+15551230001';
const BOB = '+15551230002';
const STRANGER = '+15559870002';
const MALLORY = '+15559870003';
/** Not on Signal: the fake answers a send to it as signal-cli does (-1, "is not registered"). */
const GHOST = '+15550009999';
/** Group ids are base64 of 32 bytes (v2 groups). */
const GROUP = Buffer.from('iris-e2e-signal-group-0123456789').toString('base64');
const OTHER_GROUP = Buffer.from('iris-e2e-signal-other-0123456789').toString('base64');

let upstream: FakeUpstream;
let signal: FakeSignal;
let dir: string;
let home: string;
const running: GatewayProcess[] = [];

beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());
beforeEach(async () => {
  upstream.reset();
  signal = await startFakeSignal({ account: BOT, unregistered: [GHOST], groups: [GROUP, OTHER_GROUP] });
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
});
afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.stop('SIGKILL');
  await signal.close();
  await removeDir(dir);
});

const signalYaml = (extra = '', httpUrl = signal.url) =>
  `  signal:\n    enabled: true\n    extra:\n      http_url: ${httpUrl}\n      account: "${BOT}"\n      allowed_users: ["${ALICE}", "${BOB}"]\n${extra}`;

const ENV = (more: Record<string, string> = {}) => ({ OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${upstream.url}/v1`, ...more });

/** Starts the gateway and waits until it holds the daemon's event stream. */
async function start(env: Record<string, string> = {}, connections = 1): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess(home, ENV(env));
  running.push(gateway);
  if (connections > 0) await signal.waitForConnections(connections, 10_000);
  return gateway;
}

type Rpc = Extract<FakeSignal['requests'][number], { kind: 'rpc' }>;
const rpcs = (method: string): Rpc[] => signal.requests.filter((r): r is Rpc => r.kind === 'rpc' && r.method === method);
const modelCalls = () => upstream.requests.filter((r) => r.path.endsWith('/chat/completions') || r.path.endsWith('/responses'));
/** The agent turns alone: a new session's first run also asks the model for a title. */
const turnCalls = () => modelCalls().filter((r) => !r.rawBody.includes('You name conversations'));
/** The outbox once no row is waiting or mid-send (the fake records a send before the gateway marks it). */
const settledOutbox = () => waitFor(() => {
  const rows = outboxRows(home);
  return rows.every((r) => r.state === 'sent' || r.state === 'failed') ? rows : undefined;
}, 5_000, 'the outbox rows settled');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A receive event as signal-cli writes it (the same shape as the fake's pushMessage), for repeats. */
function receiveEvent(from: string, text: string, timestamp: number): string {
  return JSON.stringify({
    envelope: {
      source: from,
      sourceNumber: from,
      sourceUuid: `00000000-0000-4000-8000-${from.replace(/\D/g, '').padStart(12, '0').slice(-12)}`,
      sourceName: null,
      sourceDevice: 1,
      timestamp,
      serverReceivedTimestamp: timestamp + 5,
      serverDeliveredTimestamp: timestamp + 10,
      dataMessage: { timestamp, message: text, expiresInSeconds: 0, viewOnce: false },
    },
    account: BOT,
  });
}

type SessionJson = { id: string; source: string; messages: number };
async function sessions(): Promise<SessionJson[]> {
  const listed = await runIris(['sessions', 'list', '--json'], { home });
  expect(listed.code).toBe(0);
  return JSON.parse(listed.stdout) as SessionJson[];
}

type StatusJson = { state: string; platforms?: Array<{ name: string; connected: boolean; detail: string }> };
async function signalStatus(): Promise<{ connected: boolean; detail: string } | undefined> {
  const status = await runIris(['gateway', 'status', '--json'], { home });
  return (JSON.parse(status.stdout) as StatusJson).platforms?.find((p) => p.name === 'signal');
}

describe('signal: in and out', () => {
  it('a direct message is answered to the sender as plain text, with typing shown while the run goes; one session per chat', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'Re: ', delayMs: 1_000 }, { kind: 'echo', prefix: 'Re: ' });
    await writePlatformConfig(home, signalYaml());
    await start();
    signal.pushMessage({ from: ALICE, text: 'Is the **build** green? See [the log](https://ci.example.com/1)', sourceName: 'Alice' });
    const [sent] = await signal.waitForSent(1, 15_000);
    expect(sent).toMatchObject({ recipient: [ALICE], groupId: null, account: BOT, message: 'Re: Is the build green? See the log (https://ci.example.com/1)' });
    // Exactly these params on the wire: the recipient as a list, the account named (multi-account daemon).
    expect(rpcs('send')[0]!.params).toEqual({ recipient: [ALICE], message: 'Re: Is the build green? See the log (https://ci.example.com/1)', account: BOT });
    // "typing…" went to the same chat before the (delayed) answer.
    const typing = rpcs('sendTyping');
    expect(typing.length).toBeGreaterThanOrEqual(1);
    expect(typing[0]!.params).toEqual({ recipient: [ALICE], account: BOT });
    expect(signal.requests.indexOf(typing[0]!)).toBeLessThan(signal.requests.indexOf(rpcs('send')[0]!));

    signal.pushMessage({ from: ALICE, text: 'And the tests?' });
    await signal.waitForSent(2, 15_000);
    expect(signal.sent[1]).toMatchObject({ recipient: [ALICE], groupId: null, message: 'Re: And the tests?' });
    const listed = await sessions();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ source: 'signal', messages: 4 });
    expect(platformSessions(home)).toEqual([{ session_key: `signal:${ALICE}`, session_id: listed[0]!.id }]);
    expect(inboundRows(home).map((r) => [r.chat_id, r.user_id, r.text, r.state, r.session_key])).toEqual([
      [ALICE, ALICE, 'Is the **build** green? See [the log](https://ci.example.com/1)', 'answered', `signal:${ALICE}`],
      [ALICE, ALICE, 'And the tests?', 'answered', `signal:${ALICE}`],
    ]);
    expect((await settledOutbox()).map((r) => [r.chat_id, r.state, r.attempts])).toEqual([
      [ALICE, 'sent', 1],
      [ALICE, 'sent', 1],
    ]);
  });

  it('a group message from an allowed user is answered to the group; each user has a session of their own there', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'G: ', delayMs: 1_000 }, { kind: 'echo', prefix: 'G: ' });
    await writePlatformConfig(home, signalYaml());
    await start();
    signal.pushMessage({ from: ALICE, text: 'hello group', groupId: GROUP, groupName: 'Ops' });
    const [first] = await signal.waitForSent(1, 15_000);
    expect(first).toMatchObject({ recipient: [], groupId: GROUP, message: 'G: hello group' });
    expect(rpcs('send')[0]!.params).toEqual({ groupId: GROUP, message: 'G: hello group', account: BOT });
    expect(rpcs('sendTyping')[0]!.params).toEqual({ groupId: GROUP, account: BOT });

    signal.pushMessage({ from: BOB, text: 'me too', groupId: GROUP, groupName: 'Ops' });
    signal.pushMessage({ from: ALICE, text: 'just me', groupId: GROUP, groupName: 'Ops' });
    await signal.waitForSent(3, 15_000);
    // Alice's and Bob's sessions in the group are separate conversations: they may run side by side.
    expect(signal.sent[0]!.message).toBe('G: hello group');
    expect(signal.sent.map((m) => [m.groupId, m.recipient, m.message]).sort()).toEqual([
      [GROUP, [], 'G: hello group'],
      [GROUP, [], 'G: just me'],
      [GROUP, [], 'G: me too'],
    ]);
    expect(rpcs('send').every((r) => r.params?.recipient === undefined && r.params?.groupId === GROUP)).toBe(true);
    const chat = `group.${GROUP}`;
    expect(inboundRows(home).map((r) => [r.chat_id, r.user_id, r.state, r.session_key])).toEqual([
      [chat, ALICE, 'answered', `signal:${chat}/${ALICE}`],
      [chat, BOB, 'answered', `signal:${chat}/${BOB}`],
      [chat, ALICE, 'answered', `signal:${chat}/${ALICE}`],
    ]);
    const listed = await sessions();
    expect(listed.map((s) => [s.source, s.messages]).sort()).toEqual([
      ['signal', 2],
      ['signal', 4],
    ]);
    const keys = platformSessions(home);
    expect(keys.map((k) => k.session_key)).toEqual([`signal:${chat}/${ALICE}`, `signal:${chat}/${BOB}`]);
    expect(new Set(keys.map((k) => k.session_id))).toEqual(new Set(listed.map((s) => s.id)));
  });

  it('an unknown user in a direct message gets one pairing code and no run; iris pairing approve lets them in', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'Hi: ' });
    await writePlatformConfig(home, signalYaml());
    await start();
    signal.pushMessage({ from: STRANGER, text: 'let me in', sourceName: 'Stranger' });
    const [pairing] = await signal.waitForSent(1, 10_000);
    expect(pairing).toMatchObject({ recipient: [STRANGER], groupId: null });
    const code = /pairing code is ([A-Z0-9]{8})/.exec(pairing!.message)?.[1];
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(pairing!.message).toContain(`iris pairing approve signal ${code}`);
    // A second message meanwhile: still no run, and the code is not sent again.
    signal.pushMessage({ from: STRANGER, text: 'hello?' });
    await waitFor(() => (inboundRows(home).length === 2 ? true : undefined), 10_000, 'the second message stored');
    await sleep(700);
    expect(signal.sent).toHaveLength(1);
    expect(rpcs('send')).toHaveLength(1);
    expect(rpcs('sendTyping')).toHaveLength(0);
    expect(modelCalls()).toHaveLength(0);
    expect(inboundRows(home).map((r) => [r.user_id, r.state])).toEqual([
      [STRANGER, 'ignored'],
      [STRANGER, 'ignored'],
    ]);

    const approved = await runIris(['pairing', 'approve', 'signal', code!], { home });
    expect(approved.code).toBe(0);
    signal.pushMessage({ from: STRANGER, text: 'now?' });
    const sent = await signal.waitForSent(2, 15_000);
    expect(sent[1]).toMatchObject({ recipient: [STRANGER], groupId: null, message: 'Hi: now?' });
    expect(turnCalls()).toHaveLength(1);
  });

  it('an unknown user in a group gets nothing: no pairing code, no run', async () => {
    await writePlatformConfig(home, signalYaml());
    await start();
    signal.pushMessage({ from: MALLORY, text: 'hey bot', groupId: GROUP });
    await waitFor(() => (inboundRows(home).length === 1 ? true : undefined), 10_000, 'the group message stored');
    await sleep(1_000);
    expect(inboundRows(home).map((r) => [r.chat_id, r.user_id, r.state])).toEqual([[`group.${GROUP}`, MALLORY, 'ignored']]);
    expect(signal.sent).toEqual([]);
    expect(rpcs('send')).toEqual([]);
    expect(rpcs('sendTyping')).toEqual([]);
    expect(modelCalls()).toHaveLength(0);
    expect(outboxRows(home)).toEqual([]);
  });

  it('two messages sent during a run are answered after it, in order', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'A: ', delayMs: 1_500 }, { kind: 'echo', prefix: 'A: ' });
    await writePlatformConfig(home, signalYaml());
    await start();
    signal.pushMessage({ from: ALICE, text: 'one' });
    await waitFor(() => (modelCalls().length === 1 ? true : undefined), 10_000, 'the first run');
    signal.pushMessage({ from: ALICE, text: 'two' });
    signal.pushMessage({ from: ALICE, text: 'three' });
    const sent = await signal.waitForSent(3, 20_000);
    // One run at a time: were they run side by side, the slow first answer would come last.
    expect(sent.map((m) => m.message)).toEqual(['A: one', 'A: two', 'A: three']);
    expect(sent.every((m) => m.recipient.length === 1 && m.recipient[0] === ALICE)).toBe(true);
    expect(inboundRows(home).map((r) => [r.text, r.state])).toEqual([
      ['one', 'answered'],
      ['two', 'answered'],
      ['three', 'answered'],
    ]);
  });

  it('a 15,000-character answer arrives as parts of at most 8,000 characters, split at paragraphs, in order', async () => {
    const paragraph = (c: string) => c.repeat(3_000);
    upstream.script('main-m', { kind: 'text', deltas: [['a', 'b', 'c', 'd', 'e'].map((c) => `**${paragraph(c)}**`).join('\n\n')] });
    await writePlatformConfig(home, signalYaml());
    await start();
    signal.pushMessage({ from: ALICE, text: 'long please' });
    const sent = await signal.waitForSent(3, 15_000);
    await sleep(500);
    expect(signal.sent).toHaveLength(3);
    expect(sent.map((m) => m.message)).toEqual([`${paragraph('a')}\n\n${paragraph('b')}`, `${paragraph('c')}\n\n${paragraph('d')}`, paragraph('e')]);
    for (const m of sent) {
      expect(m.message.length).toBeLessThanOrEqual(8_000);
      expect(m.recipient).toEqual([ALICE]);
    }
    expect((await settledOutbox()).map((r) => [r.part, r.state])).toEqual([
      [0, 'sent'],
      [1, 'sent'],
      [2, 'sent'],
    ]);
  });
});

describe('signal: send failures', () => {
  it('a 500, a -5 rate limit and a 429 are retried (5 s, then the retry-after asked for); an unregistered user is not', { timeout: 40_000 }, async () => {
    await writePlatformConfig(home, signalYaml());
    await start();
    signal.failNext('send', { httpStatus: 500 });
    // signal-cli's rate-limit error: the results carry the server's retryAfterSeconds.
    signal.failNext('send', {
      rpcError: {
        code: -5,
        message: 'Failed to send message due to rate limiting',
        data: { response: { timestamp: 1, results: [{ recipientAddress: { uuid: null, number: ALICE, username: null }, type: 'RATE_LIMIT_FAILURE', retryAfterSeconds: 1 }] } },
      },
    });
    signal.failNext('send', { httpStatus: 429, headers: { 'retry-after': '1' } });
    signal.pushMessage({ from: ALICE, text: 'hi' });

    // When each try reached the daemon (polled every 20 ms).
    const times: number[] = [];
    await waitFor(
      async () => {
        while (times.length < rpcs('send').length) times.push(Date.now());
        if (times.length >= 4) return true;
        await sleep(20);
        return undefined;
      },
      25_000,
      'four send tries',
    );
    const [sent] = await signal.waitForSent(1, 1_000);
    expect(sent).toMatchObject({ recipient: [ALICE], message: 'ok' });
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    // The schedule's first pause is 5 s; the rate limit and the 429 ask for 1 s instead of 25 s and 120 s.
    // Bounds with room for a loaded machine; the schedule's 25 s and 120 s are far outside them.
    expect(gaps[0]).toBeGreaterThanOrEqual(4_500);
    expect(gaps[0]).toBeLessThan(8_000);
    expect(gaps[1]).toBeGreaterThanOrEqual(700);
    expect(gaps[1]).toBeLessThan(4_500);
    expect(gaps[2]).toBeGreaterThanOrEqual(700);
    expect(gaps[2]).toBeLessThan(4_500);
    expect(rpcs('send').map((r) => r.params)).toEqual(Array.from({ length: 4 }, () => ({ recipient: [ALICE], message: 'ok', account: BOT })));
    expect(await settledOutbox()).toMatchObject([{ state: 'sent', attempts: 4 }]);

    // A permanent error: signal-cli's -1 for a number that is not on Signal. One try, failed.
    const refused = await runIris(['send', '--to', `signal:${GHOST}`, 'a **note**', '--json'], { home, env: ENV() });
    expect(refused.code).toBe(1);
    const result = JSON.parse(refused.stdout) as { state: string; error: string };
    expect(result).toMatchObject({ state: 'failed', platform: 'signal', chat_id: GHOST, parts: 1 });
    expect(result.error).toContain(`The user ${GHOST} is not registered.`);
    await sleep(1_500);
    const toGhost = rpcs('send').filter((r) => JSON.stringify(r.params?.recipient) === JSON.stringify([GHOST]));
    expect(toGhost.map((r) => r.params)).toEqual([{ recipient: [GHOST], message: 'a note', account: BOT }]);
    expect(rpcs('send')).toHaveLength(5);
    expect(outboxRows(home)[1]).toMatchObject({ chat_id: GHOST, state: 'failed', attempts: 1, text: 'a note' });
    expect(outboxRows(home)[1]!.last_error).toContain('signal-cli error -1');
  });
});

describe('signal: the event stream', () => {
  it('a cut stream is reconnected and the next message is answered; gateway status shows signal connected', { timeout: 30_000 }, async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'Re: ' });
    await writePlatformConfig(home, signalYaml());
    await start();
    await waitFor(async () => ((await signalStatus())?.connected ? true : undefined), 10_000, 'signal connected in gateway status');
    expect(await signalStatus()).toMatchObject({ connected: true, detail: `receiving from ${signal.url}` });
    expect(signal.requests.filter((r) => r.kind === 'events')).toEqual([{ kind: 'events', query: { account: BOT } }]);

    signal.dropStreams();
    expect(signal.streamCount()).toBe(0);
    await signal.waitForConnections(2, 10_000);
    signal.pushMessage({ from: ALICE, text: 'still there?' });
    const [sent] = await signal.waitForSent(1, 10_000);
    expect(sent).toMatchObject({ recipient: [ALICE], message: 'Re: still there?' });

    // A graceful end (the daemon restarting) is reconnected too.
    signal.dropStreams({ graceful: true });
    await signal.waitForConnections(3, 10_000);
    signal.pushMessage({ from: ALICE, text: 'and now?' });
    await signal.waitForSent(2, 10_000);
    expect(signal.sent[1]).toMatchObject({ recipient: [ALICE], message: 'Re: and now?' });
    await waitFor(async () => ((await signalStatus())?.connected ? true : undefined), 10_000, 'signal connected again in gateway status');
    const log = await readFile(join(home, 'logs', 'gateway.log'), 'utf8');
    expect(log).toContain('signal: event stream lost, reconnecting');
  });

  it('with no daemon at http_url the gateway runs on: status says not connected and why, /health serves', { timeout: 30_000 }, async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await writePlatformConfig(home, signalYaml('', `http://127.0.0.1:${port}`));
    const gateway = await start({}, 0);
    const state = await waitFor(async () => {
      const found = await signalStatus();
      return found && found.detail.includes('ECONNREFUSED') ? found : undefined;
    }, 15_000, 'signal not connected in gateway status');
    expect(state).toMatchObject({ connected: false, detail: 'signal-cli daemon unreachable: ECONNREFUSED' });
    const health = await send(gateway.url, { method: 'GET', path: '/health' });
    expect(health.status).toBe(200);
    expect(gateway.child.exitCode).toBeNull();
  });

  it('malformed events and envelopes without a message are logged and skipped; the next message is answered', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'Re: ' });
    await writePlatformConfig(home, signalYaml());
    const gateway = await start({ IRIS_LOG_LEVEL: 'debug' });
    signal.pushRaw('receive', '{"envelope": {not json');
    // A delivery receipt: an envelope without dataMessage.
    signal.pushRaw('receive', JSON.stringify({ envelope: { source: ALICE, sourceNumber: ALICE, sourceDevice: 1, timestamp: 1_700_000_000_000, receiptMessage: { when: 1_700_000_000_000, isDelivery: true, isRead: false, timestamps: [1] } }, account: BOT }));
    // No timestamp: not the shape signal-cli writes.
    signal.pushRaw('receive', JSON.stringify({ envelope: { source: ALICE, sourceNumber: ALICE, dataMessage: { message: 'x' } }, account: BOT }));
    // A reaction: a data message without text.
    signal.pushRaw('receive', JSON.stringify({ envelope: { source: ALICE, sourceNumber: ALICE, timestamp: 1_700_000_000_001, dataMessage: { timestamp: 1_700_000_000_001, message: null, reaction: { emoji: '👍' } } }, account: BOT }));
    signal.pushRaw('other', '{}');
    signal.pushMessage({ from: ALICE, text: 'real one' });
    const [sent] = await signal.waitForSent(1, 10_000);
    expect(sent).toMatchObject({ recipient: [ALICE], message: 'Re: real one' });
    await sleep(300);
    expect(signal.sent).toHaveLength(1);
    expect(inboundRows(home).map((r) => r.text)).toEqual(['real one']);
    expect(turnCalls()).toHaveLength(1);
    expect(gateway.child.exitCode).toBeNull();
    // The stream was never given up for them.
    expect(signal.requests.filter((r) => r.kind === 'events')).toHaveLength(1);
    const lines = await waitFor(async () => {
      const text = await readFile(join(home, 'logs', 'gateway.log'), 'utf8');
      const parsed = text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { level: string; msg: string; skip?: string; detail?: string });
      return parsed.filter((l) => l.msg.startsWith('signal: ') && l.msg.includes('skipped')).length >= 4 ? parsed : undefined;
    }, 5_000, 'the skipped events in gateway.log');
    const skipped = lines.filter((l) => l.msg.startsWith('signal: ') && l.msg.includes('skipped')).map((l) => [l.level, l.msg, l.skip ?? null]);
    expect(skipped).toEqual([
      ['warn', 'signal: malformed receive event skipped', null],
      ['debug', 'signal: event skipped', 'not_a_message'],
      ['warn', 'signal: malformed receive event skipped', null],
      ['debug', 'signal: event skipped', 'no_text'],
    ]);
    expect(lines.find((l) => l.msg === 'signal: malformed receive event skipped')?.detail).toBe('the event data is not JSON');
  });

  it('the same message delivered twice (same sender and timestamp), even across a reconnect, is answered once', { timeout: 30_000 }, async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'Re: ' });
    await writePlatformConfig(home, signalYaml());
    await start();
    // The fake's pushMessage gives every message a new timestamp, so the repeat is pushed raw.
    const timestamp = Date.now() - 60_000;
    const event = receiveEvent(ALICE, 'hello once', timestamp);
    signal.pushRaw('receive', event);
    signal.pushRaw('receive', event);
    await signal.waitForSent(1, 10_000);
    signal.dropStreams();
    signal.pushRaw('receive', event);
    await signal.waitForConnections(2, 10_000);
    signal.pushMessage({ from: ALICE, text: 'next' });
    await signal.waitForSent(2, 10_000);
    await sleep(500);
    expect(signal.sent.map((m) => m.message)).toEqual(['Re: hello once', 'Re: next']);
    expect(inboundRows(home).map((r) => [r.message_id, r.text])).toEqual([
      [`${ALICE}:${timestamp}`, 'hello once'],
      [expect.stringMatching(new RegExp(`^\\${ALICE}:\\d+$`)), 'next'],
    ]);
    expect(turnCalls()).toHaveLength(2);
  });
});

describe('signal: config', () => {
  it('numbers written bare in config.yaml (YAML reads +15551230001 as an integer) are still E.164 numbers', { timeout: 30_000 }, async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'Re: ' });
    const yaml = `  signal:\n    enabled: true\n    extra:\n      http_url: ${signal.url}\n      account: "${BOT}"\n      allowed_users: [${ALICE}]\n      home_channel: ${BOB}\n`;
    await writePlatformConfig(home, yaml, '        home:\n          secret: home-secret-0123456789ab\n          deliver: signal\n          prompt: "Home {alert}"\n');
    const gateway = await start();
    signal.pushMessage({ from: ALICE, text: 'am I in?' });
    const [answer] = await signal.waitForSent(1, 15_000);
    // Not a pairing code: the bare number in allowed_users is ALICE.
    expect(answer).toMatchObject({ recipient: [ALICE], message: 'Re: am I in?' });
    expect((await postEvent(gateway.url, 'home', { alert: 'cpu hot' }, { secret: 'home-secret-0123456789ab' })).status).toBe(202);
    await signal.waitForSent(2, 15_000);
    expect(rpcs('send')[1]!.params).toEqual({ recipient: [BOB], message: 'Re: Home cpu hot', account: BOT });
    expect((await settledOutbox()).map((r) => [r.chat_id, r.state])).toEqual([
      [ALICE, 'sent'],
      [BOB, 'sent'],
    ]);
  });
});

describe('signal: webhook deliveries', () => {
  it('deliver: signal goes to deliver_extra.chat_id (a number or a group.<id>), and to home_channel without one', { timeout: 30_000 }, async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'Summary: ' });
    const routes = [
      '        alerts:\n          secret: alerts-secret-0123456789\n          deliver: signal\n          prompt: "Summarise {alert}"\n          deliver_extra:\n            chat_id: "{oncall}"\n',
      '        team:\n          secret: team-secret-0123456789ab\n          deliver: signal\n          prompt: "Team {alert}"\n          deliver_extra:\n            chat_id: "{room}"\n',
      '        home:\n          secret: home-secret-0123456789ab\n          deliver: signal\n          prompt: "Home {alert}"\n',
    ].join('');
    await writePlatformConfig(home, signalYaml(`      home_channel: "${ALICE}"\n`), routes);
    const gateway = await start();
    expect((await postEvent(gateway.url, 'alerts', { alert: 'disk full', oncall: '+15557770003' }, { secret: 'alerts-secret-0123456789' })).status).toBe(202);
    expect((await postEvent(gateway.url, 'team', { alert: 'deploy done', room: `group.${OTHER_GROUP}` }, { secret: 'team-secret-0123456789ab' })).status).toBe(202);
    expect((await postEvent(gateway.url, 'home', { alert: 'cpu hot' }, { secret: 'home-secret-0123456789ab' })).status).toBe(202);
    await signal.waitForSent(3, 20_000);
    const params = rpcs('send').map((r) => r.params);
    expect(params).toHaveLength(3);
    expect(params).toEqual(
      expect.arrayContaining([
        { recipient: ['+15557770003'], message: 'Summary: Summarise disk full', account: BOT },
        { groupId: OTHER_GROUP, message: 'Summary: Team deploy done', account: BOT },
        { recipient: [ALICE], message: 'Summary: Home cpu hot', account: BOT },
      ]),
    );
    const rows = (await settledOutbox()).map((r) => [r.chat_id, r.origin, r.state] as const);
    rows.sort((a, b) => (a[0] < b[0] ? -1 : 1));
    expect(rows).toEqual([
      [ALICE, expect.stringMatching(/^webhook:\d+$/), 'sent'],
      ['+15557770003', expect.stringMatching(/^webhook:\d+$/), 'sent'],
      [`group.${OTHER_GROUP}`, expect.stringMatching(/^webhook:\d+$/), 'sent'],
    ]);
  });
});
