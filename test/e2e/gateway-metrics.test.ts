// GET /metrics on the gateway listener: `iris gateway run` as a subprocess, the fake model upstream
// in this process. Off by default (404 like any unknown path); on, it needs IRIS_METRICS_TOKEN as a
// bearer token when that is set, and counts what the listener, the runs and the models did,
// without a secret or a byte of payload.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { postEvent, send, startGatewayProcess, waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

const SECRET = 'pr-secret-0123456789abcdef';
const TOKEN = 'scrape-token-9f8e7d6c5b4a';
const PR = {
  action: 'opened',
  number: 42,
  pull_request: { title: 'Fix the parser', user: { login: 'mona' }, head: { ref: 'fix' }, base: { ref: 'main' } },
  repository: { full_name: 'octo/hello' },
};

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
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
});
afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.stop('SIGKILL');
  await removeDir(dir);
});

async function configure(extra: string): Promise<void> {
  await writeFile(
    join(home, 'config.yaml'),
    `model:\n  provider: openai\n  default: main-m\nauxiliary:\n  title_generation:\n    provider: openai\n    model: title-m\nplatforms:\n  webhook:\n    enabled: true\n    extra:\n      host: 127.0.0.1\n      port: 0\n${extra}      routes:\n        github-pr:\n          secret: ${SECRET}\n          events: [pull_request]\n          deliver: log\n`,
    { mode: 0o600 },
  );
}

