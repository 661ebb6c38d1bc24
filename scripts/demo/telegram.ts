// `npm run demo -- --platform telegram`: a Telegram chat with the agent, end to end, on this machine
// only. The fake Bot API (test/fakes/telegram-api.ts) stands in for api.telegram.org and the
// scripted fake model for the provider; between them runs the real `bin/iris gateway run`, in a
// temporary IRIS_HOME with platforms.telegram enabled and one allowed user.
//
//   1. start the fake model and the fake Bot API, write config.yaml and .env, start the gateway
//   2. wait for its first getUpdates (it long-polls, as with the real Telegram)
//   3. the user writes to the bot: the fake queues the update and wakes the poll
//   4. wait for the answer's sendMessage and show it, as Telegram received it
//   5. stop the gateway with SIGTERM, close the fakes, remove the temporary directory
//
// The caller (scripts/demo.ts) handles Ctrl-C, failures and the clean-up through `TelegramDemoState`.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeTelegram, type FakeTelegram } from '../../test/fakes/telegram-api.js';
import { startFakeUpstream, type FakeUpstream } from '../../test/fakes/upstream.js';
import { DemoFailure, blank, block, note, step } from './out.js';
import { spawnGateway, stopGateway, waitForListening, type GatewayProcess } from './processes.js';
import { DUMMY_API_KEY, MODEL_ID } from './scenario.js';

export const DEMO_USER_ID = 424242;
export const DEMO_USER_NAME = 'Ada';
export const DEMO_BOT = 'iris_demo_bot';
export const DEMO_QUESTION = 'Hello Iris! What can you do from here?';

/** The scripted model's answer, sent to the chat (Markdown; the adapter sends it as Telegram HTML). */
export const TELEGRAM_ANSWER = [
  "Hello Ada! I'm **Iris**, answering in this Telegram chat _(scripted: written in scripts/demo/telegram.ts, not by a real model)_.",
  '',
  'Here you can:',
  '- ask me anything, as in `iris chat`: this chat is one session, kept between messages',
  '- send `/new` to start over, `/model <name>` to switch models, `/help` for the commands',
].join('\n');

const START_TIMEOUT_MS = 20_000;
const ANSWER_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 20_000;

export type TelegramDemoState = {
  dir?: string;
  home?: string;
  fake?: FakeUpstream;
  telegram?: FakeTelegram;
  gateway?: GatewayProcess;
};

function configYaml(apiBase: string): string {
  return `# Written by npm run demo -- --platform telegram into a temporary IRIS_HOME, removed when the demo ends.
model:
  provider: openai            # the fake model speaks the OpenAI API; OPENAI_BASE_URL points at it
  default: ${MODEL_ID}
platforms:
  webhook:
    enabled: false
    extra:
      host: 127.0.0.1         # the gateway's own listener (health): loopback only
      port: 0
  telegram:
    enabled: true
    extra:
      api_base: ${apiBase}   # the fake Bot API; leave it out for https://api.telegram.org
      allowed_users: [${DEMO_USER_ID}]   # ${DEMO_USER_NAME}'s Telegram user id; anyone else gets a pairing code
`;
}

async function setUp(state: TelegramDemoState, signal: AbortSignal): Promise<NodeJS.ProcessEnv> {
  const fake = await startFakeUpstream();
  state.fake = fake;
  signal.throwIfAborted();
  // The answer, then the session title Iris asks the main model for once the run is done.
  fake.script(MODEL_ID, { kind: 'text', deltas: TELEGRAM_ANSWER.match(/[\s\S]{1,24}/g) ?? [TELEGRAM_ANSWER] }, { kind: 'text', deltas: ['Hello from Telegram'] });
  step('model', `scripted fake model at ${fake.url}/v1 (model id "${MODEL_ID}")`);
  note('not a real model: its answer is written in scripts/demo/telegram.ts');
  blank();

  // Shaped like a real token (<bot id>:<secret>); the fake accepts only this one.
  const token = `7000000001:AA${randomBytes(16).toString('hex')}`;
  const telegram = await startFakeTelegram({ token, botUsername: DEMO_BOT });
  state.telegram = telegram;
  signal.throwIfAborted();
  step('telegram', `fake Telegram Bot API at ${telegram.url} (bot @${DEMO_BOT})`);
  note('it keeps an update queue and answers getUpdates, getMe and sendMessage as Telegram does');
  note(`(test/fakes/telegram-api.ts); nothing reaches api.telegram.org`);
  blank();

  const dir = await mkdtemp(join(tmpdir(), 'iris-demo-'));
  state.dir = dir;
  const home = join(dir, 'home');
  state.home = home;
  await mkdir(home, { mode: 0o700 });
  await writeFile(join(home, 'config.yaml'), configYaml(telegram.url), { mode: 0o600 });
  await writeFile(join(home, '.env'), `TELEGRAM_BOT_TOKEN=${token}\n`, { mode: 0o600 });
  step('home', `temporary IRIS_HOME ${home}`);
  note('config.yaml:');
  block(configYaml(telegram.url));
  note('.env (the token is masked here):');
  block('TELEGRAM_BOT_TOKEN=<masked>');
  blank();

  const env: NodeJS.ProcessEnv = {};
  for (const name of ['HOME', 'LANG', 'TMPDIR', 'PATH']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, { IRIS_HOME: home, OPENAI_API_KEY: DUMMY_API_KEY, OPENAI_BASE_URL: `${fake.url}/v1` });
  return env;
}

