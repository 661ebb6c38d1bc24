// The crash harness for pull-request review routes: N trials of `kill -9` against a real gateway
// while pushes and `/ask` comments on a few PRs are accepted, planned (a compare with the fake gh),
// run in the PR's session and delivered (the one living summary comment, edited in place, and a
// reply per /ask), then one last start that drains the inbox. It checks, exactly:
// - every event that got a 202 ended delivered or skipped, and skipped only where a push re-sent a
//   head that was reviewed already (the harness re-sends heads on purpose and knows which);
// - each PR has one summary comment, carrying the answer of its last review;
// - each /ask has exactly one reply (its delivery marker once on the PR), and there is no other comment;
// - each PR's runs happened in event order across the restarts (gateway.log's "webhook run
//   started" lines), an interrupted run being run again before the next event.
// The fake model echoes the prompt after a short think and the fake gh lingers after each POST or
// PATCH it has written (FAKE_GH_API_HANG_MS), so kills land in runs and in the window between the
// host taking a comment and Iris recording it. The poison rule is off (`max_run_attempts`), as in
// kill9.crash.ts: these kills are not the events' doing.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { configurePr, issueComment, makePrHome, postGithub, prComments, pullRequest, REPO, startPrGateway, type PrHome } from '../helpers/pr-review.js';
import { seededRandom } from '../helpers/seeded-random.js';

const TRIALS = Number(process.env.IRIS_CRASH_TRIALS ?? 20);
const EVENTS_PER_TRIAL = 4;
const PRS = [1, 2, 3] as const;
const SEED = Number(process.env.IRIS_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));

const ROUTE = `events: [pull_request, issue_comment]
session: per_pr
commands: true
coalesce_seconds: 0
prompt: "Review pull request #{number} at {pull_request.head.sha}"
deliver: forge_comment
deliver_extra:
  mode: update`;


/** PR n's k-th commit; each PR's commits form one line of history (the fake gh's compare reads it). */
const head = (n: number, k: number) => `${String(n).padStart(2, '0')}c${String(k).padStart(5, '0')}`.padEnd(40, 'e');
const MAX_COMMITS = 1000;

type Sent =
  | { readonly kind: 'push'; readonly pr: number; readonly delivery: string; readonly head: string; readonly resent: boolean }
  | { readonly kind: 'ask'; readonly pr: number; readonly delivery: string; readonly token: string };

type Row = { id: number; delivery_id: string; state: string; reason: string | null; event: string };
type Started = { id: number; pr: string };

let fake: FakeUpstream;
let pr: PrHome;

beforeAll(async () => {
  fake = await startFakeUpstream();
  fake.script('main-m', { kind: 'echo', prefix: 'review: ', delayMs: 150 });
  pr = await makePrHome(await makeTempDir('iris-crash-pr-'));
  const graph: Record<string, string | null> = {};
  for (const n of PRS) for (let k = 0; k < MAX_COMMITS; k++) graph[head(n, k)] = k === 0 ? null : head(n, k - 1);
  await writeFile(pr.commitsFile, JSON.stringify(graph));
  await configurePr(pr, ROUTE, '', ['rate_limit: 100000', 'concurrency: 4', 'max_run_attempts: 1000']);
});
afterAll(async () => {
  await fake.close();
  if (process.env.IRIS_CRASH_KEEP === '1') console.log(`kept ${pr.dir}`);
  else await removeDir(pr.dir);
});

const start = (): Promise<GatewayProcess> => startPrGateway(pr, fake, { FAKE_GH_API_HANG_MS: '120' });

async function rows(): Promise<Row[]> {
  const result = await runIris(['webhook', 'deliveries', '--json', '--limit', '100000'], { home: pr.home });
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as Row[]).sort((a, b) => a.id - b.id);
}

