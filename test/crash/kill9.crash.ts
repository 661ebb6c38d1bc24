// The crash harness: N trials of `kill -9` against a real gateway while events are being accepted,
// run and delivered as PR comments (fake gh), then one last start that drains the inbox. Every
// event that got a 202 must end delivered, with exactly one comment on its PR: 0 lost, 0 twice.
// The fake gh posts and then lingers (`posted-hang`), so many kills land in the window between a
// comment being posted and "delivered" being recorded, the window that used to make duplicates.
// The poison rule (an event whose runs were cut off 3 times is failed) is turned off with
// `max_run_attempts`: these kills come every few hundred milliseconds and are not the events'
// doing, so an unlucky event would otherwise be failed by design (the rule has its own tests).
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { postEvent, startGatewayProcess, waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, REPO_ROOT, removeDir, runIris } from '../helpers/iris.js';

const TRIALS = Number(process.env.IRIS_CRASH_TRIALS ?? 20);
const EVENTS_PER_TRIAL = 6;
const SECRET = 'crash-harness-secret-0123456789';

let fake: FakeUpstream;
let dir: string;
let home: string;
let binDir: string;
let ghRecord: string;

beforeAll(async () => {
  fake = await startFakeUpstream();
  // A short think before every answer, so kills land in runs as well as in deliveries.
  fake.script('main-m', { kind: 'slow_first_byte', delayMs: 60, then: { kind: 'text', deltas: ['Reviewed.'] } });
  dir = await makeTempDir('iris-crash-');
  home = join(dir, 'home');
  binDir = join(dir, 'bin');
  ghRecord = join(dir, 'gh.jsonl');
  await mkdir(home, { mode: 0o700 });
  await mkdir(binDir);
  await symlink(join(REPO_ROOT, 'test', 'fakes', 'fake-gh.mjs'), join(binDir, 'gh'));
  await writeFile(
    join(home, 'config.yaml'),
    `model:\n  provider: openai\n  default: main-m\nplatforms:\n  webhook:\n    enabled: true\n    extra:\n      host: 127.0.0.1\n      port: 0\n      rate_limit: 100000\n      concurrency: 4\n      max_run_attempts: 1000\n      routes:\n        pr:\n          secret: ${SECRET}\n          events: [pull_request]\n          deliver: forge_comment\n          deliver_extra:\n            repo: "{repository.full_name}"\n            pr_number: "{number}"\n`,
    { mode: 0o600 },
  );
});
afterAll(async () => {
  await fake.close();
  await removeDir(dir);
});

const start = (): Promise<GatewayProcess> =>
  startGatewayProcess(home, {
    OPENAI_API_KEY: 'test-key-0123456789',
    OPENAI_BASE_URL: `${fake.url}/v1`,
    PATH: `${binDir}:${process.env.PATH ?? ''}`,
    FAKE_GH_RECORD: ghRecord,
    FAKE_GH_MODE: 'posted-hang',
    FAKE_GH_HANG_MS: '150',
  });

type Row = { id: number; delivery_id: string; state: string; reason: string | null };

async function rows(): Promise<Row[]> {
  const result = await runIris(['webhook', 'deliveries', '--json', '--limit', '100000'], { home });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Row[];
}

async function postedComments(): Promise<Array<{ repo: string; number: number; body: string }>> {
  const text = await readFile(`${ghRecord}.comments.jsonl`, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { repo: string; number: number; body: string });
}

it(`${TRIALS} kill -9 trials: every accepted event is delivered exactly once`, async () => {
  const accepted = new Set<string>();
  const started = Date.now();
  let killedMidDelivery = 0;
  for (let trial = 0; trial < TRIALS; trial++) {
    const gateway = await start();
    // Events of this trial, each on its own PR; the kill comes at a different moment each time.
    const posts = Array.from({ length: EVENTS_PER_TRIAL }, (_, i) => {
      const delivery = `t${trial}-e${i}`;
      const payload = { action: 'opened', number: trial * EVENTS_PER_TRIAL + i + 1, repository: { full_name: 'octo/crash' } };
      return postEvent(gateway.url, 'pr', payload, { secret: SECRET, delivery }).then(
        (answer) => {
          if (answer.status === 202) accepted.add(delivery);
          else expect([202, 200]).toContain(answer.status);
        },
        () => undefined, // cut off by the kill: never answered, so never promised
      );
    });
    const delayMs = 50 + ((trial * 97) % 450);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    const before = (await postedComments()).length;
    gateway.child.kill('SIGKILL');
    await gateway.exited;
    await Promise.all(posts);
    if ((await postedComments()).length > before) killedMidDelivery++;
  }
  const last = await start();
  const drained = await waitFor(
    async () => {
      const all = await rows();
      return all.length >= accepted.size && all.every((row) => row.state === 'delivered' || row.state === 'failed') ? all : undefined;
    },
    120_000,
    'every event to be delivered after the last start',
  );
  await last.stop('SIGTERM');

  const byDelivery = new Map(drained.map((row) => [row.delivery_id, row]));
  const lost = [...accepted].filter((delivery) => byDelivery.get(delivery)?.state !== 'delivered');
  const comments = await postedComments();
  const perEvent = new Map<number, number>();
  for (const comment of comments) {
    const id = Number(/<!-- iris-delivery:(\d+) -->/.exec(comment.body)?.[1]);
    perEvent.set(id, (perEvent.get(id) ?? 0) + 1);
  }
  const duplicates = [...perEvent].filter(([, count]) => count > 1);
  const delivered = drained.filter((row) => row.state === 'delivered');
  const withoutComment = delivered.filter((row) => perEvent.get(row.id) !== 1);
  console.log(
    `crash harness: ${TRIALS} kill -9 trials in ${Math.round((Date.now() - started) / 1000)} s; ${accepted.size} events accepted (202), ` +
      `${drained.length} in the inbox, ${delivered.length} delivered, ${comments.length} comments posted; ` +
      `kills with a comment posted in the last moments: ${killedMidDelivery}; lost: ${lost.length}, duplicates: ${duplicates.length}`,
  );
  expect(accepted.size).toBeGreaterThan(TRIALS);
  expect(lost.map((delivery) => `${delivery}: ${byDelivery.get(delivery)?.state} (${byDelivery.get(delivery)?.reason})`)).toEqual([]);
  expect(duplicates).toEqual([]);
  expect(withoutComment.map((row) => row.id)).toEqual([]);
  expect(drained.filter((row) => row.state === 'failed')).toEqual([]);
});
