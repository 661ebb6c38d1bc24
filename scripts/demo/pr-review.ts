// `npm run demo -- --pr-review`: a pull request reviewed in one session, with a comment command
// and an incremental review after a push (docs/pr-review.md). The real `bin/iris gateway run`
// against the fakes: the scripted model (test/fakes/upstream.ts) and the fake gh
// (test/fakes/fake-gh.mjs), which keeps the PR's comments and a commit graph for `gh api compare`.
//
//   1. a route with session: per_pr, commands: true, coalesce_seconds: 1, deliver_extra.mode: update
//   2. pull_request opened → the first review, posted as the summary comment
//   3. issue_comment "/ask …" from a MEMBER → the answer, posted as a reply
//   4. pull_request synchronize (a new head) → after the 1 s window, a review of the new commits
//      only (the compare range is in its prompt); the summary comment is edited, not posted again
//   5. what the fake gh recorded, the second review's prompt, `iris webhook deliveries`
// The reviews answer with findings (issue 37): the first review puts two on their lines (one with a
// suggestion), the push fixes the typo, so the second review resolves that one as outdated and
// skips the other, raised again, as a repeat (`iris webhook deliveries --show 3`).
import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanDemoEnv, installFakeGh } from './fake-gh-env.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFakeUpstream, type FakeUpstream } from '../../test/fakes/upstream.js';
import { DemoFailure, blank, block, note, step } from './out.js';
import { runIris, spawnGateway, stopGateway, waitForListening, type GatewayProcess } from './processes.js';
import { DUMMY_API_KEY, MODEL_ID } from './scenario.js';

export const PR_REPO = 'octo-org/hello-world';
export const PR_ROUTE = 'pr-review';
const PR = 42;
const TITLE_MODEL = 'scripted-title-model';

/** The commit graph the fake gh compares over: main's tip, then the PR's three commits. */
const BASE_SHA = '9049f1265b7d61be4a8904a9a27120d2064dab3b';
export const FIRST_HEAD = '6dcb09b5b57875f334f61aebed695e2e4193db5e';
const MIDDLE_SHA = 'c3f1e2a47b8d9e0f1a2b3c4d5e6f708192a3b4c5';
export const SECOND_HEAD = 'e4d2a1b9c8f7e6d5c4b3a2918070605040302010';

export const FIRST_REVIEW = 'Review of 6dcb09b: the greeting reads well, with two small things. (scripted)';
export const ASK_QUESTION = 'why a new file instead of the README?';
export const ASK_ANSWER = 'A file of its own keeps the README short; it links to it. (scripted)';
export const SECOND_REVIEW = 'Review of e4d2a1b: the two new commits fix the typo; nothing else changed. (scripted)';

/** The PR's one file, before and after the push that fixes its typo. */
const GREETING_BEFORE = ['@@ -0,0 +1,3 @@', '+# Greeting', '+Hello, world', '+Welcome to the wrold.'].join('\n');
const GREETING_AFTER = ['@@ -0,0 +1,3 @@', '+# Greeting', '+Hello, world', '+Welcome to the world.'].join('\n');
export const PUNCTUATION = { path: 'docs/greeting.md', line: 2, severity: 'nit', title: 'End the greeting with a full stop', body: 'Every other sentence has one.', suggestion: 'Hello, world.' };
const TYPO = { path: 'docs/greeting.md', line: 3, severity: 'minor', title: 'Typo', body: '"wrold" should be "world".', suggestion: 'Welcome to the world.' };
const reviewJson = (summary: string, findings: readonly object[]) => JSON.stringify({ summary, findings });

const START_TIMEOUT_MS = 20_000;
const EVENT_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 20_000;
const POLL_MS = 300;

export type PrReviewDemoState = {
  dir?: string;
  home?: string;
  fake?: FakeUpstream;
  gateway?: GatewayProcess;
};

type Setup = { env: NodeJS.ProcessEnv; secret: string; record: string; cwd: string; pulls: string };

/** The PR as the fake gh's `gh api repos/…/pulls/42[/files]` shows it (test/fakes/fake-gh-pulls.mjs). */
async function writePull(path: string, head: string, patch: string): Promise<void> {
  const pull = { title: 'Add a greeting', head: { ref: 'feature/greeting', sha: head }, base: { ref: 'main', sha: BASE_SHA }, files: [{ filename: 'docs/greeting.md', status: 'added', patch }] };
  await writeFile(path, JSON.stringify({ pulls: { [`${PR_REPO}#${PR}`]: pull }, contents: { [PR_REPO]: { main: {} } } }));
}