/** gateway.log's lines carrying `msg`, in the order they were written (every start appends). */
async function logLines(msg: string): Promise<Started[]> {
  const text = await readFile(join(pr.home, 'logs', 'gateway.log'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.includes(msg))
    .map((line) => JSON.parse(line) as Started);
}

it(`${TRIALS} kill -9 trials on PR review routes: one summary per PR, one reply per /ask, runs in order, nothing lost`, async () => {
  const random = seededRandom(SEED);
  const started = Date.now();
  const sent = new Map<string, Sent>();
  const accepted = new Set<string>();
  const commits = new Map<number, number>(); // the PR's newest head (-1: not opened yet)
  let serial = 0;
  const nextEvent = (trial: number, i: number): { event: string; payload: unknown; sent: Sent } => {
    const n = PRS[Math.floor(random() * PRS.length)]!;
    const delivery = `t${trial}-e${i}`;
    const k = commits.get(n) ?? -1;
    const roll = random();
    if (k < 0) {
      commits.set(n, 0);
      return { event: 'pull_request', payload: pullRequest('opened', head(n, 0), n), sent: { kind: 'push', pr: n, delivery, head: head(n, 0), resent: false } };
    }
    if (roll < 0.45) {
      const next = Math.min(k + 1 + Math.floor(random() * 2), MAX_COMMITS - 1);
      commits.set(n, next);
      const payload = pullRequest('synchronize', head(n, next), n, { before: head(n, k), after: head(n, next) });
      return { event: 'pull_request', payload, sent: { kind: 'push', pr: n, delivery, head: head(n, next), resent: false } };
    }
    if (roll < 0.6) {
      // GitHub sends a push again (a redelivery, a second hook): the head is the newest one.
      const payload = pullRequest('synchronize', head(n, k), n, { before: head(n, Math.max(0, k - 1)), after: head(n, k) });
      return { event: 'pull_request', payload, sent: { kind: 'push', pr: n, delivery, head: head(n, k), resent: true } };
    }
    const token = `q-${trial}-${i}-${++serial}`;
    return { event: 'issue_comment', payload: issueComment(`/ask what about ${token}?`, 'octocat', 'MEMBER', n, 10_000 + serial), sent: { kind: 'ask', pr: n, delivery, token } };
  };

  const kills = { inRuns: 0, inDeliveries: 0, both: 0, idle: 0 };
  for (let trial = 0; trial < TRIALS; trial++) {
    const gateway = await start();
    const delayMs = 60 + Math.floor(random() * 900);
    const events = Array.from({ length: EVENTS_PER_TRIAL }, (_, i) => nextEvent(trial, i));
    const gaps = events.map(() => Math.floor(random() * 120));
    // Sent one after the other (the inbox's order is the order sent), the kill at its own time.
    const sending = (async () => {
      for (const [i, { event, payload, sent: what }] of events.entries()) {
        await new Promise((resolve) => setTimeout(resolve, gaps[i]));
        sent.set(what.delivery, what);
        const answer = await postGithub(gateway, event, payload, what.delivery).catch(() => undefined);
        if (answer === undefined) return; // cut off by the kill: never answered, so never promised
        expect(answer.status).toBe(202);
        accepted.add(what.delivery);
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    gateway.child.kill('SIGKILL');
    await gateway.exited;
    await sending;
    const states = new Set((await rows()).map((row) => row.state));
    const inRun = states.has('running');
    const inDelivery = states.has('delivering');
    if (inRun && inDelivery) kills.both++;
    else if (inRun) kills.inRuns++;
    else if (inDelivery) kills.inDeliveries++;
    else kills.idle++;
  }

  const last = await start();
  const drained = await waitFor(
    async () => {
      const all = await rows();
      const seen = new Set(all.map((row) => row.delivery_id));
      return [...accepted].every((delivery) => seen.has(delivery)) && all.every((row) => ['delivered', 'skipped', 'failed'].includes(row.state)) ? all : undefined;
    },
    60_000,
    'every event to end after the last start',
  );
  await last.stop('SIGTERM');

  // What each event should have ended as, walking each PR's events in inbox order: a push whose
  // head is the one its PR's last review delivered is skipped; every other event is delivered.
  const byDelivery = new Map(drained.map((row) => [row.delivery_id, row]));
  const problems: string[] = [];
  const notInInbox = [...accepted].filter((delivery) => !byDelivery.has(delivery));
  const reviewed = new Map<number, { head: string; id: number }>();
  const asks: Array<{ row: Row; sent: Extract<Sent, { kind: 'ask' }> }> = [];
  let expectedSkips = 0;
  for (const row of drained) {
    const what = sent.get(row.delivery_id);
    if (!what) {
      problems.push(`event ${row.id} (${row.delivery_id}) was never sent`);
      continue;
    }
    const last = reviewed.get(what.pr);
    if (what.kind === 'push' && last?.head === what.head) {
      expectedSkips++;
      const reason = `${what.head.slice(0, 12)} was reviewed already`;
      if (row.state !== 'skipped' || row.reason !== reason) problems.push(`event ${row.id} (${row.delivery_id}, PR #${what.pr}, head reviewed by event ${last.id}): ${row.state} (${row.reason}), expected skipped (${reason})`);
      continue;
    }
    if (row.state !== 'delivered') problems.push(`event ${row.id} (${row.delivery_id}, PR #${what.pr} ${what.kind}): ${row.state} (${row.reason}), expected delivered`);
    if (what.kind === 'push') reviewed.set(what.pr, { head: what.head, id: row.id });
    else asks.push({ row, sent: what });
  }

  // The comments on each PR: one summary with the last review's answer, one reply per /ask.
  const comments = await prComments(pr);
  for (const n of PRS) {
    const onPr = comments.filter((c) => c.repo === REPO && c.number === n);
    const marker = `<!-- iris:pr:${REPO}#${n} -->`;
    const summaries = onPr.filter((c) => c.body.endsWith(marker));
    const lastReview = reviewed.get(n);
    if (lastReview === undefined) {
      if (summaries.length > 0) problems.push(`PR #${n} was never reviewed but has ${summaries.length} summaries`);
    } else if (summaries.length !== 1) {
      problems.push(`PR #${n} has ${summaries.length} summary comments`);
    } else if (!summaries[0]!.body.startsWith(`review: Review pull request #${n} at ${lastReview.head}`)) {
      problems.push(`PR #${n}'s summary is not the answer of its last review (event ${lastReview.id}, ${lastReview.head}): ${JSON.stringify(summaries[0]!.body.slice(0, 120))}`);
    }
    const replies = onPr.filter((c) => !c.body.endsWith(marker));
    const mine = asks.filter((ask) => ask.sent.pr === n);
    if (replies.length !== mine.length) problems.push(`PR #${n} has ${replies.length} replies for ${mine.length} /ask commands`);
    // Posted in event order, one each, each answering its own question.
    const replyIds = replies.map((c) => Number(/<!-- iris-delivery:(\d+) -->$/.exec(c.body)?.[1]));
    if (JSON.stringify(replyIds) !== JSON.stringify(mine.map((ask) => ask.row.id))) problems.push(`PR #${n}'s replies carry the markers ${replyIds.join(',')}, expected ${mine.map((ask) => ask.row.id).join(',')}`);
    for (const ask of mine) {
      const reply = replies.filter((c) => c.body.includes(`<!-- iris-delivery:${ask.row.id} -->`));
      if (reply.length === 1 && !reply[0]!.body.includes(`what about ${ask.sent.token}?`)) problems.push(`the reply to event ${ask.row.id} does not answer ${ask.sent.token}`);
    }
  }
  const everyMarker = comments.flatMap((c) => [...c.body.matchAll(/<!-- iris-delivery:(\d+) -->/g)].map((m) => Number(m[1])));
  const duplicates = everyMarker.filter((id, i) => everyMarker.indexOf(id) !== i);

  // Each PR's runs in event order: ids ascend, an interrupted one may run again before the next.
  const runs = await logLines('webhook run started');
  // Replies a kill cut off after the host took them, found by their marker at the next start.
  const foundPosted = (await logLines('webhook answer was posted before the restart; not posted again')).length;
  const idsOfPr = new Map(drained.map((row) => [row.id, sent.get(row.delivery_id)?.pr]));
  let reruns = 0;
  for (const n of PRS) {
    const ids = runs.filter((r) => r.pr === `github:${REPO}#${n}`).map((r) => r.id);
    for (let i = 1; i < ids.length; i++) {
      if (ids[i]! < ids[i - 1]!) problems.push(`PR #${n}: event ${ids[i]} ran after event ${ids[i - 1]} (runs: ${ids.join(',')})`);
      if (ids[i] === ids[i - 1]) reruns++;
    }
    if (ids.some((id) => idsOfPr.get(id) !== n)) problems.push(`PR #${n}'s lane ran events of another PR: ${ids.join(',')}`);
  }
  const ran = new Set(runs.map((r) => r.id));
  const delivered = drained.filter((row) => row.state === 'delivered');
  const neverRan = delivered.filter((row) => !ran.has(row.id));

  console.log(
    `PR crash harness (seed ${SEED}): ${TRIALS} kill -9 trials in ${Math.round((Date.now() - started) / 1000)} s; ${sent.size} events sent, ${accepted.size} accepted (202), ` +
      `${drained.length} in the inbox: ${delivered.length} delivered, ${drained.length - delivered.length} skipped (expected ${expectedSkips}); ` +
      `kills in runs ${kills.inRuns}, in deliveries ${kills.inDeliveries}, in both ${kills.both}, while idle ${kills.idle}; ` +
      `${runs.length} runs started (${reruns} again after a kill); ${comments.length} comments (${PRS.filter((n) => reviewed.has(n)).length} summaries, ${asks.length} replies), ` +
      `${foundPosted} replies found posted after a kill; ` +
      `duplicates: ${duplicates.length}, lost: ${notInInbox.length + drained.filter((row) => row.state === 'failed').length}`,
  );
  expect(accepted.size).toBeGreaterThan(TRIALS);
  expect(notInInbox).toEqual([]);
  expect(problems).toEqual([]);
  expect(duplicates).toEqual([]);
  expect(neverRan.map((row) => row.id)).toEqual([]);
});
