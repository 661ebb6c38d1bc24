// gateway.log stays bounded whatever strangers send: refusal lines are sampled per route and
// remote address (with a count of those dropped), and the file is rotated by size.
import { readdir, readFile, stat, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postEvent, startGatewayProcess, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir } from '../helpers/iris.js';

const SECRET = 'log-bounds-secret-0123456789';
let dir: string;
let home: string;
const running: GatewayProcess[] = [];

beforeEach(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
});
afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.stop('SIGKILL');
  await removeDir(dir);
});

async function start(logging = '', env: Record<string, string> = {}): Promise<GatewayProcess> {
  await writeFile(
    join(home, 'config.yaml'),
    `model:\n  provider: openai\n  default: main-m\n${logging}platforms:\n  webhook:\n    enabled: true\n    extra:\n      host: 127.0.0.1\n      port: 0\n      rate_limit: 100000\n      concurrency: 1\n      routes:\n        pr:\n          secret: ${SECRET}\n          events: [ping]\n`,
    { mode: 0o600 },
  );
  // No model is reachable: the accepted events' runs fail, which is fine for these tests.
  const gateway = await startGatewayProcess(home, { OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', ...env });
  running.push(gateway);
  return gateway;
}

const logLines = async (file = 'gateway.log') =>
  (await readFile(join(home, 'logs', file), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { msg: string; level: string; dropped?: number; by_route?: Record<string, number>; top_remotes?: Array<{ remote: string; dropped: number }> });

describe('refusal lines are sampled', () => {
  it('50 bad signatures from one address: 5 lines, then one count of the 45 not logged', async () => {
    const gateway = await start();
    for (let i = 0; i < 50; i++) expect((await postEvent(gateway.url, 'pr', { n: i }, { secret: 'wrong-secret-0123456789', event: 'ping' })).status).toBe(401);
    expect((await gateway.stop('SIGTERM')).code).toBe(0);
    const lines = await logLines();
    expect(lines.filter((l) => l.msg === 'webhook signature refused')).toHaveLength(5);
    const summary = lines.filter((l) => l.msg.startsWith('webhook refusals not logged'));
    expect(summary).toEqual([
      expect.objectContaining({ level: 'warn', msg: 'webhook refusals not logged: 45 (at most 5 a minute per route and address are)', dropped: 45, by_route: { pr: 45 }, top_remotes: [{ remote: '127.0.0.1', dropped: 45 }] }),
    ]);
  });
});

describe('logs are rotated by size', () => {
  it('logging.max_size_mb and logging.keep: the live file is cut near the limit and only `keep` old files stay', async () => {
    // 8 KB files, 2 kept; at debug an event (accepted, then its run failing: no model answers)
    // writes about 1 KB, so each round of 10 passes the limit and is rotated at the next check.
    const gateway = await start('logging:\n  max_size_mb: 0.0078125\n  keep: 2\n', { IRIS_LOG_LEVEL: 'debug' });
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 10; i++) expect((await postEvent(gateway.url, 'pr', { round, i }, { secret: SECRET, event: 'ping' })).status).toBe(202);
      await new Promise((resolve) => setTimeout(resolve, 1_300)); // past a rotation check
    }
    expect((await gateway.stop('SIGTERM')).code).toBe(0);
    const files = (await readdir(join(home, 'logs'))).filter((name) => name.startsWith('gateway.log')).sort();
    expect(files).toEqual(['gateway.log', 'gateway.log.1', 'gateway.log.2']);
    for (const name of ['gateway.log.1', 'gateway.log.2']) {
      const info = await stat(join(home, 'logs', name));
      expect(info.size).toBeGreaterThanOrEqual(8192);
      expect(info.size).toBeLessThan(8192 + 10 * 1500); // at most one round past the limit
      expect(info.mode & 0o777).toBe(0o600);
    }
    expect((await stat(join(home, 'logs', 'gateway.log'))).mode & 0o777).toBe(0o600);
    // Every file is whole JSON lines: nothing was cut mid-line by the rotation.
    for (const name of files) expect((await logLines(name)).length).toBeGreaterThan(0);
  });
});