function configYaml(secret: string, workspace: string): string {
  return `# Written by npm run demo -- --pr-review into a temporary IRIS_HOME, removed when the demo ends.
model:
  provider: openai            # the fake model speaks the OpenAI API; OPENAI_BASE_URL points at it
  default: ${MODEL_ID}
auxiliary:
  title_generation:           # session titles from a model of their own, so the reviews' script stays plain
    provider: openai
    model: ${TITLE_MODEL}
agent:
  workspace: ${JSON.stringify(workspace)}
platforms:
  webhook:
    enabled: true
    extra:
      host: 127.0.0.1
      port: 0
      routes:
        ${PR_ROUTE}:
          secret: ${JSON.stringify(secret)}
          events: [pull_request, issue_comment, pull_request_review_comment]
          filters:
            - field: action
              in: [opened, reopened, ready_for_review, synchronize, created]
          session: per_pr         # every event of one PR continues one session
          commands: true          # /review, /ask, /describe, @iris, /pause, /resume, /help
          coalesce_seconds: 1     # pushes wait 1 s (30 by default); a newer push supersedes
          prompt: "Review pull request #{number} in {repository.full_name}: {pull_request.title}"
          deliver: forge_comment
          deliver_extra:
            mode: update          # one living summary comment, edited by each review
`;
}

async function setUp(state: PrReviewDemoState, fakeGh: string, signal: AbortSignal): Promise<Setup> {
  const fake = await startFakeUpstream();
  state.fake = fake;
  signal.throwIfAborted();
  const answers = [reviewJson(FIRST_REVIEW, [PUNCTUATION, TYPO]), ASK_ANSWER, reviewJson(SECOND_REVIEW, [PUNCTUATION])];
  fake.script(MODEL_ID, ...answers.map((text) => ({ kind: 'text' as const, deltas: [text] })));
  fake.script(TITLE_MODEL, { kind: 'text', deltas: [`Review of ${PR_REPO}#${PR}`] });
  step('model', `scripted fake model at ${fake.url}/v1: three answers, written in scripts/demo/pr-review.ts`);

  const dir = await mkdtemp(join(tmpdir(), 'iris-demo-'));
  state.dir = dir;
  signal.throwIfAborted();
  const home = join(dir, 'home');
  const workspace = join(dir, 'workspace');
  const binDir = join(dir, 'bin');
  state.home = home;
  await mkdir(home, { mode: 0o700 });
  await mkdir(workspace);
  await mkdir(binDir);
  const secret = randomBytes(32).toString('hex');
  await writeFile(join(home, 'config.yaml'), configYaml(secret, workspace), { mode: 0o600 });
  step('home', `temporary IRIS_HOME ${home}; the route in config.yaml:`);
  const route = configYaml('<masked>', workspace).split('\n');
  block(route.slice(route.findIndex((line) => line.includes(`${PR_ROUTE}:`))).join('\n'));

  const record = join(dir, 'gh-record.jsonl');
  const commits = join(dir, 'commits.json');
  const pulls = join(dir, 'pulls.json');
  await writePull(pulls, FIRST_HEAD, GREETING_BEFORE);
  const gh = await installFakeGh(binDir, fakeGh);
  await writeFile(commits, JSON.stringify({ [BASE_SHA]: null, [FIRST_HEAD]: BASE_SHA, [MIDDLE_SHA]: FIRST_HEAD, [SECOND_HEAD]: MIDDLE_SHA }));
  step('gh', `fake GitHub CLI: keeps the PR's comments, compares over ${BASE_SHA.slice(0, 7)} ← ${FIRST_HEAD.slice(0, 7)} ← ${MIDDLE_SHA.slice(0, 7)} ← ${SECOND_HEAD.slice(0, 7)}`);
  blank();

  const env = cleanDemoEnv(binDir, {
    IRIS_HOME: home,
    OPENAI_API_KEY: DUMMY_API_KEY,
    OPENAI_BASE_URL: `${fake.url}/v1`,
    IRIS_GH_BIN: gh,
    FAKE_GH_RECORD: record,
    FAKE_GH_COMMITS: commits,
    FAKE_GH_PULLS: pulls,
  });
  return { env, secret, record, cwd: workspace, pulls };
}

function pullRequest(action: 'opened' | 'synchronize', head: string, before?: string): Record<string, unknown> {
  const repository = { full_name: PR_REPO, name: 'hello-world', owner: { login: 'octo-org' } };
  return {
    action,
    number: PR,
    ...(before ? { before, after: head } : {}),
    pull_request: {
      number: PR,
      title: 'Add a greeting',
      user: { login: 'octocat' },
      head: { ref: 'feature/greeting', sha: head },
      base: { ref: 'main', sha: BASE_SHA },
    },
    repository,
    sender: { login: 'octocat' },
  };
}

