// Accepted events become agent runs and deliveries: `iris gateway run` as a subprocess, the fake
// model upstream in this process, and the fake gh (test/fakes/fake-gh.mjs) on PATH recording
// every comment. Crash recovery: kill -9 in the middle of a run, in the middle of a delivery, and
// right after the 202.
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { postEvent, startGatewayProcess, waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, REPO_ROOT, removeDir, runIris } from '../helpers/iris.js';
import { SESSION_ID_PATTERN } from '../../src/store/ids.js';

let fake: FakeUpstream;
let dir: string;
let home: string;
let ghRecord: string;
let binDir: string;
const running: GatewayProcess[] = [];

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  dir = await makeTempDir();
  home = join(dir, 'home');
  binDir = join(dir, 'bin');
  ghRecord = join(dir, 'gh.jsonl');
  await mkdir(home, { mode: 0o700 });
  await mkdir(binDir);
  await symlink(join(REPO_ROOT, 'test', 'fakes', 'fake-gh.mjs'), join(binDir, 'gh'));
});
afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.stop('SIGKILL');
  await removeDir(dir);
});

const PR = {
  action: 'opened',
  number: 42,
  pull_request: { title: 'Fix the parser', user: { login: 'mona' }, head: { ref: 'fix' }, base: { ref: 'main' } },
  repository: { full_name: 'octo/hello' },
};

type Row = { id: number; state: string; reason: string | null; session: string | null; run_attempts: number; delivery_attempts: number; delivery_id: string };

async function configure(route: string, extra = ''): Promise<void> {
  await writeFile(
    join(home, 'config.yaml'),
    `model:\n  provider: openai\n  default: main-m\n${extra}platforms:\n  webhook:\n    enabled: true\n    extra:\n      host: 127.0.0.1\n      port: 0\n      routes:\n        github-pr:\n          secret: pr-secret-0123456789abcdef\n${route}`,
    { mode: 0o600 },
  );
}

async function start(env: Record<string, string> = {}): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess(home, {
    OPENAI_API_KEY: 'test-key-0123456789',
    OPENAI_BASE_URL: `${fake.url}/v1`,
    PATH: `${binDir}:${process.env.PATH ?? ''}`,
    FAKE_GH_RECORD: ghRecord,
    ...env,
  });
  running.push(gateway);
  return gateway;
}

async function rows(): Promise<Row[]> {
  const result = await runIris(['webhook', 'deliveries', '--json'], { home });
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Row[];
}

const stateIs = (state: string) => async () => {
  const [row] = await rows();
  return row?.state === state ? row : undefined;
};

/** Every `gh pr comment` run, posted or not (the fake records each before it answers). */
async function comments(): Promise<Array<{ argv: string[]; body: string | null }>> {
  const text = await readFile(ghRecord, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { argv: string[]; body: string | null })
    .filter((call) => call.argv[0] === 'pr' && call.argv[1] === 'comment');
}

/** The comments the fake code host holds: those whose gh run posted. */
async function posted(): Promise<Array<{ repo: string; number: number; body: string }>> {
  const text = await readFile(`${ghRecord}.comments.jsonl`, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { repo: string; number: number; body: string });
}

/** `gh api` runs: the marker checks. */
async function apiCalls(): Promise<string[][]> {
  const text = await readFile(ghRecord, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { argv: string[] }).argv)
    .filter((argv) => argv[0] === 'api');
}

const marked = (body: string, id = 1) => `${body}\n\n<!-- iris-delivery:${id} -->`;

const FORGE_ROUTE = `          events: [pull_request]
          deliver: forge_comment
          deliver_extra:
            repo: "{repository.full_name}"
            pr_number: "{number}"
`;

