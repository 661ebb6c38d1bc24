// Chat owners end to end (DECISIONS § Dashboard sign-in and roles): `iris gateway run` as a
// subprocess with the fake Bot API and the fake model upstream. Owners (platforms.telegram.extra
// .owners) may run /sethome, /model --global and /approve; an allowed user who is not an owner gets
// one sentence and nothing changes. Each owner command, run or refused, is a line in
// logs/audit.log; the bot token and the model key (canaries in .env) never are.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startFakeTelegram, type FakeSentMessage, type FakeTelegram } from '../fakes/telegram-api.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { startGatewayProcess, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir } from '../helpers/iris.js';
import { inboundRows } from '../helpers/platforms.js';

const TOKEN = '987654321:AAF-CANARY_telegram_token_0123456789ab';
const API_KEY = 'sk-CANARY-model-key-0123456789abcdef';
const OWNER = 111_111;
const ALICE = 222_222;
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
  // The secrets only in .env, as a user keeps them: the gateway gets no environment of ours.
  await writeFile(join(home, '.env'), `OPENAI_API_KEY=${API_KEY}\nTELEGRAM_BOT_TOKEN=${TOKEN}\n`, { mode: 0o600 });
  await writeFile(
    join(home, 'config.yaml'),
    [
      'model:',
      '  provider: openai',
      '  default: main-m',
      `  base_url: ${upstream.url}/v1`,
      'platforms:',
      '  telegram:',
      '    enabled: true',
      '    extra:',
      `      api_base: ${telegram.url}`,
      '      poll_timeout: 1',
      `      allowed_users: ["${ALICE}"]`,
      // A bare number: compared as its decimal string, like allowed_users.
      `      owners: [${OWNER}]`,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
});
afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.stop('SIGKILL');
  await telegram.close();
  await removeDir(dir);
});

async function start(): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess(home);
  running.push(gateway);
  return gateway;
}

const dm = (user: number, text: string, userName?: string) => telegram.pushMessage({ chatId: user, userId: user, text, ...(userName ? { userName } : {}) });
const inGroup = (user: number, text: string) => telegram.pushMessage({ chatId: GROUP, userId: user, text, chatType: 'supergroup' });
const wire = (messages: readonly FakeSentMessage[]) => messages.map((m) => [m.chat_id, m.text]);
const modelCalls = () => upstream.requests.filter((r) => r.path.endsWith('/chat/completions') || r.path.endsWith('/responses'));
const configBytes = () => readFile(join(home, 'config.yaml'));

type AuditLine = { time: string; actor: string; from: string; action: string; target: string; ok: boolean; reason?: string };

/** logs/audit.log, every line parsed as JSON; neither canary may be anywhere in the file. */
async function auditLines(): Promise<AuditLine[]> {
  const text = await readFile(join(home, 'logs', 'audit.log'), 'utf8');
  expect(text).not.toContain(TOKEN);
  expect(text).not.toContain(API_KEY);
  expect(text).not.toContain('CANARY');
  expect(text.endsWith('\n')).toBe(true);
  return text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as AuditLine);
}

/** Sends a message and waits for the bot's `count`-th message (the reply to it). */
async function ask(send: () => number, count: number): Promise<FakeSentMessage> {
  send();
  const sent = await telegram.waitForSent(count, WAIT);
  return sent[count - 1]!;
}