function issueComment(body: string): Record<string, unknown> {
  return {
    action: 'created',
    issue: { number: PR, title: 'Add a greeting', pull_request: { url: `https://api.github.com/repos/${PR_REPO}/pulls/${PR}` } },
    comment: { id: 1_001, body, user: { login: 'hubot' }, author_association: 'MEMBER' },
    repository: { full_name: PR_REPO },
    sender: { login: 'hubot' },
  };
}

type DeliveryRow = { id: number; delivery_id: string; state: string; reason: string | null; session: string | null };

async function deliveries(irisBin: string, env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<DeliveryRow[]> {
  const run = await runIris(irisBin, ['webhook', 'deliveries', '--json'], env, signal);
  if (run.code !== 0) throw new DemoFailure(`iris webhook deliveries --json exited with ${run.code}: ${run.stderr.trim()}`);
  return JSON.parse(run.stdout) as DeliveryRow[];
}

/** POSTs one signed event and waits until it has ended (delivered or skipped). */
async function send(irisBin: string, base: string, setup: Setup, event: string, payload: Record<string, unknown>, delivery: string, signal: AbortSignal): Promise<DeliveryRow> {
  const body = JSON.stringify(payload);
  const response = await fetch(`${base}/webhooks/${PR_ROUTE}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-GitHub-Event': event,
      'X-GitHub-Delivery': delivery,
      'X-Hub-Signature-256': `sha256=${createHmac('sha256', setup.secret).update(body).digest('hex')}`,
    },
    body,
    signal,
  });
  const answer = await response.text();
  if (response.status !== 202) throw new DemoFailure(`the gateway answered ${response.status} ${answer} to ${event}, not 202`);
  const started = Date.now();
  for (;;) {
    const row = (await deliveries(irisBin, setup.env, signal)).find((r) => r.delivery_id === delivery);
    if (row?.state === 'delivered' || row?.state === 'skipped') {
      note(`→ 202; event #${row.id} ${row.state} after ${((Date.now() - started) / 1000).toFixed(1)} s (session ${row.session ?? 'none'})`);
      return row;
    }
    if (row?.state === 'failed') throw new DemoFailure(`event #${row.id} (${event}) failed: ${row.reason ?? 'no reason recorded'}`);
    if (Date.now() - started > EVENT_TIMEOUT_MS) throw new DemoFailure(`event ${delivery} (${event}) did not end within ${EVENT_TIMEOUT_MS / 1000} s (last state: ${row?.state ?? 'not listed'})`);
    await sleep(POLL_MS, undefined, { signal });
  }
}

type GhRecord = { argv: string[]; body: string | null };

async function readJsonLines<T>(path: string): Promise<T[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);
}

const oneLine = (text: string) => text.replace(/\n+/g, ' ⏎ ');

