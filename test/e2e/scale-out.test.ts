// Scale-out on PostgreSQL, end to end: 2 listener processes and 2 worker processes
// (`iris gateway run --role …`, each with a home of its own, as on four hosts) sharing one schema of
// the real PostgreSQL, the fake model upstream in this process.
//
// 2,000 signed events go to the two listeners, 10% of them to both at once with the same delivery
// id. One listener is killed (kill -9) in the middle of the burst, and the requests it can no longer
// answer are sent to the other one, as a load balancer would; one worker is killed in the middle of
// its runs. Then: every delivery id that got a 202 is in the inbox exactly once, has run and has been
// delivered exactly once (one `webhook answer` log line across both workers' logs), duplicates were
// refused across listeners, and nothing was accepted that did not get stored.
// A second test holds the shared rate limit: three listeners, one window.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { postEvent, waitFor, type HttpAnswer } from '../helpers/gateway.js';
import { startRole, type RoleProcess } from '../helpers/gateway-roles.js';
import { makeTempDir, removeDir } from '../helpers/iris.js';
import { adminQuery, dropSchema, freshSchemaName, PG_TEST_URL, schemaUrl } from '../helpers/postgres.js';

const SECRET = 'scale-out-secret-0123456789abcdef';
const EVENTS = 2_000;
const LEASE_SECONDS = 5;

let fake: FakeUpstream;
let dir: string;
let schema: string;
const processes: RoleProcess[] = [];

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
afterEach(async () => {
  for (const process of processes.splice(0)) await process.kill('SIGKILL');
  if (dir) await removeDir(dir);
  if (schema) await dropSchema(schema);
});

