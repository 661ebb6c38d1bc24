// Slack end to end: `iris gateway run` as a subprocess with the fake model upstream and the fake
// Slack (test/fakes/slack-api.ts: Web API plus Socket Mode server) in this process. Inbound comes
// over the Socket Mode websocket, acknowledged once stored; answers go out through
// chat.postMessage, from the outbox.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeSlack, type FakeSlack, type FakeSlackSent } from '../fakes/slack-api.js';
import { lastUserText, startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { postEvent, startGatewayProcess, waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { inboundRows, outboxRows, platformSessions, writePlatformConfig } from '../helpers/platforms.js';

const ALICE = 'UALICE01';
const BOB = 'UBOB0002';
const STRANGER = 'USTRANGE3';
const ALICE_DM = 'DALICE01';
const STRANGER_DM = 'DSTRANGE3';
const CHANNEL = 'CGENERAL1';
/** For an answer to arrive: a run starts a runtime and calls the model (parallel test files slow it down). */
const WAIT = 10_000;

let upstream: FakeUpstream;
let slack: FakeSlack;
let dir: string;
let home: string;
const running: GatewayProcess[] = [];

beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());
beforeEach(async () => {
  upstream.reset();
  slack = await startFakeSlack({ ackTimeoutMs: 1_500 });
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
});
afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.stop('SIGKILL');
  await slack.close();
  await removeDir(dir);
});

