// The health strip's and the Logs page's REST API over real HTTP against `bin/iris dashboard`:
// the token and Host checks, GET /api/health with no gateway and with a real one running (its
// listener, its inbox after a signed event), and GET /api/logs newest first, filtered, refusing a
// bad query, and never showing a planted secret.
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { startDashboardProcess, type DashboardProcess } from '../helpers/dashboard.js';
import { postEvent, send as sendRequest, startGatewayProcess, waitFor, type GatewayProcess, type HttpAnswer } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

const SECRET = 'health-secret-0123456789abcdef';
const PLANTED = 'sk-live-PLANTED0123456789abcdef';

let fake: FakeUpstream;
let dir: string;
let home: string;
let dash: DashboardProcess;
const gateways: GatewayProcess[] = [];

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
  await writeFile(
    join(home, 'config.yaml'),
    [
      'model:\n  provider: openai\n  default: main-m',
      'auxiliary:\n  title_generation: { provider: openai, model: title-m }',
      `platforms:\n  webhook:\n    enabled: true\n    extra:\n      host: 127.0.0.1\n      port: 0\n      routes:\n        ci:\n          secret: ${SECRET}\n          events: [push]\n          prompt: "Look at push {n}."\n          deliver: log\n`,
    ].join('\n'),
    { mode: 0o600 },
  );
});
afterEach(async () => {
  await dash?.stop();
  for (const gateway of gateways.splice(0)) await gateway.stop('SIGKILL');
  await removeDir(dir);
});

function send(path: string, options: { token?: string | null; host?: string } = {}): Promise<HttpAnswer> {
  const token = options.token === undefined ? dash.token : options.token;
  return sendRequest(dash.url, {
    path,
    method: 'GET',
    headers: { host: options.host ?? `127.0.0.1:${dash.port}`, ...(token === null ? {} : { 'x-service-session-token': token }) },
  });
}
async function deliveryStates(): Promise<Map<string, string>> {
  const result = await runIris(['webhook', 'deliveries', '--json'], { home });
  return new Map((JSON.parse(result.stdout) as Array<{ delivery_id: string; state: string }>).map((row) => [row.delivery_id, row.state]));
}

const answer = async (path: string, options: Parameters<typeof send>[1] = {}) => {
  const got = await send(path, options);
  return [got.status, got.json];
};

describe('the token and the Host', () => {
  beforeEach(async () => {
    dash = await startDashboardProcess(home);
  });

  it('401 without the token and 400 on a foreign Host, on both endpoints', async () => {
    for (const path of ['/api/health', '/api/logs', '/api/logs?log=audit']) {
      expect([path, ...(await answer(path, { token: null }))]).toEqual([path, 401, { error: 'Unauthorized' }]);
      expect([path, ...(await answer(path, { host: 'evil.example:80' }))]).toEqual([path, 400, { error: 'Invalid Host header' }]);
    }
  });
});