async function startGateway(irisBin: string, env: NodeJS.ProcessEnv, state: TelegramDemoState, signal: AbortSignal): Promise<void> {
  step('gateway', 'starting: node bin/iris gateway run');
  note(`with IRIS_HOME, OPENAI_BASE_URL=${env.OPENAI_BASE_URL} and OPENAI_API_KEY=${env.OPENAI_API_KEY} (not a key: the fake takes any)`);
  const gateway = spawnGateway({ irisBin, env, cwd: env.IRIS_HOME ?? process.cwd(), onLine: (line, stream) => block(line, stream === 'out' ? 'gateway |' : 'gateway !') });
  state.gateway = gateway;
  await waitForListening(gateway, START_TIMEOUT_MS, signal);
  const telegram = state.telegram!;
  // The adapter checks the token (getMe), then long-polls: the chat is open once a poll waits.
  await abortable(telegram.waitForCalls('getUpdates', 1, START_TIMEOUT_MS), signal);
  note(`the gateway called getMe (it is @${DEMO_BOT}) and now long-polls getUpdates`);
  blank();
}

/** A wait that ends at once on Ctrl-C. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function converse(state: TelegramDemoState, signal: AbortSignal): Promise<void> {
  const telegram = state.telegram!;
  step('chat', `${DEMO_USER_NAME} (user ${DEMO_USER_ID}) writes to @${DEMO_BOT} in a private chat:`);
  block(DEMO_QUESTION, `${DEMO_USER_NAME} >`);
  const updateId = telegram.pushMessage({ chatId: DEMO_USER_ID, userId: DEMO_USER_ID, userName: DEMO_USER_NAME, text: DEMO_QUESTION });
  note(`the fake queued it as update ${updateId} and woke the gateway's waiting getUpdates`);
  note('the gateway stores the message before it confirms the update, then runs the agent on session');
  note(`telegram:${DEMO_USER_ID} and sends the answer through its outbox`);
  const started = Date.now();
  let sent;
  try {
    sent = await abortable(telegram.waitForSent(1, ANSWER_TIMEOUT_MS), signal);
  } catch (err) {
    if (signal.aborted) throw err;
    throw new DemoFailure(`no answer reached the chat within ${ANSWER_TIMEOUT_MS / 1000} s`);
  }
  const answer = sent[0]!;
  blank();
  step('answer', `sendMessage to chat ${answer.chat_id} after ${((Date.now() - started) / 1000).toFixed(1)} s (parse_mode ${answer.parse_mode ?? 'none'}):`);
  process.stdout.write(`----- answer -----\n${answer.text}\n------------------\n`);
  note("that is the model's Markdown as Telegram HTML (**bold** became <b>bold</b>); the chat shows it formatted");
  blank();
}

async function stop(state: TelegramDemoState): Promise<void> {
  const gateway = state.gateway;
  if (!gateway) return;
  step('stop', `SIGTERM to the gateway (pid ${gateway.pid})`);
  const { exit, killed } = await stopGateway(gateway, STOP_TIMEOUT_MS);
  if (killed) throw new DemoFailure(`the gateway did not exit within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM and was killed`);
  if (exit !== 0) throw new DemoFailure(`the gateway exited with ${exit} after SIGTERM, not 0`);
  note(`the gateway exited with code ${exit}`);
}

export async function telegramDemo(options: { irisBin: string; state: TelegramDemoState; signal: AbortSignal }): Promise<void> {
  const { state, signal } = options;
  process.stdout.write('Iris demo: a Telegram chat with the agent, end to end, on this machine only.\n');
  process.stdout.write('No bot token, API key or network: Telegram and the model are fakes; the gateway is the real one.\n\n');
  const env = await setUp(state, signal);
  signal.throwIfAborted();
  await startGateway(options.irisBin, env, state, signal);
  signal.throwIfAborted();
  await converse(state, signal);
  signal.throwIfAborted();
  await stop(state);
}