async function start(env: Record<string, string> = {}): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess(home, { OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1`, ...env });
  running.push(gateway);
  return gateway;
}

const scrape = (gateway: GatewayProcess, headers: Record<string, string> = {}) => send(gateway.url, { method: 'GET', path: '/metrics', headers });
const authorized = { authorization: `Bearer ${TOKEN}` };

async function states(): Promise<string[]> {
  const result = await runIris(['webhook', 'deliveries', '--json'], { home });
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout) as Array<{ state: string }>).map((row) => row.state);
}

describe('GET /metrics', () => {
  it('is not there unless platforms.webhook.extra.metrics is true: 404 as any unknown path', async () => {
    await configure('');
    const gateway = await start({ IRIS_METRICS_TOKEN: TOKEN });
    const answer = await scrape(gateway, authorized);
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual({ error: 'Not found' });
    expect(gateway.output()).not.toContain('/metrics');
  });

  it('with IRIS_METRICS_TOKEN set, answers 401 with WWW-Authenticate: Bearer without it or with a wrong one, 200 with it', async () => {
    await configure('      metrics: true\n');
    const gateway = await start({ IRIS_METRICS_TOKEN: TOKEN });
    expect(gateway.output()).toContain(`metrics: ${gateway.url}/metrics (bearer token from IRIS_METRICS_TOKEN)`);
    for (const headers of [{} as Record<string, string>, { authorization: `Bearer ${TOKEN}x` }, { authorization: `Basic ${TOKEN}` }, { authorization: TOKEN }]) {
      const refused = await scrape(gateway, headers);
      expect(refused.status).toBe(401);
      expect(refused.headers['www-authenticate']).toMatch(/^Bearer\b/);
      expect(refused.text).not.toContain('iris_');
    }
    const answer = await scrape(gateway, authorized);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(answer.text).toContain('iris_platform_connected{platform="webhook"} 1\n');
  });

  it('without a token anyone who reaches the port may scrape; scrapes are neither rate-limited nor logged', async () => {
    await configure('      metrics: true\n      rate_limit: 1\n');
    const gateway = await start();
    expect(gateway.output()).toContain('no IRIS_METRICS_TOKEN: anyone who reaches the port may read it');
    const answers = await Promise.all(Array.from({ length: 5 }, () => scrape(gateway)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await postEvent(gateway.url, 'github-pr', PR, { secret: SECRET })).toMatchObject({ status: 202 });
    expect(await postEvent(gateway.url, 'github-pr', PR, { secret: SECRET })).toMatchObject({ status: 429 });
    const after = await scrape(gateway);
    expect(after.text).toContain('iris_webhook_requests_total{route="github-pr",status="429"} 1\n');
    await gateway.stop('SIGTERM');
    const log = await readFile(join(home, 'logs', 'gateway.log'), 'utf8');
    expect(log).not.toContain('/metrics');
    expect(log).toContain('webhook rate limit exceeded'); // the log is there, and only the scrapes are missing from it
  });

  it('counts requests by route and status, runs by state, tokens by slot and the inbox depth, with no secret or payload text', async () => {
    await configure('      metrics: true\n');
    // The first run answers; the second hangs, so the inbox holds one running event.
    fake.script('main-m', { kind: 'text', deltas: ['Looks ', 'fine.'], usage: { input: 120, output: 30 } }, { kind: 'hang', deltas: ['thinking'] });
    const gateway = await start({ IRIS_METRICS_TOKEN: TOKEN });

    expect(await postEvent(gateway.url, 'github-pr', PR, { secret: SECRET, delivery: 'delivery-one' })).toMatchObject({ status: 202 });
    await waitFor(async () => ((await states()).join() === 'delivered' ? true : undefined), 15_000, 'the first run delivered');
    expect(await postEvent(gateway.url, 'github-pr', PR, { secret: 'wrong-secret-0123456789' })).toMatchObject({ status: 401 });
    expect(await postEvent(gateway.url, 'no-such-route-7x', PR, { secret: SECRET })).toMatchObject({ status: 404 });
    expect(await postEvent(gateway.url, 'github-pr', PR, { secret: SECRET, delivery: 'delivery-two' })).toMatchObject({ status: 202 });
    await waitFor(async () => ((await states()).join() === 'running,delivered' ? true : undefined), 15_000, 'the second run started');

    const answer = await scrape(gateway, authorized);
    expect(answer.status).toBe(200);
    const lines = answer.text.split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'iris_webhook_requests_total{route="github-pr",status="202"} 2',
        'iris_webhook_requests_total{route="github-pr",status="401"} 1',
        'iris_webhook_requests_total{route="_unknown",status="404"} 1',
        'iris_webhook_runs_total{state="done"} 1',
        'iris_webhook_runs_total{state="failed"} 0',
        'iris_webhook_runs_total{state="interrupted"} 0',
        'iris_webhook_run_duration_seconds_count 1',
        'iris_model_call_duration_seconds_count{slot="main"} 1',
        'iris_input_tokens_total{slot="main"} 120',
        'iris_output_tokens_total{slot="main"} 30',
        'iris_delivery_retries_total 0',
        'iris_delivery_failures_total 0',
        'iris_inbox_depth{state="accepted"} 0',
        'iris_inbox_depth{state="running"} 1',
        'iris_inbox_depth{state="done"} 0',
        'iris_inbox_depth{state="delivering"} 0',
        'iris_platform_connected{platform="webhook"} 1',
      ]),
    );
    // A route name a client made up never becomes a label value.
    expect(answer.text).not.toContain('no-such-route-7x');
    for (const secret of [SECRET, TOKEN, 'test-key-0123456789', 'wrong-secret-0123456789']) expect(answer.text).not.toContain(secret);
    for (const payload of ['Fix the parser', 'mona', 'octo/hello', 'delivery-one', 'delivery-two', 'Looks fine', 'thinking']) expect(answer.text).not.toContain(payload);
    // Every sample line is a metric of ours or of the process, with only the named labels.
    const samples = lines.filter((line) => line !== '' && !line.startsWith('#'));
    expect(samples.filter((line) => !line.startsWith('iris_'))).toEqual([]);
    const labelNames = new Set(samples.flatMap((line) => [...line.matchAll(/[{,]([a-z_]+)="/g)].map((m) => m[1])));
    expect([...labelNames].filter((name) => !['route', 'status', 'state', 'slot', 'platform', 'le', 'kind', 'type', 'space', 'version', 'major', 'minor', 'patch'].includes(name!))).toEqual([]);
  });
});
