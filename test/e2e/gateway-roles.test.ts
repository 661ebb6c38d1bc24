// `iris gateway run --role listener|worker|all` on one home (SQLite, state.db shared by two
// processes): the listener accepts and stores, the worker runs and delivers what it finds (at its
// start, then by polling: SQLite has no cross-process wakes), each role holds its own pid file,
// and `gateway status|stop` see and stop both.
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeTelegram } from '../fakes/telegram-api.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { failedStart, postEvent, startGatewayProcess, waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { inboundRows, outboxRows, writePlatformConfig } from '../helpers/platforms.js';

const SECRET = 'roles-secret-0123456789abcdef';
let fake: FakeUpstream;
let dir: string;
let home: string;
const running: GatewayProcess[] = [];

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  dir = await makeTempDir('iris-roles-');
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
  await writeFile(
    join(home, 'config.yaml'),
    `model:\n  provider: openai\n  default: main-m\nplatforms:\n  webhook:\n    enabled: true\n    extra:\n      host: 127.0.0.1\n      port: 0\n      routes:\n        ci:\n          secret: ${SECRET}\n          events: [pull_request]\n          deliver: log\n`,
    { mode: 0o600 },
  );
});
afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.stop('SIGKILL');
  await removeDir(dir);
});

const modelEnv = () => ({ OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` });

async function start(role: string): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess(home, modelEnv(), 15_000, ['--role', role]);
  running.push(gateway);
  return gateway;
}

type Row = { id: number; state: string; delivery_id: string };

async function rows(): Promise<Row[]> {
  const result = await runIris(['webhook', 'deliveries', '--json'], { home });
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout) as Row[]).sort((a, b) => a.id - b.id);
}

/** The `deliver: log` answers in gateway.log, with the pid of the process that wrote each. */
async function answers(): Promise<Array<{ answer: string; pid: number; delivery_id: string }>> {
  const text = await readFile(join(home, 'logs', 'gateway.log'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line.includes('"msg":"webhook answer"'))
    .map((line) => JSON.parse(line) as { answer: string; pid: number; delivery_id: string })
    .map(({ answer, pid, delivery_id }) => ({ answer, pid, delivery_id }));
}

const PR = { action: 'opened', number: 7, repository: { full_name: 'octo/hello' } };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('--role', () => {
  it('an unknown role is a usage error naming the allowed values, and nothing starts', async () => {
    const result = await failedStart(home, modelEnv(), ['--role', 'bogus']);
    expect(result.code).toBe(2);
    expect(result.output).toContain("argument 'bogus' is invalid. Allowed choices are listener, worker, all.");
    expect(existsSync(join(home, 'gateway.pid'))).toBe(false);
    expect(existsSync(join(home, 'gateway-worker.pid'))).toBe(false);
  });

  it('a listener stores without running; a worker on the same home runs and delivers, what was waiting and what comes later', async () => {
    fake.script('main-m', { kind: 'text', deltas: ['Worked.'] });
    const listener = await start('listener');
    expect(listener.output()).toContain('  role: listener (accepts and stores; runs, deliveries and chat answers are left to the workers)');
    expect(listener.output()).toContain(`  store: sqlite ${join(home, 'state.db')}`);
    expect((await postEvent(listener.url, 'ci', PR, { secret: SECRET, delivery: 'before-worker' })).json).toEqual({ status: 'accepted', route: 'ci', event: 'pull_request', delivery_id: 'before-worker' });
    await sleep(1_500); // a listener alone leaves it waiting: nothing is run
    expect((await rows()).map((r) => [r.delivery_id, r.state])).toEqual([['before-worker', 'accepted']]);
    expect(fake.requests).toEqual([]);

    const worker = await start('worker');
    expect(worker.url).toBe('');
    expect(worker.output()).toContain(`gateway worker running (pid ${worker.child.pid}): webhook runs and deliveries, chat answers and sends; no listener here`);
    await waitFor(async () => ((await rows())[0]?.state === 'delivered' ? true : undefined), 15_000, 'the waiting event delivered by the worker');

    // Accepted by the listener while the worker runs: the worker's poll finds it.
    expect((await postEvent(listener.url, 'ci', PR, { secret: SECRET, delivery: 'with-worker' })).status).toBe(202);
    await waitFor(async () => ((await rows()).map((r) => r.state).join() === 'delivered,delivered' ? true : undefined), 15_000, 'the second event delivered');
    expect(await answers()).toEqual([
      { answer: 'Worked.', pid: worker.child.pid, delivery_id: 'before-worker' },
      { answer: 'Worked.', pid: worker.child.pid, delivery_id: 'with-worker' },
    ]);
    expect(listener.output()).not.toContain('interrupted run');
  });

  it('one listener and one worker per home: a second of either, or an `all` beside them, is refused', async () => {
    const listener = await start('listener');
    const worker = await start('worker');
    expect(await readFile(join(home, 'gateway.pid'), 'utf8')).toBe(`${listener.child.pid}\n`);
    expect(await readFile(join(home, 'gateway-worker.pid'), 'utf8')).toBe(`${worker.child.pid}\n`);

    const second = await failedStart(home, modelEnv(), ['--role', 'listener']);
    expect(second.code).toBe(1);
    expect(second.output).toContain(`a gateway is running already for ${home} (pid ${listener.child.pid}); stop it with iris gateway stop`);
    const secondWorker = await failedStart(home, modelEnv(), ['--role', 'worker']);
    expect(secondWorker.code).toBe(1);
    expect(secondWorker.output).toContain(`a gateway worker is running already for ${home} (pid ${worker.child.pid}); a home has one worker (role worker or all): stop it with iris gateway stop`);
    const all = await failedStart(home, modelEnv(), ['--role', 'all']);
    expect(all.code).toBe(1);
    expect(all.output).toContain(`a gateway is running already for ${home} (pid ${listener.child.pid})`);
    // The refused `all` gave back nothing it did not hold.
    expect(await readFile(join(home, 'gateway-worker.pid'), 'utf8')).toBe(`${worker.child.pid}\n`);

    const status = await runIris(['gateway', 'status', '--json'], { home });
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ state: 'running', pid: listener.child.pid, healthy: true, worker: { state: 'running', pid: worker.child.pid } });

    const stop = await runIris(['gateway', 'stop', '--json'], { home });
    expect(stop.code).toBe(0);
    expect(JSON.parse(stop.stdout)).toEqual({ state: 'stopped', pid: listener.child.pid, killed: false, worker: { state: 'stopped', pid: worker.child.pid, killed: false } });
    expect(await listener.exited).toEqual({ code: 0, signal: null });
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(join(home, 'gateway.pid'))).toBe(false);
    expect(existsSync(join(home, 'gateway-worker.pid'))).toBe(false);
  });

  it('`all` (the default) holds both pid files under one pid, and a worker beside it is refused', async () => {
    const gateway = await startGatewayProcess(home, modelEnv());
    running.push(gateway);
    expect(await readFile(join(home, 'gateway.pid'), 'utf8')).toBe(`${gateway.child.pid}\n`);
    expect(await readFile(join(home, 'gateway-worker.pid'), 'utf8')).toBe(`${gateway.child.pid}\n`);
    const worker = await failedStart(home, modelEnv(), ['--role', 'worker']);
    expect(worker.code).toBe(1);
    expect(worker.output).toContain(`a gateway worker is running already for ${home} (pid ${gateway.child.pid})`);
    const status = await runIris(['gateway', 'status', '--json'], { home });
    expect(JSON.parse(status.stdout)).not.toHaveProperty('worker');
  });
});

describe('--role with a chat platform (Telegram)', () => {
  const TOKEN = '123456789:AAF-fake_token_for_tests_0123456789ab';
  const ALICE = 111_111;

  it('a worker alone receives nothing; the listener receives and stores, the worker answers and sends', async () => {
    const telegram = await startFakeTelegram({ token: TOKEN });
    try {
      fake.script('main-m', { kind: 'echo', prefix: 'Re: ' });
      await writePlatformConfig(home, `  telegram:\n    enabled: true\n    extra:\n      api_base: ${telegram.url}\n      poll_timeout: 1\n      allowed_users: ["${ALICE}"]\n`);
      const env = { ...modelEnv(), TELEGRAM_BOT_TOKEN: TOKEN };
      const worker = await startGatewayProcess(home, env, 15_000, ['--role', 'worker']);
      running.push(worker);
      telegram.pushMessage({ chatId: ALICE, userId: ALICE, text: 'Is the build green?' });
      await sleep(1_500);
      expect(telegram.calls('getUpdates')).toEqual([]);
      expect(worker.output()).not.toContain('platform telegram');

      const listener = await startGatewayProcess(home, env, 15_000, ['--role', 'listener']);
      running.push(listener);
      expect(listener.output()).toContain('  platform telegram:');
      const sent = await telegram.waitForSent(1, 15_000);
      expect(sent.map((m) => [m.chat_id, m.text])).toEqual([[String(ALICE), 'Re: Is the build green?']]);
      expect(inboundRows(home).map((r) => [r.text, r.state])).toEqual([['Is the build green?', 'answered']]);
      await waitFor(() => (outboxRows(home)[0]?.state === 'sent' ? true : undefined), 10_000, 'the outbox row sent');
    } finally {
      for (const gateway of running.splice(0)) await gateway.stop('SIGKILL');
      await telegram.close();
    }
  });
});
