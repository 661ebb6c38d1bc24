// `npm run demo`: the webhook gateway end to end, on this machine only, with no API key and no
// network. A scripted fake model (test/fakes/upstream.ts) stands in for the model provider and a
// fake GitHub CLI (test/fakes/fake-gh.mjs) records the comment instead of posting it; everything
// in between is the real `bin/iris gateway run`, in a temporary IRIS_HOME.
//
//   1. start the fake model, write config.yaml with a `github-pr` route, start the gateway
//   2. POST a signed GitHub `pull_request` `opened` event and show the 202
//   3. wait for the event to be `delivered` (iris webhook deliveries --json)
//   4. show the agent's tool call, its answer, and the comment the fake gh recorded
//   5. stop the gateway with SIGTERM, remove the temporary directory
//
// Exit 0 when all of it worked; 1 on a failure (with the gateway's log and output); 130 on Ctrl-C.
// The scenario (payload, route, the model's answers) is in scripts/demo/scenario.ts.
//
// `npm run demo -- --platform telegram` plays a Telegram chat instead (scripts/demo/telegram.ts):
// the fake Bot API, one allowed user's message, the scripted answer back in the chat.
//
// `npm run demo -- --pr-review` plays a pull-request review route (scripts/demo/pr-review.ts): a
// session per PR, an /ask command, an incremental review after a push, one living summary comment.
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFakeUpstream, type FakeUpstream } from '../test/fakes/upstream.js';
import { DemoFailure, blank, block, failure, note, step } from './demo/out.js';
import { cleanDemoEnv, installFakeGh } from './demo/fake-gh-env.js';
import { scenarioArgument, type Scenario } from './demo/arguments.js';
import { runIris, spawnGateway, stopGateway, waitForListening, type GatewayProcess } from './demo/processes.js';
import { prReviewDemo, type PrReviewDemoState } from './demo/pr-review.js';
import { telegramDemo, type TelegramDemoState } from './demo/telegram.js';
import {
  DELIVERY_ID,
  DUMMY_API_KEY,
  MODEL_ID,
  PR_NUMBER,
  REPO,
  ROUTE,
  SCRIPT,
  SCRIPTED_ANSWER,
  configYaml,
  pullRequestPayload,
} from './demo/scenario.js';

const START_TIMEOUT_MS = 20_000;
const DELIVERED_TIMEOUT_MS = 30_000;
const POLL_MS = 400;
/** The gateway gives runs in flight 15 s to stop; a little more, then SIGKILL. */
const STOP_TIMEOUT_MS = 20_000;
const TAIL_LINES = 25;

// scripts/run-ts.mjs bundles this file elsewhere, so import.meta.url is not here; it sets argv[1]
// to this file's path.
const ROOT = resolve(dirname(process.argv[1] ?? join(process.cwd(), 'scripts', 'demo.ts')), '..');
const IRIS_BIN = join(ROOT, 'bin', 'iris');
const FAKE_GH = join(ROOT, 'test', 'fakes', 'fake-gh.mjs');

type State = TelegramDemoState & PrReviewDemoState & {
  fake?: FakeUpstream;
  gateway?: GatewayProcess;
};
const state: State = {};

const interrupt = new AbortController();
const onSignal = (signal: NodeJS.Signals) => {
  // npm passes a Ctrl-C on to its child as well: the second copy changes nothing.
  if (!interrupt.signal.aborted) interrupt.abort(new DemoFailure(`interrupted (${signal})`));
};

function rel(path: string): string {
  const r = relative(ROOT, path);
  return r.startsWith('..') ? path : r;
}

function requireBuild(): void {
  if (!existsSync(IRIS_BIN) || !existsSync(FAKE_GH)) {
    throw new DemoFailure(`run the demo from the repository root (npm run demo): ${IRIS_BIN} or ${FAKE_GH} is missing`);
  }
  if (!existsSync(join(ROOT, 'dist', 'launch.cjs'))) {
    throw new DemoFailure(`the CLI is not built (${rel(join(ROOT, 'dist', 'launch.cjs'))} is missing): run npm ci (or npm run build) first`);
  }
}