async function show(irisBin: string, setup: Setup, fake: FakeUpstream, signal: AbortSignal): Promise<void> {
  const calls = await readJsonLines<GhRecord>(setup.record);
  const writes = calls.filter((call) => call.argv[0] === 'api' && call.argv.includes('--method'));
  step('gh api', `${calls.length} calls to the fake gh; the ${writes.length} that wrote a comment:`);
  for (const call of writes) {
    const method = call.argv[call.argv.indexOf('--method') + 1] ?? '?';
    const endpoint = call.argv.find((arg) => arg.startsWith('repos/')) ?? '?';
    const body = (JSON.parse(call.body ?? '{}') as { body?: string }).body ?? '';
    note(`  ${method.padEnd(5)} ${endpoint}   ${oneLine(body)}`);
  }
  const comments = await readJsonLines<{ id: number; body: string }>(`${setup.record}.comments.jsonl`);
  const summaries = comments.filter((comment) => comment.body.includes(`<!-- iris:${PR_ROUTE}:`));
  const summary = summaries[0];
  const reply = comments.find((comment) => comment.body.includes('<!-- iris-delivery:'));
  if (summaries.length !== 1 || !summary || !reply) throw new DemoFailure(`expected one summary comment and one reply on the PR, found: ${JSON.stringify(comments)}`);
  const posts = writes.filter((call) => call.argv.includes('POST') && call.body?.includes(`<!-- iris:${PR_ROUTE}:`)).length;
  const edits = writes.filter((call) => call.argv.includes('PATCH') && call.argv.includes(`repos/${PR_REPO}/issues/comments/${summary.id}`)).length;
  if (posts !== 1 || edits !== 1) throw new DemoFailure(`the summary comment was posted ${posts} times and edited ${edits} times, not once each`);
  blank();
  step('comments', `the PR now has ${comments.length} comments from Iris:`);
  note(`summary comment ${summary.id}: posted once, edited once (by the second review):`);
  block(summary.body);
  note(`reply comment ${reply.id}: the answer to /ask:`);
  block(reply.body);

  const compare = calls.find((call) => call.argv[1]?.startsWith(`repos/${PR_REPO}/compare/`));
  const prompts = fake.requests
    .map((request) => request.body as { model?: string; messages?: Array<{ role: string; content: unknown }> } | undefined)
    .filter((body) => body?.model === MODEL_ID);
  const last = prompts[2]?.messages?.filter((m) => m.role === 'user').at(-1)?.content;
  if (!compare || typeof last !== 'string') throw new DemoFailure('the second review asked gh for no compare range, or its prompt is missing');
  blank();
  step('compare', `before the second review Iris asked: gh ${compare.argv.join(' ')}`);
  note(`the second review's prompt (request ${prompts.length} of ${prompts.length} to the model, with the whole session before it):`);
  block(last);

  const reviews = JSON.parse(await readFile(`${setup.record}.reviews.json`, 'utf8').catch(() => '{"comments": []}')) as { comments: Array<{ id: number; path: string; line: number; body: string; in_reply_to_id: number | null }> };
  blank();
  step('review', `the first review's findings, on their lines (one GitHub review, event COMMENT), and the replies:`);
  for (const comment of reviews.comments) {
    note(`  comment ${comment.id} on ${comment.path}:${comment.line}${comment.in_reply_to_id ? ` (a reply to ${comment.in_reply_to_id})` : ''}:`);
    block(comment.body);
  }
  const shown = await runIris(irisBin, ['webhook', 'deliveries', '--show', '3'], setup.env, signal);
  if (shown.code !== 0) throw new DemoFailure(`iris webhook deliveries --show 3 exited with ${shown.code}: ${shown.stderr.trim()}`);
  blank();
  step('findings', 'iris webhook deliveries --show 3 (the push): the repeat skipped, the fixed one outdated:');
  block(shown.stdout.slice(shown.stdout.indexOf('findings')));

  const listed = await runIris(irisBin, ['webhook', 'deliveries'], setup.env, signal);
  if (listed.code !== 0) throw new DemoFailure(`iris webhook deliveries exited with ${listed.code}: ${listed.stderr.trim()}`);
  blank();
  step('events', 'iris webhook deliveries:');
  block(listed.stdout);
}

export async function prReviewDemo(options: { irisBin: string; fakeGh: string; state: PrReviewDemoState; signal: AbortSignal }): Promise<void> {
  const { irisBin, state, signal } = options;
  process.stdout.write('Iris demo: a pull request reviewed in one session (docs/pr-review.md), end to end, on this machine only.\n');
  process.stdout.write('No API key, token or network: the model and gh are fakes; the gateway is the real one.\n\n');
  const setup = await setUp(state, options.fakeGh, signal);
  signal.throwIfAborted();

  step('gateway', 'starting: node bin/iris gateway run');
  const gateway = spawnGateway({
    irisBin,
    env: setup.env,
    cwd: setup.cwd,
    onLine: (line, stream) => {
      // Its start-up lines only: the rest would drown the walk-through (gateway.log has it all).
      if (stream === 'err' || /^(gateway listening| {2}route )/.test(line)) block(line, stream === 'out' ? 'gateway |' : 'gateway !');
    },
  });
  state.gateway = gateway;
  const port = await waitForListening(gateway, START_TIMEOUT_MS, signal);
  const base = `http://127.0.0.1:${port}`;
  blank();

  step('opened', `pull_request "opened", ${PR_REPO}#${PR} at ${FIRST_HEAD.slice(0, 7)}`);
  await send(irisBin, base, setup, 'pull_request', pullRequest('opened', FIRST_HEAD), 'demo-pr-1', signal);
  step('/ask', `issue_comment "/ask ${ASK_QUESTION}" from @hubot (author_association MEMBER)`);
  await send(irisBin, base, setup, 'issue_comment', issueComment(`/ask ${ASK_QUESTION}`), 'demo-pr-2', signal);
  await writePull(setup.pulls, SECOND_HEAD, GREETING_AFTER);
  step('push', `pull_request "synchronize": two new commits that fix the typo, head ${SECOND_HEAD.slice(0, 7)} (waits out the 1 s window)`);
  await send(irisBin, base, setup, 'pull_request', pullRequest('synchronize', SECOND_HEAD, FIRST_HEAD), 'demo-pr-3', signal);
  blank();

  await show(irisBin, setup, state.fake!, signal);
  blank();
  step('stop', `SIGTERM to the gateway (pid ${gateway.pid})`);
  const { exit, killed } = await stopGateway(gateway, STOP_TIMEOUT_MS);
  if (killed) throw new DemoFailure(`the gateway did not exit within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM and was killed`);
  if (exit !== 0) throw new DemoFailure(`the gateway exited with ${exit} after SIGTERM, not 0`);
  note(`the gateway exited with code ${exit}`);
}