const slackYaml = (extra = '') => `  slack:\n    enabled: true\n    extra:\n      api_base: ${slack.url}\n      allowed_users: ["${ALICE}", "${BOB}"]\n${extra}`;
const ENV = () => ({ OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${upstream.url}/v1`, SLACK_BOT_TOKEN: slack.botToken, SLACK_APP_TOKEN: slack.appToken });

async function start(): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess(home, ENV());
  running.push(gateway);
  await slack.waitFor(() => slack.openSockets() === 1, WAIT, 'the gateway connected over Socket Mode');
  return gateway;
}

const dm = (user: string, channel: string, text: string, threadTs?: string) => slack.pushMessage({ user, channel, text, ...(threadTs ? { threadTs } : {}) });
const mention = (user: string, text: string, threadTs?: string) => slack.pushMention({ user, channel: CHANNEL, text, ...(threadTs ? { threadTs } : {}) });
/** Resolves once an envelope of the event `ts` was acked (it is stored by then). */
const acked = (ts: string) => slack.waitFor(() => slack.envelopes.some((e) => e.eventTs === ts && e.acked), WAIT, `event ${ts} acked`);

const modelCalls = () => upstream.requests.filter((r) => r.path.endsWith('/chat/completions') || r.path.endsWith('/responses'));
const turns = () => modelCalls().map((r) => lastUserText(r.body as Record<string, unknown>)).filter((text) => !text.includes('\n'));
const settledOutbox = (count: number) =>
  waitFor(() => {
    const rows = outboxRows(home);
    return rows.length === count && rows.every((r) => r.state === 'sent' || r.state === 'failed') ? rows : undefined;
  }, 15_000, `${count} settled outbox row(s)`);
const wire = (messages: readonly FakeSlackSent[]) => messages.map((m) => [m.channel, m.thread_ts, m.text]);

describe('slack: in and out', () => {
  it('a DM is answered in the DM; a channel mention in a thread under it, and a reply in that thread continues its session', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'Re: ' });
    await writePlatformConfig(home, slackYaml());
    await start();
    const dmTs = dm(ALICE, ALICE_DM, 'Is the **build** green?');
    await slack.waitForSent(1, WAIT);
    const top = mention(BOB, 'deploy status?');
    await slack.waitForSent(2, WAIT);
    const reply = mention(BOB, 'and staging?', top);
    const sent = await slack.waitForSent(3, WAIT);
    expect(wire(sent)).toEqual([
      [ALICE_DM, undefined, 'Re: Is the *build* green?'],
      [CHANNEL, top, 'Re: deploy status?'],
      [CHANNEL, top, 'Re: and staging?'],
    ]);
    expect(sent.every((m) => m.mrkdwn === true)).toBe(true);
    expect(inboundRows(home).map((r) => [r.chat_id, r.thread_id, r.message_id, r.user_id, r.text, r.state, r.session_key])).toEqual([
      [ALICE_DM, null, dmTs, ALICE, 'Is the **build** green?', 'answered', `slack:${ALICE_DM}`],
      [CHANNEL, top, top, BOB, 'deploy status?', 'answered', `slack:${CHANNEL}:${top}/${BOB}`],
      [CHANNEL, top, reply, BOB, 'and staging?', 'answered', `slack:${CHANNEL}:${top}/${BOB}`],
    ]);
    const sessions = platformSessions(home);
    expect(sessions.map((s) => s.session_key)).toEqual([`slack:${CHANNEL}:${top}/${BOB}`, `slack:${ALICE_DM}`].sort());
    // The thread reply went to the same session: its model call carries the first turn too.
    const last = modelCalls().at(-1)!.body as { messages?: Array<{ content: unknown }> };
    expect(JSON.stringify(last)).toContain('deploy status?');
    // Every envelope acked once stored.
    expect(slack.envelopes.every((e) => e.acked)).toBe(true);
  });

  it('an unknown user gets a pairing code in the DM and no run; iris pairing approve lets them in', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'Hi: ' });
    await writePlatformConfig(home, slackYaml());
    await start();
    dm(STRANGER, STRANGER_DM, 'let me in');
    const [pairing] = await slack.waitForSent(1, WAIT);
    expect(pairing).toMatchObject({ channel: STRANGER_DM, thread_ts: undefined });
    const code = /pairing code is ([A-Z0-9]{8})/.exec(pairing!.text)?.[1];
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    await acked(mention(STRANGER, 'hi all'));
    expect(modelCalls()).toHaveLength(0);
    expect(inboundRows(home).map((r) => r.state)).toEqual(['ignored', 'ignored']);
    const approved = await runIris(['pairing', 'approve', 'slack', code!], { home });
    expect(approved.code, approved.stderr).toBe(0);
    dm(STRANGER, STRANGER_DM, 'now?');
    const sent = await slack.waitForSent(2, WAIT);
    expect(wire(sent.slice(1))).toEqual([[STRANGER_DM, undefined, 'Hi: now?']]);
    expect(turns()).toEqual(['now?']);
  });

  it('two messages sent during a run are answered after it, in order', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'A: ', delayMs: 1_500 }, { kind: 'echo', prefix: 'A: ' });
    await writePlatformConfig(home, slackYaml());
    await start();
    dm(ALICE, ALICE_DM, 'one');
    await waitFor(() => (modelCalls().length === 1 ? true : undefined), WAIT, 'the first run');
    dm(ALICE, ALICE_DM, 'two');
    dm(ALICE, ALICE_DM, 'three');
    const sent = await slack.waitForSent(3, 20_000);
    expect(sent.map((m) => m.text)).toEqual(['A: one', 'A: two', 'A: three']);
  });

  it('a 4,500-character answer arrives as two messages of at most 4,000 characters', async () => {
    const paragraphs = ['a', 'b', 'c', 'd', 'e'].map((c) => c.repeat(899));
    upstream.script('main-m', { kind: 'text', deltas: [paragraphs.join('\n\n')] });
    await writePlatformConfig(home, slackYaml());
    await start();
    dm(ALICE, ALICE_DM, 'long please');
    const sent = await slack.waitForSent(2, 15_000);
    expect(sent.map((m) => m.text)).toEqual([paragraphs.slice(0, 4).join('\n\n'), paragraphs[4]]);
    for (const m of sent) expect(m.text.length).toBeLessThanOrEqual(4000);
  });

  it('a 500 and a 429 are retried (the 429 after Retry-After); channel_not_found is not', { timeout: 40_000 }, async () => {
    await writePlatformConfig(home, slackYaml());
    await start();
    slack.failNext('chat.postMessage', { status: 500 });
    slack.failNext('chat.postMessage', { status: 429, retryAfter: 1 });
    dm(ALICE, ALICE_DM, 'hi');
    const [sent] = await slack.waitForSent(1, 20_000);
    expect(wire([sent!])).toEqual([[ALICE_DM, undefined, 'ok']]);
    const tries = slack.calls('chat.postMessage');
    expect(tries).toHaveLength(3);
    expect(tries[2]!.at - tries[1]!.at).toBeGreaterThanOrEqual(950);
    expect(await settledOutbox(1)).toMatchObject([{ state: 'sent', attempts: 3 }]);

    slack.failNext('chat.postMessage', { error: 'channel_not_found' });
    const refused = await runIris(['send', '--to', 'slack:CGONE', 'a note', '--json'], { home, env: ENV() });
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ state: 'failed', platform: 'slack', chat_id: 'CGONE', error: 'Slack: channel_not_found' });
    expect(slack.calls('chat.postMessage').filter((c) => c.params.text === 'a note')).toHaveLength(1);
  });

  it('deliver: slack goes to deliver_extra.chat_id and thread_id, and to home_channel without one', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'Summary: ' });
    const routes =
      `        alerts:\n          secret: alerts-secret-0123456789\n          deliver: slack\n          prompt: "Summarise {alert}"\n          deliver_extra:\n            chat_id: "${CHANNEL}"\n            thread_id: "1700000000.000100"\n` +
      `        home:\n          secret: home-secret-0123456789ab\n          deliver: slack\n          prompt: "Home {alert}"\n`;
    await writePlatformConfig(home, slackYaml(`      home_channel: "${ALICE_DM}"\n`), routes);
    const gateway = await start();
    expect((await postEvent(gateway.url, 'alerts', { alert: 'disk full' }, { secret: 'alerts-secret-0123456789' })).status).toBe(202);
    expect((await postEvent(gateway.url, 'home', { alert: 'cpu hot' }, { secret: 'home-secret-0123456789ab' })).status).toBe(202);
    const sent = await slack.waitForSent(2, 15_000);
    expect(wire(sent).sort()).toEqual(
      [
        [CHANNEL, '1700000000.000100', 'Summary: Summarise disk full'],
        [ALICE_DM, undefined, 'Summary: Home cpu hot'],
      ].sort(),
    );
  });
  it('@Iris /sethome in a channel sets the home channel; iris send goes there, and into a thread', async () => {
    await writePlatformConfig(home, slackYaml(`      owners: ["${BOB}"]\n`));
    await start();
    const top = mention(BOB, '/sethome');
    const [answer] = await slack.waitForSent(1, WAIT);
    expect(wire([answer!])).toEqual([[CHANNEL, top, 'This chat is now the home channel for slack: deliveries without a chat come here.']]);
    expect(modelCalls()).toHaveLength(0);
    const result = await runIris(['send', '--to', 'slack', '**Deploy** done', '--json'], { home, env: ENV() });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ state: 'sent', chat_id: CHANNEL, thread_id: null });
    const threaded = await runIris(['send', '--to', `slack:${CHANNEL}:${top}`, 'in the thread', '--json'], { home, env: ENV() });
    expect(JSON.parse(threaded.stdout)).toMatchObject({ state: 'sent', chat_id: CHANNEL, thread_id: top });
    expect(wire(slack.sent.slice(1))).toEqual([
      [CHANNEL, undefined, '*Deploy* done'],
      [CHANNEL, top, 'in the thread'],
    ]);
  });
});

describe('slack: the socket', () => {
  it('a dropped socket reconnects; a message sent during the drop is answered once', { timeout: 30_000 }, async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'D: ' });
    await writePlatformConfig(home, slackYaml());
    const gateway = await start();
    dm(ALICE, ALICE_DM, 'before');
    await slack.waitForSent(1, WAIT);
    slack.refuseSockets(true);
    slack.dropSocket();
    await slack.waitFor(() => slack.openSockets() === 0, WAIT, 'the socket gone');
    dm(ALICE, ALICE_DM, 'during the drop');
    slack.refuseSockets(false);
    await slack.waitForSent(2, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(slack.sent.map((m) => m.text)).toEqual(['D: before', 'D: during the drop']);
    expect(slack.connections()).toBeGreaterThanOrEqual(2);
    expect(inboundRows(home)).toHaveLength(2);
    // A disconnect frame: Slack asks for a reconnect; the gateway does and answers on the new socket.
    const before = slack.connections();
    slack.disconnect('refresh_requested');
    await slack.waitFor(() => slack.connections() > before && slack.openSockets() === 1, 15_000, 'the reconnect after disconnect');
    dm(ALICE, ALICE_DM, 'after refresh');
    await slack.waitForSent(3, WAIT);
    expect(gateway.output()).not.toContain(slack.botToken);
    expect(gateway.output()).not.toContain(slack.appToken);
  });

  it('an unacknowledged envelope sent again under a new envelope_id is answered once', { timeout: 30_000 }, async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'U: ' });
    await writePlatformConfig(home, slackYaml());
    await start();
    slack.ignoreAcks(true);
    const ts = dm(ALICE, ALICE_DM, 'are you there?');
    await slack.waitFor(() => slack.envelopes.filter((e) => e.eventTs === ts).length === 2, WAIT, 'the re-send');
    slack.ignoreAcks(false);
    await slack.waitFor(() => slack.envelopes.some((e) => e.eventTs === ts && e.acked), WAIT, 'the re-send acked');
    const resends = slack.envelopes.filter((e) => e.eventTs === ts);
    expect(new Set(resends.map((e) => e.envelope_id)).size).toBe(resends.length);
    await slack.waitForSent(1, WAIT);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(slack.sent.map((m) => m.text)).toEqual(['U: are you there?']);
    expect(inboundRows(home)).toHaveLength(1);
    expect(turns()).toEqual(['are you there?']);
  });

  it("the bot's own posts echoed back start nothing", async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'E: ' });
    await writePlatformConfig(home, slackYaml());
    await start();
    dm(ALICE, ALICE_DM, 'hello');
    const [answer] = await slack.waitForSent(1, WAIT);
    // Slack sends the bot's answer back as a message.im event (with bot_id), and as one without.
    await acked(slack.pushMessage({ user: slack.botUserId, channel: ALICE_DM, text: answer!.text, botId: 'B0001' }));
    await acked(slack.pushMessage({ user: slack.botUserId, channel: ALICE_DM, text: answer!.text }));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(slack.sent).toHaveLength(1);
    expect(inboundRows(home)).toHaveLength(1);
    expect(turns()).toEqual(['hello']);
  });

  it('iris gateway status --json shows slack connected', async () => {
    await writePlatformConfig(home, slackYaml());
    await start();
    const platforms = await waitFor(async () => {
      const result = await runIris(['gateway', 'status', '--json'], { home });
      const parsed = (JSON.parse(result.stdout) as { platforms?: Array<{ name: string; connected: boolean; detail: string }> }).platforms;
      return parsed?.[0]?.connected ? parsed : undefined;
    }, WAIT, 'slack connected in the status');
    expect(platforms).toMatchObject([{ name: 'slack', connected: true, detail: 'connected as @iris' }]);
  });
});
