// Discord end to end: `iris gateway run` as a subprocess with the fake model upstream and the fake
// Discord (test/fakes/discord-api.ts: REST and a Gateway speaking the real frames) in this process.
// Inbound is the Gateway's MESSAGE_CREATE; answers go out through POST /channels/{id}/messages,
// from the outbox.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord-api.js';
import { lastUserText, startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { postEvent, startGatewayProcess, waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { inboundRows, outboxRows, platformSessions, writePlatformConfig } from '../helpers/platforms.js';

const TOKEN = 'MTIzNDU2Nzg5.fake-discord.token_for_e2e_tests';
const ALICE = '410000000000000001';
const BOB = '420000000000000002';
const STRANGER = '430000000000000003';
const GUILD = '510000000000000001';
const CHANNEL = '520000000000000001';
const THREAD = '530000000000000001';
const DM_ALICE = '540000000000000001';
const DM_STRANGER = '540000000000000003';
const WAIT = 10_000;

let upstream: FakeUpstream;
let discord: FakeDiscord;
let dir: string;
let home: string;
const running: GatewayProcess[] = [];

beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());
beforeEach(async () => {
  upstream.reset();
  discord = await startFakeDiscord({ token: TOKEN, heartbeatIntervalMs: 1000 });
  discord.addChannel({ id: DM_ALICE, type: 1 });
  discord.addChannel({ id: DM_STRANGER, type: 1 });
  discord.addChannel({ id: CHANNEL, type: 0, guildId: GUILD });
  discord.addChannel({ id: THREAD, type: 11, guildId: GUILD, parentId: CHANNEL });
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
});
afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.stop('SIGKILL');
  await discord.close();
  await removeDir(dir);
});