describe('a pull request event becomes a review comment', () => {
  it('renders the prompt, runs with the webhook tools under unattended approval and the first installed skill, and posts the answer with gh', async () => {
    await mkdir(join(home, 'skills', 'review'), { recursive: true });
    await writeFile(join(home, 'skills', 'review', 'SKILL.md'), '---\nname: review\ndescription: PR reviews\n---\nCheck the tests first.\n');
    await configure(
      `${FORGE_ROUTE}          prompt: "Review PR #{number} in {repository.full_name}: {pull_request.title} by {pull_request.user.login} ({pull_request.head.ref} → {pull_request.base.ref}) {not.there}"\n          skills: [not-installed, review, other]\n`,
    );
    fake.script(
      'main-m',
      { kind: 'tool_calls', calls: [{ id: 'c1', name: 'run_command', arguments: { command: 'gh pr diff 42 --repo octo/hello' } }] },
      { kind: 'text', deltas: ['Looks good ', 'to me.'] },
      { kind: 'text', deltas: ['PR 42 review'] },
    );
    const gateway = await start();
    const answer = await postEvent(gateway.url, 'github-pr', PR, { secret: 'pr-secret-0123456789abcdef', delivery: 'gh-1' });
    expect(answer).toMatchObject({ status: 202, json: { status: 'accepted', route: 'github-pr', event: 'pull_request', delivery_id: 'gh-1' } });

    const row = await waitFor(stateIs('delivered'), 15_000, 'the delivery');
    expect(row).toMatchObject({ delivery_id: 'gh-1', run_attempts: 1, delivery_attempts: 1, reason: null });
    expect(row.session).toMatch(SESSION_ID_PATTERN);
    expect(await comments()).toEqual([expect.objectContaining({ argv: ['pr', 'comment', '42', '--repo', 'octo/hello', '--body-file', '-'], body: marked('Looks good to me.') })]);

    const first = fake.requests[0]!.body as { messages: Array<{ role: string; content: string }>; tools: Array<{ function: { name: string } }> };
    const system = first.messages.find((m) => m.role === 'system')!.content;
    expect(first.messages.find((m) => m.role === 'user')!.content).toBe('Review PR #42 in octo/hello: Fix the parser by mona (fix → main) {not.there}');
    expect(system).toContain('untrusted data');
    expect(system).toContain('Follow the skill "review":\n\nCheck the tests first.');
    expect(first.tools.map((t) => t.function.name).sort()).toEqual(['kanban_add', 'kanban_list', 'kanban_update', 'list_files', 'list_skills', 'load_skill', 'read_file', 'run_command', 'search_files', 'vision_analyze', 'web_extract']);
    // approval_mode manual with no one to ask: the command was refused, and the model was told.
    const toolMessage = (fake.requests[1]!.body as { messages: Array<{ role: string; content: string }> }).messages.find((m) => m.role === 'tool');
    expect(toolMessage?.content).toMatch(/^command not run: approval_mode manual: no one to ask in an unattended run/);

    const log = await readFile(join(home, 'logs', 'gateway.log'), 'utf8');
    expect(log).toContain('skill \\"not-installed\\" is not installed; trying the next one');
    expect(log).toContain('webhook answer posted as a PR comment');

    // The route's skill in the prompt is a load: the curator counts it.
    fake.script('main-m', { kind: 'text', deltas: ['{"proposals":[]}'] });
    const review = await runIris(['curator', 'review', '--json'], { home, env: { OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` } });
    expect(review.code).toBe(0);
    expect((JSON.parse(review.stdout) as { skills: Array<{ name: string; loads: number }> }).skills).toEqual([expect.objectContaining({ name: 'review', loads: 1 })]);
  });

  it('without a prompt the model gets the event, the route and the payload as JSON; deliver log writes the answer to gateway.log', async () => {
    await configure('          events: [pull_request]\n');
    fake.script('main-m', { kind: 'text', deltas: ['Logged answer.'] }, { kind: 'text', deltas: ['Title'] });
    const gateway = await start();
    expect((await postEvent(gateway.url, 'github-pr', PR, { secret: 'pr-secret-0123456789abcdef' })).status).toBe(202);
    await waitFor(stateIs('delivered'), 15_000, 'the delivery');
    const user = (fake.requests[0]!.body as { messages: Array<{ role: string; content: string }> }).messages.find((m) => m.role === 'user')!.content;
    expect(user).toBe(`Webhook event "pull_request" arrived on route "github-pr". Its payload:\n\n${JSON.stringify(PR, null, 2)}`);
    const answers = (await readFile(join(home, 'logs', 'gateway.log'), 'utf8'))
      .split('\n')
      .filter((line) => line.includes('"msg":"webhook answer"'))
      .map((line) => JSON.parse(line) as { answer: string; route: string; deliver: string });
    expect(answers).toEqual([expect.objectContaining({ answer: 'Logged answer.', route: 'github-pr', deliver: 'log' })]);
  });

  it("a route's toolsets narrow what its runs get", async () => {
    await configure('          events: [pull_request]\n          toolsets: [files-readonly]\n');
    fake.script('main-m', { kind: 'text', deltas: ['Read only.'] }, { kind: 'text', deltas: ['Title'] });
    const gateway = await start();
    expect((await postEvent(gateway.url, 'github-pr', PR, { secret: 'pr-secret-0123456789abcdef' })).status).toBe(202);
    await waitFor(stateIs('delivered'), 15_000, 'the delivery');
    const tools = (fake.requests[0]!.body as { tools: Array<{ function: { name: string } }> }).tools.map((t) => t.function.name);
    expect(tools).toEqual(['read_file', 'list_files', 'search_files']);
  });

  it('delivers SKIP as it is, and an empty answer too', async () => {
    await configure(FORGE_ROUTE);
    fake.script('main-m', { kind: 'text', deltas: ['SKIP'] }, { kind: 'text', deltas: [''] });
    const gateway = await start();
    expect((await postEvent(gateway.url, 'github-pr', PR, { secret: 'pr-secret-0123456789abcdef' })).status).toBe(202);
    await waitFor(stateIs('delivered'), 15_000, 'the first delivery');
    expect((await postEvent(gateway.url, 'github-pr', PR, { secret: 'pr-secret-0123456789abcdef' })).status).toBe(202);
    await waitFor(async () => ((await rows()).every((r) => r.state === 'delivered') && (await rows()).length === 2 ? true : undefined), 15_000, 'both deliveries');
    expect((await comments()).map((c) => c.body)).toEqual([marked('SKIP', 1), marked('_(The agent produced no output.)_', 2)]);
  });
});

describe('delivery failures are recorded, never sent to the code host', () => {
  it('gh not signed in: failed at once with the fix in the reason and a log line', async () => {
    await configure(FORGE_ROUTE);
    fake.script('main-m', { kind: 'text', deltas: ['Review.'] });
    const gateway = await start({ FAKE_GH_MODE: 'unauthenticated' });
    await postEvent(gateway.url, 'github-pr', PR, { secret: 'pr-secret-0123456789abcdef' });
    const row = await waitFor(stateIs('failed'), 15_000, 'the failed delivery');
    expect(row.delivery_attempts).toBe(1);
    expect(row.reason).toContain('gh auth login');
    expect(await readFile(join(home, 'logs', 'gateway.log'), 'utf8')).toContain('webhook delivery failed');
  });

  it('gh missing: failed with a reason naming IRIS_GH_BIN', async () => {
    await configure(FORGE_ROUTE);
    fake.script('main-m', { kind: 'text', deltas: ['Review.'] });
    const gateway = await start({ IRIS_GH_BIN: join(dir, 'no-such-gh') });
    await postEvent(gateway.url, 'github-pr', PR, { secret: 'pr-secret-0123456789abcdef' });
    const row = await waitFor(stateIs('failed'), 15_000, 'the failed delivery');
    expect(row.reason).toContain('IRIS_GH_BIN');
    expect(await comments()).toEqual([]);
  });

  it('a payload whose target renders invalid is failed before any model call, with the reason', async () => {
    await configure(FORGE_ROUTE);
    fake.script('main-m', { kind: 'text', deltas: ['Review.'] });
    const gateway = await start();
    await postEvent(gateway.url, 'github-pr', { ...PR, number: '42; rm -rf ~' }, { secret: 'pr-secret-0123456789abcdef', delivery: 'hostile-1' });
    const row = await waitFor(stateIs('failed'), 15_000, 'the refused event');
    expect(row).toMatchObject({ delivery_id: 'hostile-1', run_attempts: 1, delivery_attempts: 0, session: null });
    expect(row.reason).toBe('not run: deliver_extra.pr_number must be a positive integer, got "42; rm -rf ~"');
    await postEvent(gateway.url, 'github-pr', { ...PR, repository: { full_name: '../../etc' } }, { secret: 'pr-secret-0123456789abcdef', delivery: 'hostile-2' });
    const second = await waitFor(async () => (await rows()).find((r) => r.delivery_id === 'hostile-2' && r.state === 'failed'), 15_000, 'the second refused event');
    expect(second.reason).toBe('not run: deliver_extra.repo must be owner/name, got "../../etc"');
    expect(fake.requests).toEqual([]);
    expect(await comments()).toEqual([]);
  });

  it('a transient gh failure is retried with backoff and then delivered', async () => {
    await configure(FORGE_ROUTE);
    fake.script('main-m', { kind: 'text', deltas: ['Review.'] });
    const gateway = await start({ FAKE_GH_MODE: 'fail-times:1' });
    await postEvent(gateway.url, 'github-pr', PR, { secret: 'pr-secret-0123456789abcdef' });
    const row = await waitFor(stateIs('delivered'), 15_000, 'the delivery');
    expect(row.delivery_attempts).toBe(2);
    expect((await comments()).map((c) => c.body)).toEqual([marked('Review.'), marked('Review.')]); // the fake records the failed try too
  });
});

describe('nothing accepted is lost', () => {
  it('kill -9 during a run: the next start runs the event again and delivers exactly once', async () => {
    await configure(FORGE_ROUTE);
    fake.script('main-m', { kind: 'hang', deltas: ['Thinking'] });
    let gateway = await start();
    await postEvent(gateway.url, 'github-pr', PR, { secret: 'pr-secret-0123456789abcdef', delivery: 'crash-1' });
    await waitFor(stateIs('running'), 10_000, 'the run to start');
    await waitFor(() => (fake.requests.length > 0 ? true : undefined), 10_000, 'the model call');
    await gateway.stop('SIGKILL');
    fake.script('main-m', { kind: 'text', deltas: ['Recovered review.'] }, { kind: 'text', deltas: ['Title'] });
    gateway = await start();
    const started = gateway;
    await waitFor(() => (started.output().includes('1 interrupted run put back in the inbox') ? true : undefined), 5_000, 'the recovery line');
    const row = await waitFor(stateIs('delivered'), 15_000, 'the delivery after the restart');
    expect(row).toMatchObject({ delivery_id: 'crash-1', run_attempts: 2, delivery_attempts: 1 });
    expect((await comments()).map((c) => c.body)).toEqual([marked('Recovered review.')]);
  });

  it('kill -9 right after the 202: the event survives and runs at the next start', async () => {
    await configure(FORGE_ROUTE);
    fake.script('main-m', { kind: 'hang', deltas: [] });
    let gateway = await start();
    const answer = await postEvent(gateway.url, 'github-pr', PR, { secret: 'pr-secret-0123456789abcdef', delivery: 'fast-kill' });
    gateway.child.kill('SIGKILL');
    expect(answer.status).toBe(202);
    await gateway.exited;
    fake.script('main-m', { kind: 'text', deltas: ['After the kill.'] }, { kind: 'text', deltas: ['Title'] });
    gateway = await start();
    await waitFor(stateIs('delivered'), 15_000, 'the delivery after the restart');
    expect((await comments()).map((c) => c.body)).toEqual([marked('After the kill.')]);
  });

  it('kill -9 during the delivery: the next start delivers the stored answer without running the agent again', async () => {
    await configure(FORGE_ROUTE);
    fake.script('main-m', { kind: 'text', deltas: ['Stored answer.'] }, { kind: 'text', deltas: ['Title'] });
    let gateway = await start({ FAKE_GH_MODE: 'hang', FAKE_GH_HANG_MS: '2000' });
    await postEvent(gateway.url, 'github-pr', PR, { secret: 'pr-secret-0123456789abcdef' });
    await waitFor(async () => ((await comments()).length === 1 ? true : undefined), 15_000, 'gh to be called');
    expect((await rows())[0]?.state).toBe('delivering');
    await gateway.stop('SIGKILL');
    const modelCalls = fake.requests.length;
    gateway = await start();
    await waitFor(stateIs('delivered'), 15_000, 'the delivery after the restart');
    expect(fake.requests.length).toBe(modelCalls);
    // The first gh was left hanging by the kill; the restart stops it before it can post, finds
    // no marked comment on the PR, and posts once.
    expect((await comments()).map((c) => c.body)).toEqual([marked('Stored answer.'), marked('Stored answer.')]);
    expect((await posted()).map((c) => c.body)).toEqual([marked('Stored answer.')]);
    // The bot's login first: a marker counts only on its own comments.
    expect(await apiCalls()).toEqual([
      ['api', 'user', '--jq', '.login'],
      ['api', '--paginate', 'repos/octo/hello/issues/42/comments?per_page=100', '--jq', '.[] | select(.body | contains("<!-- iris-delivery:1 -->")) | {id, html_url, login: .user.login}'],
    ]);
    expect(await readFile(join(home, 'logs', 'gateway.log'), 'utf8')).toContain('a gh left running by the last gateway was stopped');
  });

  it('kill -9 after gh posted but before "delivered" was recorded: the restart finds the marker and posts nothing', async () => {
    await configure(FORGE_ROUTE);
    fake.script('main-m', { kind: 'text', deltas: ['Posted once.'] }, { kind: 'text', deltas: ['Title'] });
    let gateway = await start({ FAKE_GH_MODE: 'posted-hang', FAKE_GH_HANG_MS: '5000' });
    await postEvent(gateway.url, 'github-pr', PR, { secret: 'pr-secret-0123456789abcdef' });
    await waitFor(async () => ((await posted()).length === 1 ? true : undefined), 15_000, 'gh to post');
    expect((await rows())[0]?.state).toBe('delivering');
    await gateway.stop('SIGKILL');
    gateway = await start();
    const row = await waitFor(stateIs('delivered'), 15_000, 'the delivery after the restart');
    expect(row.delivery_attempts).toBe(1);
    expect((await comments()).map((c) => c.body)).toEqual([marked('Posted once.')]);
    expect((await posted()).map((c) => c.body)).toEqual([marked('Posted once.')]);
    expect(await readFile(join(home, 'logs', 'gateway.log'), 'utf8')).toContain('webhook answer was posted before the restart; not posted again');
  });

  it('SIGTERM during a run: exits cleanly, the event goes back to the inbox uncounted, and runs at the next start', async () => {
    await configure(FORGE_ROUTE);
    fake.script('main-m', { kind: 'hang', deltas: ['Half'] });
    let gateway = await start();
    await postEvent(gateway.url, 'github-pr', PR, { secret: 'pr-secret-0123456789abcdef' });
    await waitFor(() => (fake.requests.length > 0 ? true : undefined), 10_000, 'the model call');
    expect(await gateway.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(gateway.output()).toContain('gateway stopped');
    expect((await rows())[0]).toMatchObject({ state: 'accepted', run_attempts: 0 });
    fake.script('main-m', { kind: 'text', deltas: ['After the restart.'] }, { kind: 'text', deltas: ['Title'] });
    gateway = await start();
    await waitFor(stateIs('delivered'), 15_000, 'the delivery after the restart');
    expect((await comments()).map((c) => c.body)).toEqual([marked('After the restart.')]);
  });
});

describe('logging', () => {
  it('ignored events are logged at debug only', async () => {
    await configure('          events: [pull_request]\n');
    let gateway = await start();
    await postEvent(gateway.url, 'github-pr', { zen: 'hi' }, { secret: 'pr-secret-0123456789abcdef', event: 'ping' });
    await gateway.stop();
    expect(await readFile(join(home, 'logs', 'gateway.log'), 'utf8')).not.toContain('ignored');
    gateway = await start({ IRIS_LOG_LEVEL: 'debug' });
    await postEvent(gateway.url, 'github-pr', { zen: 'hi' }, { secret: 'pr-secret-0123456789abcdef', event: 'ping' });
    await gateway.stop();
    const ignored = (await readFile(join(home, 'logs', 'gateway.log'), 'utf8')).split('\n').filter((line) => line.includes('ignored'));
    expect(ignored.map((line) => (JSON.parse(line) as { level: string; event: string }).level)).toEqual(['debug']);
  });
});