async function setUp(): Promise<{ env: NodeJS.ProcessEnv; secret: string; record: string; workspace: string }> {
  const fake = await startFakeUpstream();
  state.fake = fake;
  interrupt.signal.throwIfAborted();
  fake.script(MODEL_ID, ...SCRIPT);
  step('model', `scripted fake model at ${fake.url}/v1 (model id "${MODEL_ID}")`);
  note('not a real model: its answers are written in scripts/demo/scenario.ts (test/fakes/upstream.ts serves them');
  note('over the OpenAI API, so Iris talks to it exactly as it would to a provider)');
  blank();

  const dir = await mkdtemp(join(tmpdir(), 'iris-demo-'));
  state.dir = dir;
  interrupt.signal.throwIfAborted();
  const home = join(dir, 'home');
  const workspace = join(dir, 'workspace');
  const binDir = join(dir, 'bin');
  const record = join(dir, 'gh-record.jsonl');
  state.home = home;
  await mkdir(home, { mode: 0o700 });
  await mkdir(workspace);
  await mkdir(binDir);

  const secret = randomBytes(32).toString('hex');
  const configPath = join(home, 'config.yaml');
  await writeFile(configPath, configYaml({ secret, workspace }), { mode: 0o600 });
  step('home', `temporary IRIS_HOME ${home}`);
  note('config.yaml (the route secret is masked here; the file has 32 random bytes in hex):');
  block(configYaml({ secret: '<masked>', workspace }));
  blank();

  // A `gh` of our own, first on PATH and named by IRIS_GH_BIN: the gateway's delivery runs it, and
  // so would any `gh` the agent ran. It execs the fake with this very node.
  const gh = await installFakeGh(binDir, FAKE_GH);
  step('gh', `fake GitHub CLI at ${gh} (runs ${rel(FAKE_GH)})`);
  note(`it posts nothing: each call is recorded as a JSON line in ${record}`);
  blank();

  const env = cleanDemoEnv(binDir, {
    IRIS_HOME: home,
    OPENAI_API_KEY: DUMMY_API_KEY,
    OPENAI_BASE_URL: `${fake.url}/v1`,
    IRIS_GH_BIN: gh,
    FAKE_GH_RECORD: record,
  });
  return { env, secret, record, workspace };
}

async function startGateway(env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  step('gateway', `starting: node ${rel(IRIS_BIN)} gateway run`);
  note("with a clean environment: HOME, LANG (and TMPDIR if set), PATH with the fake gh's folder first, and:");
  for (const name of ['IRIS_HOME', 'OPENAI_BASE_URL', 'OPENAI_API_KEY', 'IRIS_GH_BIN', 'FAKE_GH_RECORD']) {
    const why = name === 'OPENAI_API_KEY' ? '   (not a key: the fake model takes any)' : '';
    note(`  ${name}=${env[name]}${why}`);
  }
  interrupt.signal.throwIfAborted();
  const gateway = spawnGateway({
    irisBin: IRIS_BIN,
    env,
    cwd,
    onLine: (line, stream) => block(line, stream === 'out' ? 'gateway |' : 'gateway !'),
  });
  state.gateway = gateway;
  const port = await waitForListening(gateway, START_TIMEOUT_MS, interrupt.signal);
  const base = `http://127.0.0.1:${port}`;
  const health = await fetch(`${base}/health`, { signal: interrupt.signal });
  const healthBody = await health.text();
  if (health.status !== 200) throw new DemoFailure(`GET ${base}/health answered ${health.status} ${healthBody}`);
  note(`GET ${base}/health → ${health.status} ${healthBody}`);
  blank();
  return base;
}

