// PostgreSQL restarted twice while the gateway takes 1,000 webhooks at 50/s (a restart, then a
// stop and a start 2 s apart). The gateway process
// must be the same one afterwards (it used to die: `Unhandled 'error' … 57P01`), every request must
// get 202, 200 (duplicate) or 503 (with Retry-After), /health must say `store: unreachable` while
// the database is away, and every 202 must be delivered exactly once (deliver: log: one answer
// line per delivery id). 503'd events are sent again at the end, as a code host would.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { send, startGatewayProcess, waitFor } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { adminQuery, dropSchema, freshSchemaName, postgresProblem, schemaUrl } from '../helpers/postgres.js';
import { answerLines, paced, sendOne, statusOf, writeFaultHome, type Sent } from './fault-kit.js';

const run = promisify(execFile);
const PG_VERSION = '15';

let fake: FakeUpstream;
let dir: string;
let schema: string;

beforeAll(async () => {
  fake = await startFakeUpstream();
  dir = await makeTempDir('iris-fault-pg-');
  schema = freshSchemaName('iris_fault');
  await adminQuery(`CREATE SCHEMA ${schema}`);
});
afterAll(async () => {
  await fake.close();
  // The server must be up for the next file, whatever happened here.
  await waitFor(async () => ((await postgresProblem()) === undefined ? true : undefined), 30_000, 'PostgreSQL to answer again').catch(() => undefined);
  await dropSchema(schema).catch(() => undefined);
  await removeDir(dir);
});

async function postgres(action: 'restart' | 'stop' | 'start'): Promise<number> {
  const started = Date.now();
  await run('pg_ctlcluster', ['--skip-systemctl-redirect', PG_VERSION, 'main', action], { timeout: 60_000 });
  return Date.now() - started;
}

it('PostgreSQL restarted twice during 1,000 webhooks at 50/s: same process, 202/200/503 only, every 202 delivered once', async () => {
  const home = join(dir, 'home');
  await writeFaultHome(home, { storeUrl: schemaUrl(schema), concurrency: 8 });
  const env = { OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` };
  const gateway = await startGatewayProcess(home, env, 30_000);
  const pid = gateway.child.pid;

  // /health while the database is away: looked at every 100 ms through the whole run.
  const healthSeen = new Set<string>();
  let watching = true;
  const watchHealth = (async () => {
    while (watching) {
      const health = await send(gateway.url, { method: 'GET', path: '/health' }).catch(() => undefined);
      if (health) healthSeen.add(`${health.status}:${(health.json as { store?: string } | null)?.store}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();

  const load = paced(gateway.url, 'plain', 1_000, 50, 'pg');
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  const firstRestartMs = await postgres('restart');
  await new Promise((resolve) => setTimeout(resolve, 6_000));
  // The second restart is a stop and a start with 2 s between, so that the moment the database is
  // away is long enough to look at for sure (a plain restart is over in about 2 s).
  const stopMs = await postgres('stop');
  const healthWhileDown = await waitFor(
    async () => {
      const health = await send(gateway.url, { method: 'GET', path: '/health' });
      return health.status === 503 ? health : undefined;
    },
    5_000,
    '/health to see the database gone',
  ).catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const secondRestartMs = stopMs + (await postgres('start'));
  const sent: Sent[] = await load;
  watching = false;
  await watchHealth;

  const statuses = new Map<string, number>();
  for (const one of sent) statuses.set(String(statusOf(one)), (statuses.get(String(statusOf(one))) ?? 0) + 1);
  const refused = sent.filter((one) => statusOf(one) === 503);
  const withoutRetryAfter = refused.filter((one) => !(one.answer instanceof Error) && one.answer.headers['retry-after'] === undefined);
  // A code host sends a 503'd event again later: it is accepted now (or a duplicate, if its first
  // commit landed just as the connection was cut).
  const again: Sent[] = [];
  for (const one of refused) again.push(await sendOne(gateway.url, one.delivery));
  const accepted = new Set([...sent, ...again].filter((one) => statusOf(one) === 202).map((one) => one.delivery));

  const lines = await waitFor(
    async () => {
      const counts = await answerLines(home);
      return [...accepted].every((delivery) => counts.has(delivery)) ? counts : undefined;
    },
    90_000,
    'every accepted event to be answered',
  ).catch(async () => answerLines(home));
  const missing = [...accepted].filter((delivery) => !lines.has(delivery));
  const twice = [...lines].filter(([, count]) => count > 1);
  const deliveries = await runIris(['webhook', 'deliveries', '--json', '--limit', '100000'], { home });
  const rows = JSON.parse(deliveries.stdout || '[]') as Array<{ delivery_id: string; state: string }>;
  const stuck = rows.filter((row) => row.state !== 'delivered');

  const alive = gateway.child.exitCode === null && gateway.child.signalCode === null;
  await gateway.stop('SIGTERM');
  console.log(
    `pg restart: restarts took ${firstRestartMs} and ${secondRestartMs} ms; answers ${JSON.stringify(Object.fromEntries(statuses))}; ` +
      `503s sent again: ${again.length} (${again.filter((one) => statusOf(one) === 202).length} accepted); accepted ${accepted.size}, answered ${lines.size}, ` +
      `missing ${missing.length}, twice ${twice.length}; health seen ${[...healthSeen].join(', ')}; slowest answer ${Math.max(...sent.map((one) => one.ms))} ms`,
  );
  expect(alive, gateway.output().slice(-3_000)).toBe(true);
  expect(gateway.child.pid).toBe(pid);
  expect([...statuses.keys()].filter((status) => !['202', '200', '503'].includes(status))).toEqual([]);
  expect(withoutRetryAfter.map((one) => one.delivery)).toEqual([]);
  expect(accepted.size).toBeGreaterThan(900);
  expect(missing).toEqual([]);
  expect(twice).toEqual([]);
  expect(stuck.map((row) => `${row.delivery_id}: ${row.state}`)).toEqual([]);
  expect(healthSeen.has('200:ok')).toBe(true);
  expect(healthWhileDown?.json).toMatchObject({ status: 'unavailable', platform: 'webhook', store: 'unreachable' });
});