describe('telegram owners', () => {
  it('a non-owner gets one sentence for /model --global, /sethome and /approve, and config.yaml stays byte for byte; /model alone still works', async () => {
    await start();
    const before = await configBytes();

    expect(wire([await ask(() => dm(ALICE, '/model other-m --global'), 1)])).toEqual([[String(ALICE), 'Only an owner can use /model --global.']]);
    expect(wire([await ask(() => inGroup(ALICE, '/sethome'), 2)])).toEqual([[String(GROUP), 'Only an owner can use /sethome.']]);
    expect(wire([await ask(() => dm(ALICE, '/approve ABCDEFGH'), 3)])).toEqual([[String(ALICE), 'Only an owner can use /approve.']]);
    expect(await configBytes()).toEqual(before);

    // Her help lists none of them.
    const help = await ask(() => dm(ALICE, '/help'), 4);
    expect(help.text).toBe(
      [
        'Commands:',
        '/new: start a new conversation (the agent forgets this one)',
        "/model &lt;name-or-alias&gt; [--provider &lt;p&gt;]: switch this conversation's model",
        '/model: show the current model and the choices',
        '/help: this list',
        'Anything else goes to the agent.',
      ].join('\n'),
    );
    // Switching her own conversation's model is hers to do, and writes nothing.
    const switched = await ask(() => dm(ALICE, '/model other-m'), 5);
    expect(switched.text.split('\n')[0]).toBe('session now on openai · other-m');
    expect(await configBytes()).toEqual(before);
    expect(modelCalls()).toHaveLength(0);

    const lines = await auditLines();
    expect(lines.map(({ actor, from, action, target, ok, reason }) => ({ actor, from, action, target, ok, reason }))).toEqual([
      { actor: `telegram:${ALICE}`, from: `telegram:${ALICE}`, action: 'chat.model_global', target: 'other-m', ok: false, reason: 'not an owner' },
      { actor: `telegram:${ALICE}`, from: `telegram:${GROUP}`, action: 'chat.sethome', target: String(GROUP), ok: false, reason: 'not an owner' },
      { actor: `telegram:${ALICE}`, from: `telegram:${ALICE}`, action: 'chat.approve', target: '', ok: false, reason: 'not an owner' },
    ]);
    for (const line of lines) expect(Date.parse(line.time)).not.toBeNaN();
    expect(JSON.stringify(lines)).not.toContain('ABCDEFGH');
  });

  it("an owner's /sethome and /model --global write config.yaml; their help lists the owner commands", async () => {
    await start();
    const help = await ask(() => dm(OWNER, '/help'), 1);
    expect(help.text).toBe(
      [
        'Commands:',
        '/new: start a new conversation (the agent forgets this one)',
        "/model &lt;name-or-alias&gt; [--provider &lt;p&gt;] [--global]: switch this conversation's model (--global: also the main model, for every new session)",
        '/model: show the current model and the choices',
        '/sethome: make this chat the home channel (deliveries without a chat go here)',
        '/approve &lt;code&gt;: let in the person who was sent this pairing code',
        '/help: this list',
        'Anything else goes to the agent.',
      ].join('\n'),
    );

    const home_ = await ask(() => inGroup(OWNER, '/sethome'), 2);
    expect(wire([home_])).toEqual([[String(GROUP), 'This chat is now the home channel for telegram: deliveries without a chat come here.']]);
    const afterHome = parse(await readFile(join(home, 'config.yaml'), 'utf8')) as { model: { default: string }; platforms: { telegram: { extra: { home_channel: unknown; owners: unknown } } } };
    expect(afterHome.platforms.telegram.extra.home_channel).toBe(String(GROUP));
    expect(afterHome.platforms.telegram.extra.owners).toEqual([OWNER]);
    expect(afterHome.model.default).toBe('main-m');

    const global = await ask(() => dm(OWNER, '/model other-m --global'), 3);
    expect(global.text.split('\n')[0]).toBe('session now on openai · other-m');
    expect(global.text).toContain('config.yaml: main model set to openai · other-m (new sessions)');
    const afterModel = parse(await readFile(join(home, 'config.yaml'), 'utf8')) as { model: { provider: string; default: string } };
    expect(afterModel.model).toMatchObject({ provider: 'openai', default: 'other-m' });

    const lines = await auditLines();
    expect(lines.map(({ actor, from, action, target, ok, reason }) => ({ actor, from, action, target, ok, reason }))).toEqual([
      { actor: `telegram:${OWNER}`, from: `telegram:${GROUP}`, action: 'chat.sethome', target: String(GROUP), ok: true, reason: undefined },
      { actor: `telegram:${OWNER}`, from: `telegram:${OWNER}`, action: 'chat.model_global', target: 'openai/other-m', ok: true, reason: undefined },
    ]);
  });

  it('a stranger gets a pairing code; the owner sends /approve <code> in their chat; the stranger is answered next', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'Hi: ' });
    await start();
    const pairing = await ask(() => dm(STRANGER, 'let me in', 'Sam'), 1);
    expect(pairing.chat_id).toBe(String(STRANGER));
    const code = /pairing code is ([A-Z0-9]{8})/.exec(pairing.text)?.[1];
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);

    const approved = await ask(() => dm(OWNER, `/approve ${code!.toLowerCase()}`), 2);
    expect(wire([approved])).toEqual([[String(OWNER), `Approved telegram user ${STRANGER} (Sam): their messages now go to the agent.`]]);
    // The code is spent.
    const again = await ask(() => dm(OWNER, `/approve ${code!}`), 3);
    expect(again.text).toBe(`No pending pairing code ${code!} on telegram: it expired (codes last an hour) or was never issued.`);

    const answer = await ask(() => dm(STRANGER, 'now?', 'Sam'), 4);
    expect(wire([answer])).toEqual([[String(STRANGER), 'Hi: now?']]);
    expect(inboundRows(home).filter((r) => r.user_id === String(STRANGER)).map((r) => [r.text, r.state])).toEqual([
      ['let me in', 'ignored'],
      ['now?', 'answered'],
    ]);
    // The model was called with the key from .env: the canary is real, and still not in the audit log.
    expect(modelCalls().length).toBeGreaterThan(0);
    expect(modelCalls().every((r) => r.headers.authorization === `Bearer ${API_KEY}`)).toBe(true);

    const lines = await auditLines();
    expect(lines.map(({ actor, from, action, target, ok, reason }) => ({ actor, from, action, target, ok, reason }))).toEqual([
      { actor: `telegram:${OWNER}`, from: `telegram:${OWNER}`, action: 'chat.approve', target: String(STRANGER), ok: true, reason: undefined },
      { actor: `telegram:${OWNER}`, from: `telegram:${OWNER}`, action: 'chat.approve', target: '', ok: false, reason: 'unknown or expired code' },
    ]);
    // The line names the user let in, never the code.
    const text = await readFile(join(home, 'logs', 'audit.log'), 'utf8');
    expect(text.toUpperCase()).not.toContain(code!);
  });
});