async function postEvent(base: string, secret: string): Promise<void> {
  const body = JSON.stringify(pullRequestPayload());
  const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  const url = `${base}/webhooks/${ROUTE}`;
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': 'GitHub-Hookshot/iris-demo',
    'X-GitHub-Event': 'pull_request',
    'X-GitHub-Delivery': DELIVERY_ID,
    'X-Hub-Signature-256': signature,
  };

  // What a request without the secret gets, for contrast: refused, and nothing stored.
  const forged = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'X-Hub-Signature-256': `sha256=${'0'.repeat(64)}` },
    body,
    signal: interrupt.signal,
  });
  const forgedBody = await forged.text();
  if (forged.status !== 401) throw new DemoFailure(`a request with a wrong signature got ${forged.status} ${forgedBody}, not 401`);

  step('request', `POST ${url}, the way GitHub sends a webhook:`);
  for (const [name, value] of Object.entries(headers)) note(`  ${name}: ${value}`);
  note(`  body: ${Buffer.byteLength(body)} bytes of JSON: pull_request "opened", ${REPO} #${PR_NUMBER}`);
  note('X-Hub-Signature-256 is the HMAC-SHA256 of the exact body bytes, keyed with the route secret;');
  note(`the gateway checks it first (the same request with a wrong signature got: ${forged.status} ${forgedBody})`);

  const response = await fetch(url, { method: 'POST', headers, body, signal: interrupt.signal });
  const answer = await response.text();
  step('response', `${response.status} ${response.statusText}`);
  block(answer);
  if (response.status !== 202) throw new DemoFailure(`the gateway answered ${response.status} ${answer}, not 202`);
  note('202: the event is stored in the inbox before the answer; the agent runs afterwards,');
  note('so GitHub never waits for a model.');
  blank();
}

const STUCK_HINTS: Record<string, string> = {
  '': ': iris webhook deliveries does not list it',
  accepted: ': it waits in the inbox and no worker took it',
  running: ': the agent run did not finish (is the model answering?)',
  done: ': the run finished, but gh pr comment did not complete',
};

type DeliveryRow = { id: number; delivery_id: string; state: string; reason: string | null; session: string | null };

async function waitForDelivered(env: NodeJS.ProcessEnv): Promise<DeliveryRow> {
  step('agent', `waiting for the event to be delivered (polling: iris webhook deliveries --json; ${DELIVERED_TIMEOUT_MS / 1000} s at most)`);
  const started = Date.now();
  let last = '';
  for (;;) {
    const run = await runIris(IRIS_BIN, ['webhook', 'deliveries', '--json'], env, interrupt.signal);
    if (run.code !== 0) throw new DemoFailure(`iris webhook deliveries --json exited with ${run.code}: ${run.stderr.trim()}`);
    const rows = JSON.parse(run.stdout) as DeliveryRow[];
    const row = rows.find((r) => r.delivery_id === DELIVERY_ID);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (row && row.state !== last) {
      last = row.state;
      note(`  +${seconds} s  event #${row.id}: ${row.state}${row.reason ? ` (${row.reason})` : ''}`);
    }
    if (row?.state === 'delivered') return row;
    if (row?.state === 'failed') throw new DemoFailure(`the event failed: ${row.reason ?? 'no reason recorded'}`);
    if (Date.now() - started > DELIVERED_TIMEOUT_MS) {
      throw new DemoFailure(`the event was not delivered within ${DELIVERED_TIMEOUT_MS / 1000} s (last state: ${last || 'not listed'}${STUCK_HINTS[last] ?? ''})`);
    }
    await sleep(POLL_MS, undefined, { signal: interrupt.signal });
  }
}

type ChatMessage = {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ function?: { name?: string; arguments?: string } }>;
};

function text(content: unknown): string {
  return typeof content === 'string' ? content : JSON.stringify(content);
}

/** What went over the wire to the fake model: the rendered prompt, the tool call and its result. */
function showModelExchange(fake: FakeUpstream): void {
  const chats = fake.requests.filter((r) => r.path.endsWith('/chat/completions'));
  const messagesOf = (i: number) => ((chats[i]?.body as { messages?: ChatMessage[] } | undefined)?.messages ?? []);
  const prompt = messagesOf(0).find((m) => m.role === 'user');
  if (prompt) {
    note("the prompt Iris sent the model (the route's template, filled in from the payload):");
    block(text(prompt.content));
  }
  const second = messagesOf(1);
  const call = second.find((m) => m.role === 'assistant' && m.tool_calls?.length)?.tool_calls?.[0]?.function;
  const result = second.find((m) => m.role === 'tool');
  if (call) note(`the model's first answer is a tool call: ${call.name} ${call.arguments}`);
  if (result) {
    note('Iris did not run it, and told the model why (the tool result it sent back):');
    block(text(result.content));
  }
  note(`the fake model answered ${chats.length} requests: the tool call, the final answer, and the session title`);
}

