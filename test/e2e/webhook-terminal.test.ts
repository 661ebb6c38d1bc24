// Issue 14, "Webhooks from the terminal": `iris gateway start` says the address it really bound
// and where it can be reached; `iris webhook test` posts only to this home's own gateway (found
// through gateway.pid and gateway.address), never to whatever else listens on the configured
// port; `iris webhook deliveries` shows each run's session and the first line of its answer, and
// `--show <id>` the whole answer and what became of it. bin/iris as a subprocess, the fake model
// upstream, real HTTP.
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { parseJson, stringMatching } from '../helpers/documents.js';
import { postEvent, startGatewayProcess, waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

let fake: FakeUpstream;
let dir: string;
let home: string;
const running: GatewayProcess[] = [];
const decoys: Server[] = [];

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
});
afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.stop('SIGKILL');
  await runIris(['gateway', 'stop'], { home });
  for (const decoy of decoys.splice(0)) await new Promise((resolve) => decoy.close(resolve));
  await removeDir(dir);
});

const env = () => ({ OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` });
const SUBSCRIPTION_SECRET = 'sub-secret-0123456789';

async function configure(host: string, port: number): Promise<void> {
  await writeFile(
    join(home, 'config.yaml'),
    `model:\n  provider: openai\n  default: main-m\nplatforms:\n  webhook:\n    enabled: true\n    extra:\n      host: ${host}\n      port: ${port}\n`,
    { mode: 0o600 },
  );
}

async function subscribe(): Promise<void> {
  const result = await runIris(['webhook', 'subscribe', 'ci', '--events', 'push', '--prompt', 'Build {ref}', '--secret', SUBSCRIPTION_SECRET], { home });
  expect(result.code).toBe(0);
}

/** Something else on the configured port: an HTTP server that records what it gets. */
async function decoy(): Promise<{ port: number; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(202, { 'content-type': 'application/json' }).end('{"status":"accepted"}');
  });
  decoys.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { port: address.port, requests };
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('iris gateway start says the address it bound and where to reach it', () => {
  it('0.0.0.0 with port 0: the real port, the loopback URL and the network URLs; gateway.address until stop', async () => {
    await configure('0.0.0.0', 0);
    const started = await runIris(['gateway', 'start'], { home, env: env() });
    expect(started.code).toBe(0);
    const [head, local, ...rest] = started.stdout.trimEnd().split('\n');
    const match = /^gateway started \(pid (\d+)\), listening on 0\.0\.0\.0:(\d+)$/.exec(head ?? '');
    expect(match).not.toBeNull();
    const pid = Number(match![1]);
    const port = Number(match![2]);
    expect(port).toBeGreaterThan(0);
    expect(local).toBe(`  local:   http://127.0.0.1:${port}`);
    // Every non-internal IPv4 address of this machine, as the kernel lists them.
    const network = Object.values(networkInterfaces())
      .flatMap((entries) => entries ?? [])
      .filter((entry) => entry.family === 'IPv4' && !entry.internal)
      .map((entry) => `  network: http://${entry.address}:${port}`);
    expect(rest).toEqual([...new Set(network), `logs: ${join(home, 'logs', 'gateway.log')}`]);
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    expect(await readFile(join(home, 'gateway.address'), 'utf8')).toBe(`{"pid":${pid},"host":"0.0.0.0","port":${port}}\n`);
    expect((await stat(join(home, 'gateway.address'))).mode & 0o777).toBe(0o600);

    const status = await runIris(['gateway', 'status', '--json'], { home });
    expect(parseJson(status.stdout)).toMatchObject({ state: 'running', pid, url: `http://127.0.0.1:${port}`, healthy: true });

    expect((await runIris(['gateway', 'stop'], { home })).code).toBe(0);
    await expect(stat(join(home, 'gateway.address'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('--json: the bound address, the local URL, the network URLs and the log', async () => {
    await configure('127.0.0.1', 0);
    const started = await runIris(['gateway', 'start', '--json'], { home, env: env() });
    expect(started.code).toBe(0);
    const info = parseJson(started.stdout);
    const port = Number(/:(\d+)$/.exec(info.address as unknown as string)?.[1]);
    expect(info).toEqual({
      state: 'running',
      pid: Number((await readFile(join(home, 'gateway.pid'), 'utf8')).trim()),
      address: `127.0.0.1:${port}`,
      url: `http://127.0.0.1:${port}`,
      network_urls: [],
      log: join(home, 'logs', 'gateway.log'),
    });
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
  });
});

describe('iris webhook test posts only to this home\'s own gateway', () => {
  it('no gateway running: says so and exits 1, and the program on the configured port gets nothing', async () => {
    const other = await decoy();
    await configure('127.0.0.1', other.port);
    await subscribe();
    const result = await runIris(['webhook', 'test', 'ci'], { home });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `iris: error: this home's gateway is not running (no ${join(home, 'gateway.pid')}), so nothing was sent; start it with iris gateway start\n`,
    });
    expect(other.requests).toEqual([]);
  });

  it('a stale pid file (its gateway was killed): the same, naming the dead pid', async () => {
    const other = await decoy();
    await configure('127.0.0.1', other.port);
    await subscribe();
    const pid = await deadPid();
    await writeFile(join(home, 'gateway.pid'), `${pid}\n`);
    await writeFile(join(home, 'gateway.address'), JSON.stringify({ pid, host: '127.0.0.1', port: other.port }));
    const result = await runIris(['webhook', 'test', 'ci', '--json'], { home });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`iris: error: this home's gateway is not running (${join(home, 'gateway.pid')} names pid ${pid}, which is not running), so nothing was sent; start it with iris gateway start\n`);
    expect(result.stdout).toBe('');
    expect(other.requests).toEqual([]);
  });

  it('reaches the gateway where it listens (port 0), even after config.yaml names another port', async () => {
    await configure('127.0.0.1', 0);
    await subscribe();
    const gateway = await startGatewayProcess(home, env());
    running.push(gateway);
    const other = await decoy();
    await configure('127.0.0.1', other.port); // edited after the start; the gateway still listens where it did

    fake.script('main-m', { kind: 'text', deltas: ['Build looks fine.'] }, { kind: 'text', deltas: ['Title'] });
    const tested = await runIris(['webhook', 'test', 'ci', '--payload', '{"ref":"main"}', '--json'], { home });
    expect(tested.code).toBe(0);
    const answer = parseJson(tested.stdout);
    expect(answer).toMatchObject({ status: 202, body: { status: 'accepted', route: 'ci', event: 'push' }, event: 'push' });
    expect(other.requests).toEqual([]);
    const rows = parseJson((await runIris(['webhook', 'deliveries', '--json'], { home })).stdout);
    expect(rows).toEqual([expect.objectContaining({ route: 'ci', event: 'push', delivery_id: answer.delivery_id })]);

    const text = await runIris(['webhook', 'test', 'ci'], { home });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^POST ${gateway.url.replace(/[.]/g, '\\.')}/webhooks/ci \\(event push, delivery test-[0-9a-f-]{36}\\)\\n202 `));
  });
});

describe('iris webhook deliveries: the session and the answer', () => {
  const ANSWER = 'Build looks fine.\nTwo nits: rename x, and drop the dead branch.';

  async function deliveredEvent(): Promise<{ id: number; session: string; received_at: string }> {
    await configure('127.0.0.1', 0);
    await subscribe();
    fake.script('main-m', { kind: 'text', deltas: ['Build looks fine.\n', 'Two nits: rename x, and drop the dead branch.'] }, { kind: 'text', deltas: ['CI title'] });
    const gateway = await startGatewayProcess(home, env());
    running.push(gateway);
    expect((await postEvent(gateway.url, 'ci', { ref: 'main' }, { secret: SUBSCRIPTION_SECRET, event: 'push', delivery: 'd-42' })).status).toBe(202);
    return waitFor(
      async () => {
        const [row] = JSON.parse((await runIris(['webhook', 'deliveries', '--json'], { home })).stdout) as Array<{ id: number; state: string; session: string; received_at: string }>;
        return row?.state === 'delivered' ? row : undefined;
      },
      15_000,
      'the delivery',
    );
  }

  /** What both the list's and --show's JSON say of the delivered event. */
  const eventFields = (row: { id: number; session: string; received_at: string }) => ({
    id: row.id,
    received_at: row.received_at,
    route: 'ci',
    event: 'push',
    delivery_id: 'd-42',
    state: 'delivered',
    session: row.session,
    run_attempts: 1,
    delivery_attempts: 1,
    reason: null,
  });

  it('the list: the event line, then its session and the first line of the answer; --json adds answer_first_line', async () => {
    const row = await deliveredEvent();
    const listed = await runIris(['webhook', 'deliveries'], { home });
    expect(listed).toEqual({
      code: 0,
      stdout: `#${row.id} ${row.received_at} ci push d-42 delivered\n    session ${row.session} · Build looks fine.\n`,
      stderr: '',
    });
    const json = parseJson((await runIris(['webhook', 'deliveries', '--json'], { home })).stdout)[0];
    expect(json).toEqual({ ...eventFields(row), answer_first_line: 'Build looks fine.', updated_at: stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
  });

  it('--state lists only the events in that state; duplicate and an unknown state are usage errors', async () => {
    const row = await deliveredEvent();
    const delivered = JSON.parse((await runIris(['webhook', 'deliveries', '--state', 'delivered', '--json'], { home })).stdout) as Array<{ id: number }>;
    expect(delivered.map((event) => event.id)).toEqual([row.id]);
    expect(await runIris(['webhook', 'deliveries', '--state', 'failed'], { home })).toEqual({ code: 0, stdout: 'no events in state failed\n', stderr: '' });
    const duplicate = await runIris(['webhook', 'deliveries', '--state', 'duplicate'], { home });
    expect([duplicate.code, duplicate.stderr]).toEqual([
      2,
      'iris: error: --state "duplicate": duplicates are not stored as events: the listener answers them 200 {"status":"duplicate"} and logs "webhook duplicate delivery" in gateway.log (see the Logs page)\n',
    ]);
    const unknown = await runIris(['webhook', 'deliveries', '--state', 'done-ish'], { home });
    expect([unknown.code, unknown.stderr]).toEqual([2, 'iris: error: --state must be one of accepted, running, done, delivering, delivered, failed, skipped (got "done-ish")\n']);
  });

  it('--show <id>: the whole answer and the outcome, as text and as JSON', async () => {
    const row = await deliveredEvent();
    const detail = parseJson((await runIris(['webhook', 'deliveries', '--show', String(row.id), '--json'], { home })).stdout);
    expect(detail).toEqual({
      ...eventFields(row),
      updated_at: stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      deliver: 'log',
      outcome: 'delivered: written to gateway.log',
      answer: ANSWER,
      // The route's prompt, 'Build {ref}', filled from the event's payload.
      prompt: 'Build main',
    });
    const shown = await runIris(['webhook', 'deliveries', '--show', `#${row.id}`], { home });
    expect(shown).toEqual({
      code: 0,
      stdout: [
        `#${row.id} ci · push · delivery d-42`,
        `received  ${row.received_at}`,
        `updated   ${detail.updated_at as unknown as string}`,
        'state     delivered',
        'outcome   delivered: written to gateway.log',
        'attempts  1 run, 1 delivery',
        'deliver   log',
        `session   ${row.session} (iris sessions show ${row.session})`,
        '',
        ANSWER,
        '',
      ].join('\n'),
      stderr: '',
    });
    // The session it names is the run's own.
    expect((await runIris(['sessions', 'show', row.session], { home })).stdout).toContain('Two nits: rename x, and drop the dead branch.');
  });

  it('--show: an unknown id exits 1, a malformed one 2', async () => {
    expect(await runIris(['webhook', 'deliveries', '--show', '999'], { home })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'iris: error: no webhook event #999 (iris webhook deliveries lists them)\n',
    });
    for (const bad of ['abc', '0', '-3', '1.5']) {
      const result = await runIris(['webhook', 'deliveries', '--show', bad], { home });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`iris: error: --show takes an event id as listed by iris webhook deliveries, such as 12 (got "${bad}")\n`);
    }
  });
});
