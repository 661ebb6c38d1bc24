// The per-PR order under load: 20 pull requests × 5 comment events, all sent at once to the real
// gateway (8 workers). For each PR its runs must happen one at a time, in the order the gateway
// accepted its events; runs of different PRs must overlap. Read from the gateway's own log (run
// started / finished, with times), and from the model requests' order.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir } from '../helpers/iris.js';
import { allEnded, configurePr, issueComment, lastUserText, mainRequests, makePrHome, postGithub, startPrGateway, type PrHome } from '../helpers/pr-review.js';

const PRS = 20;
const EVENTS_PER_PR = 5;
const RUN_MS = 60;

let fake: FakeUpstream;
let pr: PrHome;
let gateway: GatewayProcess | undefined;

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  pr = await makePrHome(await makeTempDir());
});
afterEach(async () => {
  await gateway?.stop('SIGKILL');
  await removeDir(pr.dir);
});

type LogLine = { msg: string; time: number; id?: number; pr?: string };

/** pino writes ISO times in these logs; compared as epoch ms. */
const timeOf = (line: { time: number | string }) => (typeof line.time === 'number' ? line.time : Date.parse(line.time));

describe('per-PR order under load', () => {
  it(`${PRS} PRs × ${EVENTS_PER_PR} events sent concurrently: each PR's runs one at a time in event order, different PRs overlap`, async () => {
    // 8 workers: more than one PR must be in flight at once for the overlap to show.
    await configurePr(pr, 'events: [issue_comment]\nsession: per_pr\ncommands: true\ndeliver: log', '', ['concurrency: 8', 'rate_limit: 1000']);
    fake.script('main-m', { kind: 'echo', prefix: 'answer to: ', delayMs: RUN_MS });
    gateway = await startPrGateway(pr, fake);

    const started = performance.now();
    const sends = [];
    // Each PR's events back to back: without the per-PR lanes, free workers would take several of
    // one PR's events at once.
    for (let n = 1; n <= PRS; n++) {
      for (let k = 1; k <= EVENTS_PER_PR; k++) {
        sends.push(postGithub(gateway, 'issue_comment', issueComment(`@iris question ${k} on ${n}`, 'octocat', 'MEMBER', n, n * 100 + k), `d-${n}-${k}`));
      }
    }
    const answers = await Promise.all(sends);
    const acceptedMs = performance.now() - started;
    expect(answers.map((a) => a.status)).toEqual(Array(PRS * EVENTS_PER_PR).fill(202));
    const rows = await waitFor(allEnded(pr, PRS * EVENTS_PER_PR), 120_000, 'every event');
    const totalMs = performance.now() - started;
    expect(rows.every((row) => row.state === 'delivered')).toBe(true);

    // Event order = the order the gateway accepted them (inbox ids); each PR's own sequence.
    const questionOf = new Map<number, string>();
    const log = (await readFile(join(pr.home, 'logs', 'gateway.log'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as LogLine & { time: number | string })
      .map((line) => ({ ...line, time: timeOf(line) }));
    const startedAt = new Map(log.filter((l) => l.msg === 'webhook run started').map((l) => [l.id!, l] as const));
    const finishedAt = new Map(log.filter((l) => l.msg === 'webhook run finished').map((l) => [l.id!, l.time] as const));
    expect(startedAt.size).toBe(PRS * EVENTS_PER_PR);
    expect(finishedAt.size).toBe(PRS * EVENTS_PER_PR);
    const byPr = new Map<string, number[]>();
    for (const [id, line] of startedAt) byPr.set(line.pr!, [...(byPr.get(line.pr!) ?? []), id]);
    expect(byPr.size).toBe(PRS);
    for (const [key, ids] of byPr) {
      const inIdOrder = [...ids].sort((a, b) => a - b);
      const byStart = [...ids].sort((a, b) => startedAt.get(a)!.time - startedAt.get(b)!.time || a - b);
      expect(byStart, `runs of ${key} start in event order`).toEqual(inIdOrder);
      for (let i = 1; i < inIdOrder.length; i++) {
        expect(startedAt.get(inIdOrder[i]!)!.time, `${key}: a run starts only after the one before finished`).toBeGreaterThanOrEqual(finishedAt.get(inIdOrder[i - 1]!)!);
      }
    }
    // The model saw each PR's questions in the order their events were accepted.
    for (const body of mainRequests(fake)) {
      const match = /@iris question (\d) on (\d+)/.exec(lastUserText(body));
      if (match) questionOf.set(questionOf.size, `${match[2]}:${match[1]}`);
    }
    const seenPerPr = new Map<string, string[]>();
    for (const entry of questionOf.values()) {
      const [n, k] = entry.split(':');
      seenPerPr.set(n!, [...(seenPerPr.get(n!) ?? []), k!]);
    }
    expect(seenPerPr.size).toBe(PRS);
    const deliveryOrder = new Map<string, string[]>();
    for (const row of rows) {
      const n = /^d-(\d+)-(\d)$/.exec(row.delivery_id)!;
      deliveryOrder.set(n[1]!, [...(deliveryOrder.get(n[1]!) ?? []), n[2]!]);
    }
    for (const [n, ks] of seenPerPr) expect(ks, `PR ${n}: questions in accepted order`).toEqual(deliveryOrder.get(n));

    // Overlap: the most runs of different PRs in flight at one time.
    const spans = [...startedAt].map(([id, line]) => ({ start: line.time, end: finishedAt.get(id)! }));
    const points = spans.flatMap((s) => [[s.start, 1] as const, [s.end, -1] as const]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let inFlight = 0;
    let most = 0;
    for (const [, step] of points) most = Math.max(most, (inFlight += step));
    expect(most).toBeGreaterThan(1);
    const runMs = spans.map((s) => s.end - s.start).sort((a, b) => a - b);
    console.info(
      `pr-review load: ${PRS * EVENTS_PER_PR} events accepted in ${acceptedMs.toFixed(0)} ms, all run and delivered in ${totalMs.toFixed(0)} ms; ` +
        `at most ${most} runs at once (8 workers); run p50 ${runMs[Math.floor(runMs.length / 2)]} ms (model ${RUN_MS} ms); ` +
        `serial would take ≥ ${PRS * EVENTS_PER_PR * RUN_MS} ms`,
    );
  }, 150_000);
});
