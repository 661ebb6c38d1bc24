// The hostile-input run (`npm run test:hostile`, docs/development.md): the real gateway as a
// subprocess takes over 5,000 requests across the classes in classes-*.ts, 32 at a time, and must
// answer none with a 5xx, stay up, keep its memory bounded and have every 202 in its inbox.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { postEvent, send, startGatewayProcess, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { MAX_BODY_BYTES, type Ctx } from './class-types.js';
import { PAYLOAD_CLASSES } from './classes-payload.js';
import { BODY_TIMEOUT_MS, PROTOCOL_CLASSES } from './classes-protocol.js';
import { rssKb, runJobs, sampleRss, schedule } from './load.js';
import { formatSummary, tally } from './summary.js';

const CLASSES = [...PAYLOAD_CLASSES, ...PROTOCOL_CLASSES];
const MIN_REQUESTS = 5_000;
const CONCURRENCY = 32;
/** The share of the run that warms the gateway up; its RSS peak is the baseline. */
const WARM_UP_SHARE = 0.3;
/** After the warm-up the gateway's RSS may peak this much above the warm-up's peak. */
const RSS_HEADROOM_KB = 64 * 1024;
const ROUTE = 'hostile';
const SECRET = 'hostile-run-secret-4b1d9e7c2a';
const SEED_DELIVERY = 'hostile-seed';

// A high rate limit, so valid events are accepted (202), not limited (429). Runs go to the fake
// model and their answers to gateway.log.
const CONFIG = `model:
  provider: openai
  default: main-m
platforms:
  webhook:
    enabled: true
    extra:
      host: 127.0.0.1
      port: 0
      rate_limit: 100000
      max_body_bytes: ${MAX_BODY_BYTES}
      body_timeout: ${BODY_TIMEOUT_MS / 1000}
      routes:
        ${ROUTE}:
          secret: ${SECRET}
          deliver: log
`;

let fake: FakeUpstream;
let dir: string;
let home: string;
let gateway: GatewayProcess;

beforeAll(async () => {
  fake = await startFakeUpstream();
  dir = await makeTempDir('iris-hostile-');
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
  await writeFile(join(home, 'config.yaml'), CONFIG, { mode: 0o600 });
  gateway = await startGatewayProcess(home, { OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` });
});
afterAll(async () => {
  await gateway?.stop();
  await fake?.close();
  await removeDir(dir);
});

async function inboxDeliveryIds(): Promise<Set<string>> {
  const listed = await runIris(['webhook', 'deliveries', '--route', ROUTE, '--json', '--limit', '1000000'], { home });
  expect(listed.code, listed.stderr).toBe(0);
  return new Set((JSON.parse(listed.stdout) as Array<{ delivery_id: string }>).map((row) => row.delivery_id));
}

it(`answers ${MIN_REQUESTS}+ hostile requests with no 5xx, no crash, bounded memory, every 202 in the inbox`, async () => {
  const pid = gateway.child.pid!;
  expect((await postEvent(gateway.url, ROUTE, { seed: true }, { secret: SECRET, delivery: SEED_DELIVERY })).status).toBe(202);
  const startKb = rssKb(pid)!;

  // The first part of the run (every class in it) warms the gateway up: its heap grows to its
  // working size. Its peak is the baseline the rest of the run must stay near.
  let deliveries = 0;
  const ctx: Ctx = { route: ROUTE, secret: SECRET, seedDelivery: SEED_DELIVERY, delivery: () => `hostile-${++deliveries}` };
  const jobs = schedule(CLASSES);
  const warmUp = Math.round(jobs.length * WARM_UP_SHARE);
  const sampler = sampleRss(pid, 100);
  const started = performance.now();
  const results = await runJobs(gateway.port, ctx, jobs.slice(0, warmUp), CONCURRENCY);
  const baselineKb = sampler.peak();
  results.push(...(await runJobs(gateway.port, ctx, jobs.slice(warmUp), CONCURRENCY)));
  const durationMs = performance.now() - started;
  const maxKb = sampler.peak();
  sampler.stop();

  // A gateway that died answers nothing: the summary is printed all the same, then the run fails.
  const health = await send(gateway.url, { method: 'GET', path: '/health' }).catch(() => undefined);
  const accepted = results.flatMap((result) => result.outcome.acceptedIds);
  const inbox = await inboxDeliveryIds();
  const missing = accepted.filter((id) => !inbox.has(id));
  const summary = tally(CLASSES, results);
  const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;
  console.log(
    formatSummary(summary, {
      duration: `${(durationMs / 1000).toFixed(1)} s (${Math.round(summary.requests / (durationMs / 1000))} requests/s, ${CONCURRENCY} at a time)`,
      'gateway RSS': `${mb(startKb)} at start, ${mb(baselineKb)} peak in the warm-up (first ${warmUp} requests), ${mb(maxKb)} peak after it (+${mb(maxKb - baselineKb)}; bound +${mb(RSS_HEADROOM_KB)})`,
      'accepted (202)': `${accepted.length}, ${missing.length} missing from the inbox`,
    }),
  );

  expect(summary.requests).toBeGreaterThanOrEqual(MIN_REQUESTS);
  expect(summary.failures).toEqual([]);
  expect(gateway.child.exitCode).toBeNull();
  expect(health?.status).toBe(200);
  expect(missing).toEqual([]);
  expect(maxKb - baselineKb).toBeLessThanOrEqual(RSS_HEADROOM_KB);
  // A clean stop: the runs still queued wait in the inbox for the next start.
  expect(await gateway.stop()).toEqual({ code: 0, signal: null });
});