type GhRecord = { argv: string[]; body: string | null; cwd: string; at: string; pid: number };

async function showComment(recordPath: string): Promise<void> {
  const lines = (await readFile(recordPath, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  const records = lines.map((line) => JSON.parse(line) as GhRecord);
  const comment = records.find((r) => r.argv[0] === 'pr' && r.argv[1] === 'comment');
  if (!comment) throw new DemoFailure(`the event is delivered but the fake gh recorded no \`gh pr comment\` (${records.length} calls in ${recordPath})`);
  // The answer, then the hidden marker by which a restart knows the comment was posted already.
  const expected = `${SCRIPTED_ANSWER}\n\n<!-- iris-delivery:1 -->`;
  if (comment.body !== expected) {
    throw new DemoFailure(`the comment body is not the model's answer:\n${JSON.stringify(comment.body)}\nexpected:\n${JSON.stringify(expected)}`);
  }
  note("the agent's answer (scripted), as delivered:");
  process.stdout.write(`----- answer -----\n${comment.body}\n------------------\n`);
  blank();

  step('comment', `the fake gh was called ${records.length === 1 ? 'once' : `${records.length} times`}, as Iris calls the real one (no shell, body on stdin):`);
  note(`  gh ${comment.argv.join(' ')}`);
  note(`what it recorded in ${rel(recordPath)}:`);
  block(JSON.stringify(comment, null, 2));
  note('with the real gh, signed in on the gateway host, this comment would now be on the pull request;');
  note('its last line, <!-- iris-delivery:1 -->, is hidden when GitHub shows it: after a crash, Iris looks');
  note('for it on the PR before posting again, so the comment is never posted twice.');
  blank();
}

type LogEntry = { time?: string; msg?: string; delivery_id?: string } & Record<string, unknown>;

/** This event's lines in gateway.log, the run's own account of what happened. */
async function showTimeline(): Promise<void> {
  if (!state.home) return;
  const logPath = join(state.home, 'logs', 'gateway.log');
  const entries: LogEntry[] = [];
  for (const line of (await readFile(logPath, 'utf8').catch(() => '')).split('\n')) {
    try {
      const entry = JSON.parse(line) as LogEntry;
      if (entry.delivery_id === DELIVERY_ID) entries.push(entry);
    } catch {
      // not a JSON line
    }
  }
  if (entries.length === 0) return;
  const t0 = Date.parse(entries[0]?.time ?? '');
  note(`what ${rel(logPath)} (the structured log) says about this event:`);
  const shown = new Map<string, string>();
  for (const entry of entries) {
    const at = ((Date.parse(entry.time ?? '') - t0) / 1000).toFixed(3);
    const details: string[] = [];
    for (const key of ['session', 'command', 'approved', 'chars', 'url', 'attempts', 'reason']) {
      const value = entry[key];
      if (value === undefined) continue;
      const printed = typeof value === 'string' ? value : JSON.stringify(value);
      if (shown.get(key) === printed) continue; // said on an earlier line
      shown.set(key, printed);
      details.push(`${key}=${printed}`);
    }
    note(`  +${at} s  ${entry.msg ?? '?'}${details.length > 0 ? `  (${details.join(', ')})` : ''}`);
  }
}

async function stop(): Promise<void> {
  const gateway = state.gateway;
  if (!gateway) return;
  step('stop', `SIGTERM to the gateway (pid ${gateway.pid}); it lets runs in flight reach a safe point`);
  const { exit, killed } = await stopGateway(gateway, STOP_TIMEOUT_MS);
  if (killed) throw new DemoFailure(`the gateway did not exit within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM and was killed`);
  if (exit !== 0) throw new DemoFailure(`the gateway exited with ${exit} after SIGTERM, not 0`);
  note(`the gateway exited with code ${exit}`);
}

async function demo(): Promise<void> {
  process.stdout.write('Iris demo: a GitHub pull request webhook, end to end, on this machine only.\n');
  process.stdout.write('No API key and no network: the model and the GitHub CLI are fakes; the gateway is the real one.\n\n');
  const checkpoint = () => interrupt.signal.throwIfAborted();
  const { env, secret, record, workspace } = await setUp();
  checkpoint();
  const base = await startGateway(env, workspace);
  checkpoint();
  await postEvent(base, secret);
  checkpoint();
  await waitForDelivered(env);
  checkpoint();
  await showTimeline();
  showModelExchange(state.fake!);
  await showComment(record);
  checkpoint();
  await stop();
}

async function tail(path: string): Promise<string[] | undefined> {
  const textRead = await readFile(path, 'utf8').catch(() => undefined);
  return textRead?.split('\n').filter(Boolean).slice(-TAIL_LINES);
}

async function reportFailure(err: unknown): Promise<void> {
  const message = err instanceof DemoFailure ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err);
  failure(`\n[failed] ${message}`);
  if (state.home) {
    const logPath = join(state.home, 'logs', 'gateway.log');
    const lines = await tail(logPath);
    if (!lines) failure(`\n(no ${logPath}: the gateway wrote no log)`);
    else if (lines.length === 0) failure(`\n(${logPath} is empty)`);
    else failure(`\n--- last ${lines.length} lines of ${logPath} ---\n${lines.join('\n')}`);
  }
  if (state.gateway) {
    const output = state.gateway.lines.slice(-TAIL_LINES);
    failure(`\n--- gateway output (last ${output.length} lines) ---\n${output.join('\n') || '(none)'}`);
  }
}

/** Stops whatever is still running and removes the temporary directory; never throws. */
async function cleanUp(): Promise<boolean> {
  const gateway = state.gateway;
  if (gateway && !gateway.hasExited()) {
    const { exit, killed } = await stopGateway(gateway, STOP_TIMEOUT_MS).catch(() => ({ exit: 'unknown', killed: false }));
    failure(`[cleanup] gateway (pid ${gateway.pid}) ${killed ? 'killed after SIGTERM timed out' : `stopped (exit ${exit})`}`);
  }
  await state.fake?.close().catch(() => undefined);
  await state.telegram?.close().catch(() => undefined);
  if (!state.dir) return false;
  try {
    await rm(state.dir, { recursive: true, force: true });
    return true;
  } catch (err) {
    failure(`[cleanup] could not remove ${state.dir}: ${(err as Error).message}`);
    return false;
  }
}

process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
let exitCode = 0;
let platform: Scenario | undefined;
try {
  platform = scenarioArgument(process.argv.slice(2));
  requireBuild();
  // Every wait in demo() ends at once on Ctrl-C, so it is awaited to the end: nothing starts after
  // the clean-up has looked at what to stop.
  if (platform === 'telegram') await telegramDemo({ irisBin: IRIS_BIN, state, signal: interrupt.signal });
  else if (platform === 'pr-review') await prReviewDemo({ irisBin: IRIS_BIN, fakeGh: FAKE_GH, state, signal: interrupt.signal });
  else await demo();
} catch (err) {
  if (interrupt.signal.aborted) {
    failure(`\n[stop] ${(interrupt.signal.reason as Error).message}: cleaning up`);
    exitCode = 130;
  } else {
    await reportFailure(err);
    exitCode = 1;
  }
}
const removed = await cleanUp();
if (exitCode === 0 && !removed) exitCode = 1;
if (exitCode === 0) {
  if (removed) note(`removed ${state.dir}`);
  blank();
  if (platform === 'telegram') {
    step('done', 'that was the whole path: Telegram update → stored → agent run → outbox → sendMessage.');
    note('For real: create a bot with @BotFather, put its token in .env (TELEGRAM_BOT_TOKEN), enable');
    note('platforms.telegram with your user id in allowed_users, and run iris gateway start (docs/platforms.md).');
  } else if (platform === 'pr-review') {
    step('done', 'one session for the PR: review → /ask answered in a reply → push → review of the new commits only.');
    note('For real: the route and the GitHub webhook settings are in docs/pr-review.md.');
  } else {
    step('done', 'that was the whole path: signed webhook → inbox → agent run (tool loop) → PR comment.');
    note('For real: set a main model (iris model set <provider> <model>), add a route to config.yaml or with');
    note('iris webhook subscribe, install and sign in to gh, and run iris gateway start.');
  }
} else if (removed) {
  failure(`[cleanup] removed ${state.dir}`);
}
process.off('SIGINT', onSignal);
process.off('SIGTERM', onSignal);
process.exitCode = exitCode;