async function setUp(rateLimit: number): Promise<(role: 'listener' | 'worker', name: string) => Promise<RoleProcess>> {
  fake.reset();
  fake.script('main-m', { kind: 'echo', prefix: 'reviewed: ', delayMs: 20 });
  dir = await makeTempDir('iris-scale-');
  schema = freshSchemaName('iris_e2e');
  await adminQuery(`CREATE SCHEMA ${schema}`);
  const config = `model:
  provider: openai
  default: main-m
store:
  url: ${JSON.stringify(schemaUrl(schema))}
  lease_seconds: ${LEASE_SECONDS}
platforms:
  webhook:
    enabled: true
    extra:
      host: 127.0.0.1
      port: 0
      rate_limit: ${rateLimit}
      concurrency: 6
      routes:
        pr:
          secret: ${SECRET}
          events: [pull_request]
          prompt: "event {pull_request.number}"
          deliver: log
`;
  return async (role, name) => {
    const home = join(dir, name);
    await mkdir(home, { mode: 0o700 });
    await writeFile(join(home, 'config.yaml'), config, { mode: 0o600 });
    const started = await startRole(role, home, { OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` }, 30_000);
    processes.push(started);
    return started;
  };
}

const payload = (n: number) => ({ action: 'opened', number: n, pull_request: { number: n, title: `change ${n}` }, repository: { full_name: 'octo/scale' } });

type Row = { delivery_id: string; state: string; output: string | null; run_attempts: number };

async function inbox(): Promise<Row[]> {
  const result = await adminQuery('SELECT delivery_id, state, output, run_attempts FROM webhook_events ORDER BY id', [], PG_TEST_URL, schema);
  return result.rows as Row[];
}

async function count(sql: string): Promise<number> {
  const result = await adminQuery(sql, [], PG_TEST_URL, schema);
  return Number((result.rows[0] as { n: number }).n);
}

/** The ids of the events each worker's gateway.log says it delivered (`webhook answer`). */
async function deliveredIds(worker: RoleProcess): Promise<number[]> {
  const text = await readFile(join(worker.home, 'logs', 'gateway.log'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line.includes('"webhook answer"'))
    .map((line) => (JSON.parse(line) as { id: number }).id);
}

describe('two listeners and two workers on one PostgreSQL', () => {
  it('every event that got a 202 runs and is delivered once, through a listener and a worker killed mid-way', async () => {
    const start = await setUp(1_000_000);
    const [l1, l2] = [await start('listener', 'l1'), await start('listener', 'l2')];
    const [w1, w2] = [await start('worker', 'w1'), await start('worker', 'w2')];

    const answers = new Map<number, HttpAnswer[]>();
    let l2Killed = false;
    let resent = 0;
    const post = async (url: string, n: number): Promise<HttpAnswer | undefined> => {
      try {
        return await postEvent(url, 'pr', payload(n), { secret: SECRET, delivery: `d-${n}` });
      } catch {
        return undefined; // no answer: the listener died
      }
    };
    const sendOne = async (n: number) => {
      const toBoth = n % 10 === 0;
      const targets = toBoth ? [l1.url!, l2.url!] : [n % 2 === 0 ? l1.url! : l2.url!];
      const got = await Promise.all(targets.map((url) => post(url, n)));
      const answered = got.filter((answer): answer is HttpAnswer => answer !== undefined);
      if (answered.length === 0) {
        // The balancer's retry on the listener still up (the same delivery id).
        resent++;
        const retry = await post(l1.url!, n);
        if (retry) answered.push(retry);
      }
      answers.set(n, answered);
    };

    // 32 at a time; the second listener dies half-way through the burst.
    const started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < EVENTS) {
          const n = next++;
          if (n === EVENTS / 2 && !l2Killed) {
            l2Killed = true;
            void l2.kill('SIGKILL');
          }
          await sendOne(n);
        }
      }),
    );
    const burstMs = Date.now() - started;

    // A worker dies in the middle of its runs.
    await waitFor(async () => ((await count("SELECT count(*) AS n FROM webhook_events WHERE state = 'delivered'")) >= 300 ? true : undefined), 60_000, '300 deliveries');
    await w1.kill('SIGKILL');
    // What it held when it died: runs under way, and runs finished but not yet recorded as delivered.
    const inItsHands = new Set(
      (await adminQuery(`SELECT id FROM webhook_events WHERE state IN ('running', 'done') AND worker LIKE '%:${w1.child.pid}:%'`, [], PG_TEST_URL, schema)).rows.map(
        (row: { id: number }) => row.id,
      ),
    );
    const killedWorkerRunning = inItsHands.size;

    const accepted = [...answers].filter(([, got]) => got.some((answer) => answer.status === 202)).map(([n]) => n);
    await waitFor(
      async () => ((await count("SELECT count(*) AS n FROM webhook_events WHERE state <> 'delivered'")) === 0 ? true : undefined),
      120_000,
      'every accepted event delivered',
    );
    const doneMs = Date.now() - started;

    const rows = await inbox();
    const byDelivery = new Map<string, Row[]>();
    for (const row of rows) byDelivery.set(row.delivery_id, [...(byDelivery.get(row.delivery_id) ?? []), row]);
    // Each delivery id that got a 202 is in the inbox once, run and delivered with its own answer.
    for (const n of accepted) {
      const stored = byDelivery.get(`d-${n}`) ?? [];
      expect(stored, `d-${n}`).toHaveLength(1);
      expect(stored[0]).toMatchObject({ state: 'delivered', output: expect.stringContaining(`reviewed: event ${n}`) as unknown });
    }
    // Nothing else is in it but events whose 202 was lost with the killed listener (stored, then killed before answering).
    expect(rows.length - accepted.length).toBeLessThanOrEqual(resent);
    expect([...byDelivery.values()].filter((group) => group.length > 1)).toEqual([]);

    // The pairs sent to both listeners: one 202, and the other copy refused as a duplicate.
    const pairs = [...answers].filter(([n, got]) => n % 10 === 0 && got.length === 2);
    for (const [, got] of pairs) expect(got.map((answer) => answer.status).sort()).toEqual([200, 202]);
    expect(pairs.length).toBeGreaterThan(90);

    // Delivered: each event's `webhook answer` line is in one of the workers' logs (written out
    // before the event is marked delivered, so a kill -9 cannot lose it), once. The one exception is
    // a log delivery's at-least-once window: the worker killed after writing the line and before
    // recording the delivery, so another worker writes it again; only an event in the killed
    // worker's hands can be in it.
    const lines = [...(await deliveredIds(w1)), ...(await deliveredIds(w2))];
    const ids = (await adminQuery('SELECT id FROM webhook_events ORDER BY id', [], PG_TEST_URL, schema)).rows.map((row: { id: number }) => row.id);
    expect([...new Set(lines)].sort((a, b) => a - b)).toEqual(ids);
    const twice = lines.filter((id, i) => lines.indexOf(id) !== i);
    expect(twice.filter((id) => !inItsHands.has(id))).toEqual([]);
    expect(new Set(twice).size).toBe(twice.length);

    const reRuns = rows.filter((row) => row.run_attempts > 1).length;
    console.log(
      `scale-out e2e: ${EVENTS} events (${pairs.length} sent to both listeners), ${accepted.length} got a 202, ${resent} resent after the listener's kill -9, ` +
        `${rows.length} stored, ${reRuns} run again after the worker's kill -9 (${killedWorkerRunning} were in its hands), ` +
        `${twice.length} answer lines written twice (the log delivery's kill -9 window), ` +
        `${fake.requests.length} model calls; burst ${burstMs} ms, all delivered after ${doneMs} ms`,
    );
    expect(reRuns).toBeLessThanOrEqual(killedWorkerRunning);
  }, 240_000);

  it('the rate limit is one window shared by three listeners', async () => {
    const start = await setUp(40);
    const listeners = [await start('listener', 'l1'), await start('listener', 'l2'), await start('listener', 'l3')];
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, n) => postEvent(listeners[n % 3]!.url!, 'pr', payload(n), { secret: SECRET, delivery: `r-${n}` })),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 202)).toHaveLength(40);
    expect(statuses.filter((status) => status === 429)).toHaveLength(60);
    const retryAfter = answers.filter((answer) => answer.status === 429).map((answer) => Number(answer.headers['retry-after']));
    expect(Math.min(...retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...retryAfter)).toBeLessThanOrEqual(61);
    expect(await count('SELECT count(*) AS n FROM webhook_events')).toBe(40);
    // A duplicate of an accepted event is answered as one, at the other listener too, and costs nothing.
    const accepted = answers.findIndex((answer) => answer.status === 202);
    const again = await postEvent(listeners[(accepted + 1) % 3]!.url!, 'pr', payload(accepted), { secret: SECRET, delivery: `r-${accepted}` });
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ status: 'duplicate', delivery_id: `r-${accepted}` });
  }, 60_000);
});