const discordYaml = (extra = '') => `  discord:\n    enabled: true\n    extra:\n      api_base: ${discord.url}\n      allowed_users: ["${ALICE}", "${BOB}"]\n${extra}`;
const ENV = (token = TOKEN) => ({ OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${upstream.url}/v1`, DISCORD_BOT_TOKEN: token });

async function start(token?: string): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess(home, ENV(token));
  running.push(gateway);
  await discord.waitFor(() => discord.isConnected(), WAIT, 'the gateway connected to Discord');
  return gateway;
}

const dm = (text: string, channelId = DM_ALICE, authorId = ALICE) => discord.pushMessage({ channelId, authorId, authorName: 'alice', content: text });
const mention = (text: string, channelId = CHANNEL, authorId = ALICE) => discord.pushMessage({ channelId, guildId: GUILD, authorId, content: `<@${discord.botId}> ${text}`, mentionsBot: true });
const modelCalls = () => upstream.requests.filter((r) => r.path.endsWith('/chat/completions') || r.path.endsWith('/responses'));
/** The model requests that are turns, by the user's text (session titles are model calls too). */
const turns = () => modelCalls().map((r) => lastUserText(r.body as Record<string, unknown>)).filter((text) => !text.includes('\n'));
const wire = () => discord.sent.map((m) => [m.channelId, m.content]);
const settledOutbox = (count: number) =>
  waitFor(() => {
    const rows = outboxRows(home);
    return rows.length === count && rows.every((r) => r.state === 'sent' || r.state === 'failed') ? rows : undefined;
  }, 15_000, `${count} settled outbox row(s)`);
const stored = (count: number) => waitFor(() => (inboundRows(home).length >= count ? true : undefined), WAIT, `${count} stored message(s)`);

describe('discord: in and out', () => {
  it('a DM, a guild mention and a thread message are answered where they came from, one session each; the bot’s own posts start nothing', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'Re: ' });
    await writePlatformConfig(home, discordYaml());
    await start();
    dm('Is the build green?');
    await discord.waitForSent(1, WAIT);
    mention('what about staging?');
    await discord.waitForSent(2, WAIT);
    mention('and in here?', THREAD);
    await discord.waitForSent(3, WAIT);
    expect(wire()).toEqual([
      [DM_ALICE, 'Re: Is the build green?'],
      [CHANNEL, 'Re: what about staging?'],
      [THREAD, 'Re: and in here?'],
    ]);
    expect(discord.typing).toEqual(expect.arrayContaining([DM_ALICE, CHANNEL, THREAD]) as unknown);
    expect(inboundRows(home).map((r) => [r.chat_id, r.thread_id, r.user_id, r.text, r.state])).toEqual([
      [DM_ALICE, null, ALICE, 'Is the build green?', 'answered'],
      [CHANNEL, null, ALICE, 'what about staging?', 'answered'],
      [CHANNEL, THREAD, ALICE, 'and in here?', 'answered'],
    ]);
    expect(platformSessions(home)).toHaveLength(3);
    // Each answer came back over the Gateway as the bot's own MESSAGE_CREATE: nothing stored, no run.
    await new Promise((r) => setTimeout(r, 500));
    expect(turns()).toEqual(['Is the build green?', 'what about staging?', 'and in here?']);
    expect(inboundRows(home)).toHaveLength(3);
    expect((await settledOutbox(3)).every((r) => r.state === 'sent' && r.attempts === 1)).toBe(true);
  });

  it('an unknown user gets a pairing code in a DM; approved, they are answered; in a guild nothing is sent', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'Hi: ' });
    await writePlatformConfig(home, discordYaml());
    await start();
    dm('let me in', DM_STRANGER, STRANGER);
    const [pairing] = await discord.waitForSent(1, WAIT);
    expect(pairing?.channelId).toBe(DM_STRANGER);
    const code = /pairing code is ([A-Z0-9]{8})/.exec(pairing?.content ?? '')?.[1];
    expect(pairing?.content).toContain(`iris pairing approve discord ${code}`);
    mention('hi all', CHANNEL, STRANGER);
    await stored(2);
    dm('ping');
    await discord.waitForSent(2, WAIT);
    expect(discord.sent).toHaveLength(2);
    expect(turns()).toEqual(['ping']);
    expect((await runIris(['pairing', 'approve', 'discord', code ?? ''], { home })).code).toBe(0);
    dm('now?', DM_STRANGER, STRANGER);
    await discord.waitForSent(3, WAIT);
    expect(wire()).toEqual([
      [DM_STRANGER, expect.stringContaining('pairing code') as unknown],
      [DM_ALICE, 'Hi: ping'],
      [DM_STRANGER, 'Hi: now?'],
    ]);
    expect(inboundRows(home).map((r) => r.state)).toEqual(['ignored', 'ignored', 'answered', 'answered']);
  });

  it('two messages sent during a run are answered after it, in order', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'A: ', delayMs: 1_500 }, { kind: 'echo', prefix: 'A: ' });
    await writePlatformConfig(home, discordYaml());
    await start();
    dm('one');
    await waitFor(() => (modelCalls().length === 1 ? true : undefined), WAIT, 'the first run');
    dm('two');
    dm('three');
    const sent = await discord.waitForSent(3, 20_000);
    expect(sent.map((m) => m.content)).toEqual(['A: one', 'A: two', 'A: three']);
  });

  it('a 2,500-character answer arrives as two messages of at most 2,000; with Remaining 0 the second waits out Reset-After', async () => {
    const paragraphs = ['a', 'b', 'c'].map((c) => c.repeat(800));
    upstream.script('main-m', { kind: 'text', deltas: [paragraphs.join('\n\n')] });
    discord.setRateLimit({ limit: 1, resetAfterMs: 1500 });
    await writePlatformConfig(home, discordYaml());
    await start();
    dm('long please');
    const sent = await discord.waitForSent(2, 15_000);
    expect(sent.map((m) => m.content)).toEqual([paragraphs.slice(0, 2).join('\n\n'), paragraphs[2]]);
    for (const m of sent) expect(m.content.length).toBeLessThanOrEqual(2000);
    expect((sent[1]?.at ?? 0) - (sent[0]?.at ?? 0)).toBeGreaterThanOrEqual(1_300);
    expect(discord.violations).toEqual([]);
    expect((await settledOutbox(2)).map((r) => [r.part, r.state, r.attempts])).toEqual([
      [0, 'sent', 1],
      [1, 'sent', 1],
    ]);
  });

  it('a 500 and a 429 are retried (the 429 after its retry_after); a 403 is not', { timeout: 40_000 }, async () => {
    await writePlatformConfig(home, discordYaml());
    await start();
    discord.failNext({ status: 500, message: 'Internal Server Error' });
    discord.failNext({ status: 429, retryAfter: 1 });
    dm('hi');
    const [sent] = await discord.waitForSent(1, 20_000);
    expect(sent).toMatchObject({ channelId: DM_ALICE, content: 'ok' });
    const tries = discord.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/messages'));
    expect(tries).toHaveLength(3);
    expect((tries[2]?.at ?? 0) - (tries[1]?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect(await settledOutbox(1)).toMatchObject([{ state: 'sent', attempts: 3 }]);

    discord.failNext({ status: 403, message: 'Missing Access', code: 50001 });
    const refused = await runIris(['send', '--to', `discord:${CHANNEL}`, 'a note', '--json'], { home, env: ENV() });
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ state: 'failed', platform: 'discord', chat_id: CHANNEL, error: 'Discord 403: Missing Access (code 50001)' });
    expect(discord.requests.filter((r) => (r.body as { content?: string } | undefined)?.content === 'a note')).toHaveLength(1);
  });

  it('deliver: discord goes to deliver_extra.chat_id (and thread_id), and to home_channel without one', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'Summary: ' });
    const routes =
      `        alerts:\n          secret: alerts-secret-0123456789\n          deliver: discord\n          prompt: "Summarise {alert}"\n          deliver_extra:\n            chat_id: "${CHANNEL}"\n            thread_id: "${THREAD}"\n` +
      `        home:\n          secret: home-secret-0123456789ab\n          deliver: discord\n          prompt: "Home {alert}"\n`;
    await writePlatformConfig(home, discordYaml(`      home_channel: "${DM_ALICE}"\n`), routes);
    const gateway = await start();
    expect((await postEvent(gateway.url, 'alerts', { alert: 'disk full' }, { secret: 'alerts-secret-0123456789' })).status).toBe(202);
    expect((await postEvent(gateway.url, 'home', { alert: 'cpu hot' }, { secret: 'home-secret-0123456789ab' })).status).toBe(202);
    await discord.waitForSent(2, 15_000);
    expect(wire().sort()).toEqual(
      [
        [THREAD, 'Summary: Summarise disk full'],
        [DM_ALICE, 'Summary: Home cpu hot'],
      ].sort(),
    );
  });
});

describe('discord: the Gateway connection', () => {
  it('a dropped socket is RESUMEd; a message sent during the drop is answered once; a replay of an answered one is not answered again', { timeout: 40_000 }, async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'R: ' });
    await writePlatformConfig(home, discordYaml());
    await start();
    dm('first');
    await discord.waitForSent(1, WAIT);
    const session = discord.sessionId();
    discord.dropSocket();
    dm('while away');
    await discord.waitForSent(2, 15_000);
    expect(discord.opsOf(6)[0]?.d).toMatchObject({ session_id: session });
    expect(discord.opsOf(2)).toHaveLength(1);
    // Discord delivers the answered messages once more after the next RESUME.
    discord.duplicateOnResume(4);
    discord.requestReconnect();
    await discord.waitForOps(6, 2, WAIT);
    await discord.waitFor(() => discord.isConnected(), WAIT, 'resumed');
    // Both user messages at least (the echo of the last answer may still have been unseen, and so
    // replayed as missed rather than sent again).
    expect(discord.redelivered()).toBeGreaterThanOrEqual(3);
    dm('after');
    await discord.waitForSent(3, WAIT);
    await new Promise((r) => setTimeout(r, 500));
    expect(wire()).toEqual([
      [DM_ALICE, 'R: first'],
      [DM_ALICE, 'R: while away'],
      [DM_ALICE, 'R: after'],
    ]);
    expect(turns()).toEqual(['first', 'while away', 'after']);
    expect(inboundRows(home).map((r) => r.text)).toEqual(['first', 'while away', 'after']);
  });

  it('a refused RESUME (INVALID_SESSION) is followed by a new IDENTIFY and messages flow again', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'N: ' });
    await writePlatformConfig(home, discordYaml());
    await start();
    discord.invalidateSession();
    discord.dropSocket();
    await discord.waitForOps(2, 2, 15_000);
    await discord.waitFor(() => discord.isConnected(), WAIT, 'ready again');
    dm('new session');
    await discord.waitForSent(1, WAIT);
    expect(wire()).toEqual([[DM_ALICE, 'N: new session']]);
  });

  it('iris gateway status --json shows discord connected; with a rejected token, not connected and why', async () => {
    await writePlatformConfig(home, discordYaml());
    const gateway = await start();
    const platforms = await waitFor(async () => {
      const result = await runIris(['gateway', 'status', '--json'], { home });
      const parsed = (JSON.parse(result.stdout) as { platforms?: Array<{ name: string; connected: boolean; detail: string }> }).platforms;
      return parsed?.[0]?.connected ? parsed : undefined;
    }, WAIT, 'discord connected in the status');
    expect(platforms).toMatchObject([{ name: 'discord', connected: true, detail: 'connected as iris-test' }]);
    expect(gateway.output()).not.toContain(TOKEN);
    await gateway.stop('SIGTERM');

    const wrong = await startGatewayProcess(home, ENV('wrong-token-0123456789'));
    running.push(wrong);
    const refused = await waitFor(async () => {
      const result = await runIris(['gateway', 'status', '--json'], { home });
      const parsed = (JSON.parse(result.stdout) as { platforms?: Array<{ name: string; connected: boolean; detail: string }> }).platforms;
      return parsed?.[0]?.detail.startsWith('token rejected') ? parsed : undefined;
    }, WAIT, 'the rejected token in the status');
    // The first gateway left its session in the store: the new one RESUMEs it, and Discord closes
    // the socket with 4004 for the wrong token (without a saved session: GET /gateway/bot's 401).
    expect(refused).toMatchObject([{ name: 'discord', connected: false, detail: 'token rejected (4004 Authentication failed)' }]);
    expect(wrong.output()).not.toContain('wrong-token');
  });
});