describe('GET /api/health', () => {
  it('no gateway running: not running, the configured listener, an empty inbox (and no state.db made)', async () => {
    dash = await startDashboardProcess(home);
    expect(await answer('/api/health')).toEqual([
      200,
      {
        gateway: { state: 'not_running', pid: null, processes: [], listening: false, working: false },
        listener: { url: 'http://127.0.0.1:0', answers_health: false },
        platforms: [],
        inbox: { accepted: 0, running: 0, done: 0, delivering: 0 },
        chat: { inbound: 0, outbox: 0 },
        runs_in_progress: 0,
        failing: { webhook_events_24h: { count: 0 }, chat_sends_24h: { count: 0 } },
      },
    ]);
    await expect(stat(join(home, 'state.db'))).rejects.toThrow(/ENOENT/);
  });

  it('a gateway running: its pid in both roles, its listener answering, a failed event, a run in progress after an event', async () => {
    const gateway = await startGatewayProcess(home, { OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` });
    gateways.push(gateway);
    dash = await startDashboardProcess(home);
    const pid = gateway.child.pid!;
    fake.script('main-m', { kind: 'error', status: 400 });
    expect((await postEvent(gateway.url, 'ci', { n: 0 }, { secret: SECRET, event: 'push', delivery: 'd-0' })).status).toBe(202);
    await waitFor(async () => ((await deliveryStates()).get('d-0') === 'failed' ? true : undefined), 15_000, 'event d-0 to fail');
    fake.script('main-m', { kind: 'hang', deltas: ['thinking'] });
    expect((await postEvent(gateway.url, 'ci', { n: 1 }, { secret: SECRET, event: 'push', delivery: 'd-1' })).status).toBe(202);
    await fake.hanging();
    expect(await answer('/api/health')).toEqual([
      200,
      {
        gateway: { state: 'running', pid, processes: [{ pid, role: 'all' }], listening: true, working: true },
        listener: { url: gateway.url, answers_health: true },
        platforms: [],
        inbox: { accepted: 0, running: 1, done: 0, delivering: 0 },
        chat: { inbound: 0, outbox: 0 },
        runs_in_progress: 1,
        failing: { webhook_events_24h: { count: 1 }, chat_sends_24h: { count: 0 } },
      },
    ]);
  });
});

describe('GET /api/health with the roles in processes of their own', () => {
  it('a listener and a worker side by side: both pids with their roles', async () => {
    const env = { OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` };
    const listener = await startGatewayProcess(home, env, 15_000, ['--role', 'listener']);
    gateways.push(listener);
    dash = await startDashboardProcess(home);
    expect(((await send('/api/health')).json as { gateway: unknown }).gateway).toEqual({
      state: 'running',
      pid: listener.child.pid,
      processes: [{ pid: listener.child.pid, role: 'listener' }],
      listening: true,
      working: false,
    });
    const worker = await startGatewayProcess(home, env, 15_000, ['--role', 'worker']);
    gateways.push(worker);
    expect(((await send('/api/health')).json as { gateway: unknown }).gateway).toEqual({
      state: 'running',
      pid: listener.child.pid,
      processes: [
        { pid: listener.child.pid, role: 'listener' },
        { pid: worker.child.pid, role: 'worker' },
      ],
      listening: true,
      working: true,
    });
  });
});

describe('GET /api/logs', () => {
  const at = (second: number) => `2026-11-28T10:00:${String(second).padStart(2, '0')}.000Z`;
  beforeEach(async () => {
    await mkdir(join(home, 'logs'), { recursive: true });
    const lines = [
      { level: 30, time: at(1), msg: 'gateway listening', pid: 7, log: 'gateway' },
      { level: 40, time: at(2), msg: 'webhook refused', route: 'ci', reason: 'bad signature', pid: 7 },
      { level: 50, time: at(3), msg: `upstream refused the key ${PLANTED}`, route: 'ci', pid: 7 },
      { level: 30, time: at(4), msg: 'message answered', platform: 'telegram', pid: 7 },
      { level: 50, time: at(5), msg: 'send failed', platform: 'telegram', api_key: PLANTED, pid: 7 },
    ];
    await writeFile(join(home, 'logs', 'gateway.log.1'), `${JSON.stringify(lines[0])}\n`);
    await writeFile(join(home, 'logs', 'gateway.log'), lines.slice(1).map((line) => `${JSON.stringify(line)}\n`).join(''));
    dash = await startDashboardProcess(home);
  });

  it('every line, newest first, across the rotated file, secrets redacted', async () => {
    const got = await send('/api/logs?log=gateway');
    expect(got.status).toBe(200);
    expect(got.text).not.toContain('PLANTED');
    expect(got.json).toEqual({
      log: 'gateway',
      entries: [
        { source: 'gateway', time: at(5), level: 'error', what: 'send failed', fields: { platform: 'telegram', api_key: '[redacted]' } },
        { source: 'gateway', time: at(4), level: 'info', what: 'message answered', fields: { platform: 'telegram' } },
        { source: 'gateway', time: at(3), level: 'error', what: 'upstream refused the key sk-[redacted]', fields: { route: 'ci' } },
        { source: 'gateway', time: at(2), level: 'warn', what: 'webhook refused', fields: { route: 'ci', reason: 'bad signature' } },
        { source: 'gateway', time: at(1), level: 'info', what: 'gateway listening', fields: {} },
      ],
      scan_limited: false,
    });
  });

  it('filters by level (at or above), text, route, platform and limit', async () => {
    const whats = async (query: string) => ((await send(`/api/logs?${query}`)).json as { entries: Array<{ what: string }> }).entries.map((e) => e.what);
    expect(await whats('level=warn')).toEqual(['send failed', 'upstream refused the key sk-[redacted]', 'webhook refused']);
    expect(await whats('level=error&route=ci')).toEqual(['upstream refused the key sk-[redacted]']);
    expect(await whats('q=REFUSED')).toEqual(['upstream refused the key sk-[redacted]', 'webhook refused']);
    expect(await whats('q=bad%20signature')).toEqual(['webhook refused']);
    expect(await whats('q=PLANTED0123')).toEqual([]);
    expect(await whats('platform=telegram&limit=1')).toEqual(['send failed']);
    expect(await whats('log=agent')).toEqual([]);
  });

  it('400 on an unknown log, level, parameter or a bad limit', async () => {
    expect(await answer('/api/logs?log=system')).toEqual([400, { error: 'log must be one of gateway, agent, audit (got "system")' }]);
    expect(await answer('/api/logs?level=loud')).toEqual([400, { error: 'level must be one of trace, debug, info, warn, error, fatal (got "loud")' }]);
    expect(await answer('/api/logs?limit=0')).toEqual([400, { error: 'limit must be a whole number from 1 to 1000 (got "0")' }]);
    expect(await answer('/api/logs?limit=lots')).toEqual([400, { error: 'limit must be a whole number from 1 to 1000 (got "lots")' }]);
    expect(await answer('/api/logs?route=..%2Fetc')).toEqual([
      400,
      { error: 'route name "../etc" must match ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64) and cannot contain ".."' },
    ]);
    expect(await answer('/api/logs?sort=asc')).toEqual([400, { error: 'unknown parameter "sort" (known: log, level, q, route, platform, limit)' }]);
  });
});
