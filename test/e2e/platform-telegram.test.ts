// Telegram end to end: `iris gateway run` as a subprocess with the fake model upstream and the fake
// Bot API (test/fakes/telegram-api.ts) in this process. Inbound is getUpdates long polling against
// the fake's update queue; answers go out through sendMessage, from the outbox.
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startFakeTelegram, type FakePush, type FakeSentMessage, type FakeTelegram } from '../fakes/telegram-api.js';
import { lastUserText, startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { postEvent, startGatewayProcess, waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { inboundRows, outboxRows, writePlatformConfig } from '../helpers/platforms.js';

const TOKEN = '123456789:AAF-fake_token_for_tests_0123456789ab';
const ALICE = 111_111;
const BOB = 222_222;
const STRANGER = 333_333;
const GROUP = -1_001_234_567_890;
/** For an answer to arrive: a run starts a runtime and calls the model (parallel test files slow it down). */
const WAIT = 10_000;

let upstream: FakeUpstream;
let telegram: FakeTelegram;
let dir: string;
let home: string;
const running: GatewayProcess[] = [];

beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());
beforeEach(async () => {
  upstream.reset();
  telegram = await startFakeTelegram({ token: TOKEN });
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
});
afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.stop('SIGKILL');
  await telegram.close();
  await removeDir(dir);
});

const telegramYaml = (extra = '') =>
  `  telegram:\n    enabled: true\n    extra:\n      api_base: ${telegram.url}\n      poll_timeout: 1\n      allowed_users: ["${ALICE}", ${BOB}]\n${extra}`;

const ENV = (token = TOKEN) => ({ OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${upstream.url}/v1`, TELEGRAM_BOT_TOKEN: token });

async function start(token?: string): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess(home, ENV(token));
  running.push(gateway);
  return gateway;
}

/** A direct message from `user` (its chat id is the user's id, as on Telegram). */
const dm = (user: number, text: string, over: Partial<FakePush> = {}) => telegram.pushMessage({ chatId: user, userId: user, text, ...over });
/** A message in the forum group, in topic `threadId` when given. */
const inGroup = (user: number, text: string, threadId?: number) =>
  telegram.pushMessage({ chatId: GROUP, userId: user, text, chatType: 'supergroup', ...(threadId !== undefined ? { threadId } : {}) });

/** Resolves once the gateway confirmed `updateId` (a getUpdates asked with a higher offset): it was stored by then. */
const confirmed = (updateId: number, timeoutMs = 10_000) =>
  telegram.waitFor(() => telegram.calls('getUpdates').some((call) => Number(call.params.offset) > updateId), timeoutMs, `update ${updateId} confirmed`);

/** Every model request: the turns, and the session titles named after a first turn. */
const modelCalls = () => upstream.requests.filter((r) => r.path.endsWith('/chat/completions') || r.path.endsWith('/responses'));
/** The model requests that are turns, by the user's text. */
const turns = () => modelCalls().map((r) => lastUserText(r.body as Record<string, unknown>)).filter((text) => !text.includes('\n'));
/** Waits until the outbox holds `count` messages and none is still waiting (the fake sees a send before the gateway records it). */
const settledOutbox = (count: number) =>
  waitFor(() => {
    const rows = outboxRows(home);
    return rows.length === count && rows.every((r) => r.state === 'sent' || r.state === 'failed') ? rows : undefined;
  }, 10_000, `${count} settled outbox row(s)`);
const sendCalls = () => telegram.calls('sendMessage');
const wire = (messages: readonly FakeSentMessage[]) => messages.map((m) => [m.chat_id, m.message_thread_id, m.parse_mode, m.text]);

/**
 * Watches each getUpdates as it arrives, before the fake acts on it: the offset it names confirms
 * the updates below it, so each of those must be in state.db already (read there and then).
 * `unstored` lists the update ids confirmed too early; `stop()` ends the watch at the next call.
 */
function watchOffsets() {
  const known = new Map<number, string>();
  const unstored: number[] = [];
  const offsets: number[] = [];
  let checked = 0;
  let stopping = false;
  const watching = telegram.waitFor(
    () => {
      for (const update of telegram.pending()) {
        const message = update.message as { message_id?: number; chat?: { id?: number } } | undefined;
        if (message) known.set(Number(update.update_id), `${message.chat?.id}/${message.message_id}`);
      }
      const calls = telegram.calls('getUpdates');
      for (const call of calls.slice(checked)) {
        if (call.params.offset === undefined) continue;
        const offset = Number(call.params.offset);
        offsets.push(offset);
        const stored = new Set(inboundRows(home).map((r) => `${r.chat_id}/${r.message_id}`));
        for (const [id, key] of known) if (id < offset && !stored.has(key) && !unstored.includes(id)) unstored.push(id);
      }
      checked = calls.length;
      return stopping;
    },
    60_000,
    'the end of the offset watch',
  );
  return {
    unstored,
    offsets,
    async stop() {
      stopping = true;
      await watching;
    },
  };
}

/**
 * Until `release()`: every getUpdates that names an offset (one that would confirm updates) answers
 * 502, a fault installed as the call arrives, before the fake reads it.
 */
function holdConfirmations() {
  let holding = true;
  let seen = 0;
  const released = telegram.waitFor(
    () => {
      const calls = telegram.calls('getUpdates');
      for (const call of calls.slice(seen)) {
        if (holding && call.params.offset !== undefined) telegram.failNext('getUpdates', { status: 502, description: 'Bad Gateway' });
      }
      seen = calls.length;
      return !holding;
    },
    60_000,
    'the confirmations released',
  );
  return {
    /** Resolves at the next call to the fake after release(). */
    released,
    release() {
      holding = false;
    },
  };
}

type SessionJson = { id: string; source: string; messages: number };
async function sessions(): Promise<SessionJson[]> {
  const listed = await runIris(['sessions', 'list', '--json'], { home });
  expect(listed.code).toBe(0);
  return JSON.parse(listed.stdout) as SessionJson[];
}

describe('telegram: in and out', () => {
  it('a DM is answered in its chat and a forum topic in its topic, one session each; typing shows while the run goes', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'Re: ', delayMs: 1_500 }, { kind: 'echo', prefix: 'Re: ' });
    await writePlatformConfig(home, telegramYaml());
    await start();
    dm(ALICE, 'Is the build green?');
    // "typing…" goes out as the run starts, before the (delayed) answer.
    const [typing] = await telegram.waitForCalls('sendChatAction', 1, WAIT);
    expect(typing!.params).toEqual({ chat_id: String(ALICE), action: 'typing' });
    expect(telegram.sent).toHaveLength(0);
    await telegram.waitForSent(1, WAIT);

    dm(ALICE, 'And the tests?');
    await telegram.waitForSent(2, WAIT);
    inGroup(ALICE, 'Topic 42 question', 42);
    await telegram.waitForSent(3, WAIT);
    inGroup(ALICE, 'Topic 43 question', 43);
    const sent = await telegram.waitForSent(4, WAIT);
    expect(wire(sent)).toEqual([
      [String(ALICE), undefined, 'HTML', 'Re: Is the build green?'],
      [String(ALICE), undefined, 'HTML', 'Re: And the tests?'],
      [String(GROUP), 42, 'HTML', 'Re: Topic 42 question'],
      [String(GROUP), 43, 'HTML', 'Re: Topic 43 question'],
    ]);
    // Typing in a topic names the topic too.
    expect(telegram.calls('sendChatAction').map((c) => c.params)).toContainEqual({ chat_id: String(GROUP), action: 'typing', message_thread_id: 42 });

    const listed = await sessions();
    expect(listed).toHaveLength(3);
    expect(listed.every((s) => s.source === 'telegram')).toBe(true);
    expect(listed.map((s) => s.messages).sort()).toEqual([2, 2, 4]);
    // Every model call of these runs (answers and titles) counts under the platform's source.
    const usage = await runIris(['usage', '--by', 'source', '--json'], { home });
    expect((JSON.parse(usage.stdout) as Array<{ key: string; calls: number }>).map((row) => row.key)).toEqual(['platform:telegram']);
    expect(inboundRows(home).map((r) => [r.chat_id, r.thread_id, r.user_id, r.text, r.state, r.session_key])).toEqual([
      [String(ALICE), null, String(ALICE), 'Is the build green?', 'answered', `telegram:${ALICE}`],
      [String(ALICE), null, String(ALICE), 'And the tests?', 'answered', `telegram:${ALICE}`],
      [String(GROUP), '42', String(ALICE), 'Topic 42 question', 'answered', `telegram:${GROUP}:42/${ALICE}`],
      [String(GROUP), '43', String(ALICE), 'Topic 43 question', 'answered', `telegram:${GROUP}:43/${ALICE}`],
    ]);
    expect((await settledOutbox(4)).map((r) => [r.chat_id, r.thread_id, r.state, r.attempts])).toEqual([
      [String(ALICE), null, 'sent', 1],
      [String(ALICE), null, 'sent', 1],
      [String(GROUP), '42', 'sent', 1],
      [String(GROUP), '43', 'sent', 1],
    ]);
  });

  it('an unknown user gets one pairing code in a DM and no run; iris pairing approve lets them in; in a group nothing is sent', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'Hi: ' });
    await writePlatformConfig(home, telegramYaml());
    await start();
    dm(STRANGER, 'let me in');
    const [pairing] = await telegram.waitForSent(1, WAIT);
    expect(pairing).toMatchObject({ chat_id: String(STRANGER), message_thread_id: undefined });
    const code = /pairing code is ([A-Z0-9]{8})/.exec(pairing!.text)?.[1];
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(pairing!.text).toContain(`iris pairing approve telegram ${code}`);
    // A second message meanwhile: stored (the offset moved past it), still no run, no second code.
    await confirmed(dm(STRANGER, 'hello?'));
    // And in a group: nothing at all, not even a code.
    await confirmed(inGroup(STRANGER, 'hi all'));
    expect(inboundRows(home).map((r) => [r.chat_id, r.text, r.state])).toEqual([
      [String(STRANGER), 'let me in', 'ignored'],
      [String(STRANGER), 'hello?', 'ignored'],
      [String(GROUP), 'hi all', 'ignored'],
    ]);
    expect(outboxRows(home)).toHaveLength(1);
    expect(modelCalls()).toHaveLength(0);
    // An allowed user's answer is a barrier: the drain has run since; still one code only.
    dm(ALICE, 'ping');
    await telegram.waitForSent(2, WAIT);
    expect(wire(telegram.sent.slice(1))).toEqual([[String(ALICE), undefined, 'HTML', 'Hi: ping']]);
    expect(turns()).toEqual(['ping']);

    const approved = await runIris(['pairing', 'approve', 'telegram', code!.toLowerCase()], { home });
    expect(approved.code).toBe(0);
    dm(STRANGER, 'now?');
    const sent = await telegram.waitForSent(3, WAIT);
    expect(wire(sent.slice(2))).toEqual([[String(STRANGER), undefined, 'HTML', 'Hi: now?']]);
    expect(sent.filter((m) => m.text.includes('pairing code'))).toHaveLength(1);
    expect(inboundRows(home).map((r) => r.state)).toEqual(['ignored', 'ignored', 'ignored', 'answered', 'answered']);
  });

  it('two messages sent during a run are answered after it, in order', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'A: ', delayMs: 1_500 }, { kind: 'echo', prefix: 'A: ' });
    await writePlatformConfig(home, telegramYaml());
    await start();
    dm(ALICE, 'one');
    await waitFor(() => (modelCalls().length === 1 ? true : undefined), 10_000, 'the first run');
    dm(ALICE, 'two');
    dm(ALICE, 'three');
    const sent = await telegram.waitForSent(3, 20_000);
    // One run at a time: were they run side by side, the slow first answer would come last.
    expect(sent.map((m) => m.text)).toEqual(['A: one', 'A: two', 'A: three']);
    expect(inboundRows(home).map((r) => [r.text, r.state])).toEqual([
      ['one', 'answered'],
      ['two', 'answered'],
      ['three', 'answered'],
    ]);
  });

  it('a 5,000-character answer arrives as two messages of at most 4,096 characters, in order', async () => {
    const paragraphs = ['a', 'b', 'c', 'd', 'e'].map((c) => c.repeat(999));
    upstream.script('main-m', { kind: 'text', deltas: [paragraphs.join('\n\n')] });
    await writePlatformConfig(home, telegramYaml());
    await start();
    dm(ALICE, 'long please');
    const sent = await telegram.waitForSent(2, 15_000);
    expect(sent.map((m) => m.text)).toEqual([paragraphs.slice(0, 4).join('\n\n'), paragraphs[4]]);
    for (const m of sent) {
      expect(m.text.length).toBeLessThanOrEqual(4096);
      expect(m).toMatchObject({ chat_id: String(ALICE), parse_mode: 'HTML' });
    }
    expect((await settledOutbox(2)).map((r) => [r.part, r.state, r.origin])).toEqual([
      [0, 'sent', 'inbound:1'],
      [1, 'sent', 'inbound:1'],
    ]);
  });

  it('Markdown goes out as Telegram HTML; when Telegram refuses the entities the same answer goes as plain text', async () => {
    const markdown = '**Deploy** done: `npm test` & <ok>, see _notes_';
    upstream.script('main-m', { kind: 'text', deltas: [markdown] });
    await writePlatformConfig(home, telegramYaml());
    await start();
    dm(ALICE, 'status?');
    const [html] = await telegram.waitForSent(1, WAIT);
    expect(wire([html!])).toEqual([[String(ALICE), undefined, 'HTML', '<b>Deploy</b> done: <code>npm test</code> &amp; &lt;ok&gt;, see <i>notes</i>']]);

    telegram.refuseHtml(true);
    dm(ALICE, 'again?');
    const sent = await telegram.waitForSent(2, WAIT);
    expect(wire(sent.slice(1))).toEqual([[String(ALICE), undefined, undefined, markdown]]);
    // Tried once with HTML (refused), once without: three sendMessage calls in all.
    expect(sendCalls().map((c) => c.params.parse_mode)).toEqual(['HTML', 'HTML', undefined]);
    expect((await settledOutbox(2)).map((r) => [r.state, r.attempts])).toEqual([
      ['sent', 1],
      ['sent', 1],
    ]);
  });

  it('a 500 and a 429 are retried (the 429 after its retry_after); a 400 is not', { timeout: 40_000 }, async () => {
    await writePlatformConfig(home, telegramYaml());
    await start();
    // The first retry waits 5 s; the 429 then asks for 1 s instead of the schedule's 25 s.
    telegram.failNext('sendMessage', { status: 500, description: 'Internal Server Error' });
    telegram.failNext('sendMessage', { status: 429, retryAfter: 1 });
    dm(ALICE, 'hi');
    const [sent] = await telegram.waitForSent(1, 20_000);
    expect(wire([sent!])).toEqual([[String(ALICE), undefined, 'HTML', 'ok']]);
    const tries = sendCalls();
    expect(tries).toHaveLength(3);
    const gaps = [tries[1]!.at - tries[0]!.at, tries[2]!.at - tries[1]!.at];
    expect(gaps[0]).toBeGreaterThanOrEqual(4_900);
    expect(gaps[1]).toBeGreaterThanOrEqual(950);
    expect(gaps[1]).toBeLessThan(5_000);
    expect(await settledOutbox(1)).toMatchObject([{ state: 'sent', attempts: 3 }]);

    telegram.failNext('sendMessage', { status: 400, description: 'Bad Request: chat not found' });
    const refused = await runIris(['send', '--to', `telegram:${BOB}`, 'a note', '--json'], { home, env: ENV() });
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ state: 'failed', platform: 'telegram', chat_id: String(BOB), parts: 1, error: 'Telegram 400: Bad Request: chat not found' });
    // `failed` is final: the one refused call is all there will be.
    expect(sendCalls().filter((c) => c.params.text === 'a note')).toHaveLength(1);
    expect(outboxRows(home)[1]).toMatchObject({ state: 'failed', attempts: 1, text: 'a note', chat_id: String(BOB), origin: null });
    expect(telegram.sent).toHaveLength(1);
  });
});

describe('telegram: start and restart', () => {
  it('updates waiting at start are all answered; after a restart nothing is answered twice', { timeout: 40_000 }, async () => {
    await writePlatformConfig(home, telegramYaml());
    upstream.script('main-m', { kind: 'echo', prefix: 'E: ' });
    const first = [dm(ALICE, 'early one'), dm(ALICE, 'early two'), dm(BOB, 'early three')];
    expect(telegram.pending()).toHaveLength(3);
    // Every getUpdates that would confirm them fails while this gateway runs (the offset never
    // reaches the fake), so at the restart all three are still unconfirmed and come again.
    const hold = holdConfirmations();
    const watch = watchOffsets();
    const gateway = await start();
    const sent = await telegram.waitForSent(3, 15_000);
    expect(sent.map((m) => [m.chat_id, m.text]).sort()).toEqual([
      [String(ALICE), 'E: early one'],
      [String(ALICE), 'E: early two'],
      [String(BOB), 'E: early three'],
    ]);
    // The first getUpdates named no offset and got all three.
    expect(telegram.calls('getUpdates')[0]!.params.offset).toBeUndefined();
    const stopped = await gateway.stop('SIGTERM');
    expect(stopped, gateway.output()).toEqual({ code: 0, signal: null });
    expect(telegram.pending().map((u) => u.update_id)).toEqual(first);
    // It did try to confirm them, with an offset past the three.
    expect(watch.offsets.some((offset) => offset > Math.max(...first))).toBe(true);
    hold.release();

    const again = await start();
    await hold.released;
    // The restarted gateway confirms the three it is handed again (stored already: dedup)...
    await telegram.waitFor(() => telegram.pending().length === 0, 15_000, 'the old updates confirmed');
    // ...and a new message, answered after them, proves they are not waiting to be answered.
    dm(ALICE, 'after restart');
    await telegram.waitForSent(4, 15_000);
    expect(telegram.sent.map((m) => m.text).sort()).toEqual(['E: after restart', 'E: early one', 'E: early three', 'E: early two']);
    expect(inboundRows(home)).toHaveLength(4);
    expect((await settledOutbox(4)).map((r) => r.state)).toEqual(['sent', 'sent', 'sent', 'sent']);
    // Each message ran once.
    expect(turns().sort()).toEqual(['after restart', 'early one', 'early three', 'early two']);
    // Every offset the gateway sent confirmed only what state.db held already.
    await watch.stop();
    expect(watch.offsets.length).toBeGreaterThan(1);
    expect(Math.max(...watch.offsets)).toBeGreaterThan(Math.max(...first));
    expect(watch.unstored).toEqual([]);
    expect(again.output()).not.toContain('Telegram poller crashed');
  });

  it('a run cut off by SIGTERM is answered once after the restart', { timeout: 40_000 }, async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'Slow: ', delayMs: 8_000 });
    await writePlatformConfig(home, telegramYaml());
    const gateway = await start();
    dm(ALICE, 'take your time');
    await waitFor(() => (modelCalls().length === 1 ? true : undefined), 10_000, 'the run');
    expect((await gateway.stop('SIGTERM')).code).toBe(0);
    expect(telegram.sent).toHaveLength(0);
    expect(inboundRows(home).map((r) => r.state)).toEqual(['queued']);

    upstream.script('main-m', { kind: 'echo', prefix: 'Now: ' });
    await start();
    const [sent] = await telegram.waitForSent(1, 15_000);
    expect(sent!.text).toBe('Now: take your time');
    dm(ALICE, 'next');
    await telegram.waitForSent(2, 15_000);
    expect(telegram.sent.map((m) => m.text)).toEqual(['Now: take your time', 'Now: next']);
    expect(inboundRows(home).map((r) => [r.text, r.state])).toEqual([
      ['take your time', 'answered'],
      ['next', 'answered'],
    ]);
  });
});

describe('telegram: deliveries, home channel and chat commands', () => {
  it('deliver: telegram goes to deliver_extra.chat_id (and thread_id), and to home_channel without one', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'Summary: ' });
    const routes =
      `        alerts:\n          secret: alerts-secret-0123456789\n          deliver: telegram\n          prompt: "Summarise {alert}"\n          deliver_extra:\n            chat_id: "${GROUP}"\n            thread_id: "42"\n` +
      `        home:\n          secret: home-secret-0123456789ab\n          deliver: telegram\n          prompt: "Home {alert}"\n`;
    await writePlatformConfig(home, telegramYaml(`      home_channel: "${ALICE}"\n`), routes);
    const gateway = await start();
    expect((await postEvent(gateway.url, 'alerts', { alert: 'disk full' }, { secret: 'alerts-secret-0123456789' })).status).toBe(202);
    expect((await postEvent(gateway.url, 'home', { alert: 'cpu hot' }, { secret: 'home-secret-0123456789ab' })).status).toBe(202);
    const sent = await telegram.waitForSent(2, 15_000);
    expect(wire(sent).sort()).toEqual([
      [String(GROUP), 42, 'HTML', 'Summary: Summarise disk full'],
      [String(ALICE), undefined, 'HTML', 'Summary: Home cpu hot'],
    ].sort());
    expect((await settledOutbox(2)).map((r) => [r.origin, r.thread_id, r.state]).sort()).toEqual([
      ['webhook:1', '42', 'sent'],
      ['webhook:2', null, 'sent'],
    ]);
  });

  it('/sethome writes home_channel to config.yaml and answers; iris send without a chat then goes there, and to a named topic', async () => {
    // /sethome is an owner's (platform-owners.test.ts has the refusals).
    await writePlatformConfig(home, telegramYaml(`      owners: [${BOB}]\n`));
    await start();
    inGroup(BOB, '/sethome');
    const [answer] = await telegram.waitForSent(1, WAIT);
    expect(wire([answer!])).toEqual([[String(GROUP), undefined, 'HTML', 'This chat is now the home channel for telegram: deliveries without a chat come here.']]);
    const config = parse(await readFile(join(home, 'config.yaml'), 'utf8')) as { platforms: { telegram: { extra: { home_channel: unknown; allowed_users: unknown } } } };
    expect(config.platforms.telegram.extra.home_channel).toBe(String(GROUP));
    // The rest of the section is as it was.
    expect(config.platforms.telegram.extra.allowed_users).toEqual([String(ALICE), BOB]);
    expect(modelCalls()).toHaveLength(0);

    const result = await runIris(['send', '--to', 'telegram', '**Deploy** done', '--json'], { home, env: ENV() });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ state: 'sent', chat_id: String(GROUP), thread_id: null });
    expect(wire(telegram.sent.slice(1))).toEqual([[String(GROUP), undefined, 'HTML', '<b>Deploy</b> done']]);
    // A chat and a topic named on the command line.
    const topic = await runIris(['send', '--to', `telegram:${GROUP}:42`, 'in the topic', '--json'], { home, env: ENV() });
    expect(JSON.parse(topic.stdout)).toMatchObject({ state: 'sent', chat_id: String(GROUP), thread_id: '42' });
    expect(wire(telegram.sent.slice(2))).toEqual([[String(GROUP), 42, 'HTML', 'in the topic']]);
  });

  it('/help (also /help@bot and an unknown command) answers the commands without a model call; /new starts a new session; /model switches the model', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'M: ' });
    upstream.script('other-m', { kind: 'echo', prefix: 'O: ' });
    await writePlatformConfig(home, telegramYaml());
    await start();
    dm(ALICE, '/help');
    const [help] = await telegram.waitForSent(1, WAIT);
    expect(wire([help!])).toEqual([
      [
        String(ALICE),
        undefined,
        'HTML',
        [
          // Alice is no owner: her list has no owner command (platform-owners.test.ts has an owner's).
          'Commands:',
          '/new: start a new conversation (the agent forgets this one)',
          "/model &lt;name-or-alias&gt; [--provider &lt;p&gt;]: switch this conversation's model",
          '/model: show the current model and the choices',
          '/help: this list',
          'Anything else goes to the agent.',
        ].join('\n'),
      ],
    ]);
    // In a group the command may carry the bot's name; an unknown command gets the list too.
    inGroup(BOB, '/help@iris_test_bot');
    inGroup(BOB, '/frobnicate');
    const more = await telegram.waitForSent(3, WAIT);
    expect(wire(more.slice(1))).toEqual([
      [String(GROUP), undefined, 'HTML', help!.text],
      [String(GROUP), undefined, 'HTML', `Unknown command /frobnicate.\n${help!.text}`],
    ]);
    expect(modelCalls()).toHaveLength(0);

    dm(ALICE, 'first');
    await telegram.waitForSent(4, WAIT);
    expect(telegram.sent[3]!.text).toBe('M: first');
    const before = await sessions();
    expect(before).toHaveLength(1);

    dm(ALICE, '/new');
    const sentNew = await telegram.waitForSent(5, WAIT);
    const after = await sessions();
    expect(after).toHaveLength(2);
    const fresh = after.find((s) => s.id !== before[0]!.id)!;
    expect(sentNew[4]!.text).toBe(`New conversation started (session ${fresh.id}).`);
    expect(fresh).toMatchObject({ source: 'telegram', messages: 0 });

    dm(ALICE, '/model other-m');
    const switched = await telegram.waitForSent(6, WAIT);
    expect(switched[5]!.text.split('\n')[0]).toBe('session now on openai · other-m');
    // /new and /model ran no turn.
    expect(turns()).toEqual(['first']);

    dm(ALICE, 'second');
    await telegram.waitForSent(7, WAIT);
    expect(telegram.sent[6]!.text).toBe('O: second');
    const second = modelCalls().find((r) => lastUserText(r.body as Record<string, unknown>) === 'second');
    expect((second!.body as { model: string }).model).toBe('other-m');
    expect((modelCalls()[0]!.body as { model: string }).model).toBe('main-m');
    // The turn went to the new session; the first one kept its two messages.
    const last = await sessions();
    expect(last.map((s) => [s.id, s.messages]).sort()).toEqual([
      [before[0]!.id, 2],
      [fresh.id, 2],
    ].sort());
  });
});

describe('telegram: robustness and status', () => {
  it('a malformed update is logged and skipped; the next message is still answered', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'R: ' });
    await writePlatformConfig(home, telegramYaml());
    const gateway = await start();
    const bad = telegram.pushRawUpdate({ message: { message_id: 'not a number', chat: 'nowhere', text: 'boom' } });
    await confirmed(bad);
    dm(ALICE, 'still there?');
    const [sent] = await telegram.waitForSent(1, WAIT);
    expect(sent!.text).toBe('R: still there?');
    expect(inboundRows(home).map((r) => r.text)).toEqual(['still there?']);
    expect(gateway.child.exitCode).toBeNull();
    const log = await readFile(join(home, 'logs', 'gateway.log'), 'utf8');
    const skipped = log
      .split('\n')
      .filter((line) => line.includes('Telegram update skipped: malformed'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toMatchObject({ platform: 'telegram', updateId: bad });
    expect(String(skipped[0]!.reason)).toContain('malformed message');
  });

  it('iris gateway status shows telegram connected; with a rejected token, not connected and why', async () => {
    await writePlatformConfig(home, telegramYaml());
    const gateway = await start();
    const status = await waitFor(async () => {
      const result = await runIris(['gateway', 'status'], { home });
      return result.stdout.includes('telegram: connected') ? result : undefined;
    }, 10_000, 'telegram connected in the status');
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^ {2}telegram: connected \(connected as @iris_test_bot\) since \d{4}-\d\d-\d\dT/m);
    const json = await runIris(['gateway', 'status', '--json'], { home });
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as { platforms: unknown }).platforms).toMatchObject([{ name: 'telegram', connected: true, detail: 'connected as @iris_test_bot' }]);
    expect(gateway.output()).not.toContain(TOKEN);
    await gateway.stop('SIGTERM');

    const wrong = await start('987654321:wrong-token-0123456789abcdefghij');
    await telegram.waitForCalls('getUpdates', 1, WAIT);
    const refused = await waitFor(async () => {
      const result = await runIris(['gateway', 'status', '--json'], { home });
      const platforms = (JSON.parse(result.stdout) as { platforms?: Array<{ name: string; connected: boolean; detail: string }> }).platforms;
      return platforms?.[0]?.detail.includes('401') ? platforms : undefined;
    }, 10_000, 'the 401 in the status');
    expect(refused).toMatchObject([{ name: 'telegram', connected: false, detail: 'token rejected (401)' }]);
    const text = await runIris(['gateway', 'status'], { home });
    expect(text.stdout).toContain('  telegram: not connected (token rejected (401)) since ');
    // The token never reaches the output, right or wrong.
    expect(wrong.output()).not.toContain('wrong-token');
  });
});
