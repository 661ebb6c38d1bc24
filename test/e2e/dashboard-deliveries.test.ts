// The Deliveries API (issue 39) against the real `iris dashboard`: the list and the detail in the
// shapes `iris webhook deliveries --json` prints, with the prompt rendered again and the answer
// redacted; the refusals (401, foreign Host, bad query and body, 404, 409) with audit lines; and,
// with a running gateway, the fake model and the fake gh, Redeliver (a second PR comment and no
// new model request) and Re-run (a new event and a new model request).
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { startDashboardProcess, type DashboardProcess } from '../helpers/dashboard.js';
import { send as sendRequest, startGatewayProcess, waitFor, type GatewayProcess, type HttpAnswer } from '../helpers/gateway.js';
import { makeTempDir, REPO_ROOT, removeDir, runIris } from '../helpers/iris.js';

const T0 = Date.parse('2026-11-20T10:00:00.000Z');
const SNAPSHOT = JSON.stringify({ name: 'ci', source: 'subscription', prompt: 'Build {ref} for {pusher.name}', skills: [], deliver: 'log', deliver_extra: {} });

let fake: FakeUpstream;
let dir: string;
let home: string;
let dash: DashboardProcess | undefined;
let gateway: GatewayProcess | undefined;

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  dir = await makeTempDir('iris-dashboard-deliveries-');
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
  await writeFile(
    join(home, 'config.yaml'),
    'model:\n  provider: openai\n  default: main-m\nplatforms:\n  webhook:\n    enabled: true\n    extra:\n      host: 127.0.0.1\n      port: 0\n',
    { mode: 0o600 },
  );
});
afterEach(async () => {
  await dash?.stop();
  dash = undefined;
  await gateway?.stop('SIGKILL');
  gateway = undefined;
  await removeDir(dir);
});

function send(path: string, options: { method?: string; body?: unknown; raw?: string; token?: string | null; host?: string } = {}): Promise<HttpAnswer> {
  const port = dash!.port;
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const token = options.token === undefined ? dash!.token : options.token;
  return sendRequest(`http://127.0.0.1:${port}`, {
    path,
    method: options.method ?? 'GET',
    headers: {
      host: options.host ?? `127.0.0.1:${port}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token === null ? {} : { 'x-service-session-token': token }),
    },
    ...(body === undefined ? {} : { body }),
  });
}
const answer = async (path: string, options: Parameters<typeof send>[1] = {}) => {
  const got = await send(path, options);
  return [got.status, got.json];
};

type AuditRow = [action: string, target: string, ok: boolean, reason: string | undefined];
async function audit(): Promise<AuditRow[]> {
  const text = await readFile(join(home, 'logs', 'audit.log'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const row = JSON.parse(line) as { action: string; target: string; ok: boolean; reason?: string };
      return [row.action, row.target, row.ok, row.reason];
    });
}

/** Five events on the log route `ci`, one per state that matters here, ids 1 to 5. */
async function seed(): Promise<void> {
  let clock = T0;
  const store = await openSqliteStore(join(home, 'state.db'), { now: () => clock });
  try {
    const accept = async (deliveryId: string, payload: object) => {
      const outcome = await store.webhooks.accept({ route: 'ci', deliveryId, deduplicate: true, event: 'push', payload: JSON.stringify(payload), routeSnapshot: SNAPSHOT, receivedAt: clock }, 0);
      if (outcome.status !== 'accepted') throw new Error('not accepted');
      clock += 1_000;
      return outcome.id;
    };
    const delivered = await accept('d-delivered', { ref: 'main', pusher: { name: 'ada' } });
    await store.webhooks.claimNextRun(3);
    await store.webhooks.setSession(delivered, 's_ci000001');
    // A key the model echoed: shown redacted, as in the logs.
    await store.webhooks.finishRun(delivered, 'Built main.\nThe key was sk-live0123456789abcdef.');
    clock += 500;
    await store.webhooks.markDelivered(delivered, 1);
    const failed = await accept('d-failed', { ref: 'dev', pusher: { name: 'bob' } });
    await store.webhooks.claimNextRun(3);
    await store.webhooks.fail(failed, 'the model is away');
    await accept('d-waiting', { ref: 'wip', pusher: { name: 'cy' } });
  } finally {
    await store.close();
  }
}

describe('the deliveries API on a seeded inbox', () => {
  beforeEach(async () => {
    await seed();
    dash = await startDashboardProcess(home);
  });

  it('needs the token and the right Host on every endpoint, and changes nothing without them', async () => {
    for (const [method, path] of [
      ['GET', '/api/deliveries'],
      ['GET', '/api/deliveries/1'],
      ['POST', '/api/deliveries/1/redeliver'],
      ['POST', '/api/deliveries/2/rerun'],
    ] as const) {
      expect([method, path, ...(await answer(path, { method, token: null }))]).toEqual([method, path, 401, { error: 'Unauthorized' }]);
      expect([method, path, ...(await answer(path, { method, host: 'evil.example:80' }))]).toEqual([method, path, 400, { error: 'Invalid Host header' }]);
    }
    expect(await audit()).toEqual([]);
    const rows = JSON.parse((await runIris(['webhook', 'deliveries', '--json'], { home })).stdout) as Array<{ state: string }>;
    expect(rows.map((r) => r.state)).toEqual(['accepted', 'failed', 'delivered']);
  });

  it('lists the rows iris webhook deliveries --json prints, newest first, filtered by route and state', async () => {
    const [status, body] = await answer('/api/deliveries');
    expect(status).toBe(200);
    const cli = JSON.parse((await runIris(['webhook', 'deliveries', '--json'], { home })).stdout) as Array<Record<string, unknown>>;
    const rows = (body as { deliveries: Array<Record<string, unknown>> }).deliveries;
    // The CLI's rows plus when each last changed; the answer's first line is redacted in both places.
    // The CLI and the page print the same rows (redacted alike).
    expect(rows).toEqual(cli);
    expect(rows.map((r) => [r.id, r.state, r.delivery_id, r.received_at, r.updated_at, r.answer_first_line, r.reason])).toEqual([
      [3, 'accepted', 'd-waiting', '2026-11-20T10:00:02.500Z', '2026-11-20T10:00:02.500Z', null, null],
      [2, 'failed', 'd-failed', '2026-11-20T10:00:01.500Z', '2026-11-20T10:00:02.500Z', null, 'the model is away'],
      [1, 'delivered', 'd-delivered', '2026-11-20T10:00:00.000Z', '2026-11-20T10:00:01.500Z', 'Built main.', null],
    ]);
    expect(await answer('/api/deliveries?state=failed')).toEqual([200, { deliveries: [expect.objectContaining({ id: 2, state: 'failed' })] }]);
    expect(await answer('/api/deliveries?route=ci&limit=1')).toEqual([200, { deliveries: [expect.objectContaining({ id: 3 })] }]);
    expect(await answer('/api/deliveries?route=other')).toEqual([200, { deliveries: [] }]);
  });

  it('answers 400 on a bad route, state, limit or parameter', async () => {
    expect(await answer('/api/deliveries?route=..%2Fetc')).toEqual([
      400,
      { error: 'route name "../etc" must match ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64) and cannot contain ".."' },
    ]);
    expect(await answer('/api/deliveries?state=ignored')).toEqual([400, { error: 'state must be one of accepted, running, done, delivering, delivered, failed, skipped (got "ignored")' }]);
    expect(await answer('/api/deliveries?state=duplicate')).toEqual([
      400,
      { error: 'state "duplicate": duplicates are not stored as events: the listener answers them 200 {"status":"duplicate"} and logs "webhook duplicate delivery" in gateway.log (see the Logs page)' },
    ]);
    expect(await answer('/api/deliveries?limit=0')).toEqual([400, { error: 'limit must be a whole number from 1 to 500 (got "0")' }]);
    expect(await answer('/api/deliveries?sort=id')).toEqual([400, { error: 'unknown parameter "sort" (known: route, state, limit)' }]);
  });

  it('shows one event: the CLI detail, the rendered prompt and the redacted answer; 404 for an unknown id', async () => {
    const [status, body] = await answer('/api/deliveries/1');
    expect(status).toBe(200);
    expect(body).toEqual({
      id: 1,
      received_at: '2026-11-20T10:00:00.000Z',
      updated_at: '2026-11-20T10:00:01.500Z',
      route: 'ci',
      event: 'push',
      delivery_id: 'd-delivered',
      state: 'delivered',
      session: 's_ci000001',
      run_attempts: 1,
      delivery_attempts: 1,
      reason: null,
      deliver: 'log',
      outcome: 'delivered: written to gateway.log',
      answer: 'Built main.\nThe key was sk-[redacted].',
      prompt: 'Build main for ada',
    });
    const cli = JSON.parse((await runIris(['webhook', 'deliveries', '--show', '1', '--json'], { home })).stdout) as Record<string, unknown>;
    // The CLI prints the same story, prompt and redaction included.
    expect(body).toEqual(cli);
    for (const path of ['/api/deliveries/99', '/api/deliveries/abc', '/api/deliveries/0']) {
      expect(await answer(path)).toEqual([404, { error: `no webhook event #${path.split('/').pop()!} (the list shows the events there are)` }]);
    }
  });

  it('refuses Redeliver and Re-run with 404, 409 and 400 as they should, each refusal audited', async () => {
    expect(await answer('/api/deliveries/99/redeliver', { method: 'POST' })).toEqual([404, { error: 'no webhook event #99 (the list shows the events there are)' }]);
    expect(await answer('/api/deliveries/99/rerun', { method: 'POST' })).toEqual([404, { error: 'no webhook event #99 (the list shows the events there are)' }]);
    expect(await answer('/api/deliveries/2/redeliver', { method: 'POST' })).toEqual([409, { error: 'event #2 has no stored answer to deliver (it is failed); Re-run runs it again' }]);
    expect(await answer('/api/deliveries/3/redeliver', { method: 'POST' })).toEqual([409, { error: 'event #3 is still accepted: its delivery can be asked for once it has finished' }]);
    expect(await answer('/api/deliveries/3/rerun', { method: 'POST' })).toEqual([409, { error: 'event #3 is still accepted: a re-run can be asked for once it has finished' }]);
    expect(await answer('/api/deliveries/1/redeliver', { method: 'POST', body: { force: true } })).toEqual([400, { error: 'this request takes no body (send none, or {})' }]);
    expect(await answer('/api/deliveries/1/rerun', { method: 'POST', raw: '[1]' })).toEqual([400, { error: 'this request takes no body (send none, or {})' }]);
    expect(await audit()).toEqual([
      ['delivery.redeliver', 'event 99', false, '404: no webhook event #99 (the list shows the events there are)'],
      ['delivery.rerun', 'event 99', false, '404: no webhook event #99 (the list shows the events there are)'],
      ['delivery.redeliver', 'event 2', false, '409: event #2 has no stored answer to deliver (it is failed); Re-run runs it again'],
      ['delivery.redeliver', 'event 3', false, '409: event #3 is still accepted: its delivery can be asked for once it has finished'],
      ['delivery.rerun', 'event 3', false, '409: event #3 is still accepted: a re-run can be asked for once it has finished'],
      ['delivery.redeliver', 'event 1', false, '400: this request takes no body (send none, or {})'],
      ['delivery.rerun', 'event 1', false, '400: this request takes no body (send none, or {})'],
    ]);
    // Nothing changed.
    expect((await answer('/api/deliveries/1'))[1]).toMatchObject({ state: 'delivered' });
    expect(((await answer('/api/deliveries'))[1] as { deliveries: unknown[] }).deliveries.length).toBe(3);
  });
});

describe('without a store', () => {
  it('lists nothing and creates no state.db; an id is 404', async () => {
    dash = await startDashboardProcess(home);
    expect(await answer('/api/deliveries')).toEqual([200, { deliveries: [] }]);
    expect(await answer('/api/deliveries/1')).toEqual([404, { error: 'no webhook event #1 (the list shows the events there are)' }]);
    expect(await answer('/api/deliveries/1/redeliver', { method: 'POST' })).toEqual([404, { error: 'no webhook event #1 (the list shows the events there are)' }]);
    await expect(readFile(join(home, 'state.db'))).rejects.toThrow('ENOENT');
  });
});

describe('with a running gateway, the fake model and the fake gh', () => {
  let ghRecord: string;
  type Comment = { repo: string; number: number; body: string };
  const comments = async (): Promise<Comment[]> =>
    (await readFile(`${ghRecord}.comments.jsonl`, 'utf8').catch(() => ''))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Comment);
  const detail = async (id: number) => (await answer(`/api/deliveries/${id}`))[1] as { state: string; answer: string | null; prompt: string; delivery_attempts: number; outcome: string };

  beforeEach(async () => {
    const binDir = join(dir, 'bin');
    ghRecord = join(dir, 'gh.jsonl');
    await mkdir(binDir);
    await symlink(join(REPO_ROOT, 'test', 'fakes', 'fake-gh.mjs'), join(binDir, 'gh'));
    const subscribed = await runIris(
      ['webhook', 'subscribe', 'github-pr', '--events', 'pull_request', '--deliver', 'forge_comment', '--deliver-extra', 'repo={repository.full_name}', '--deliver-extra', 'pr_number={number}', '--prompt', 'Review PR #{number} in {repository.full_name}: {pull_request.title}'],
      { home },
    );
    expect(subscribed.code).toBe(0);
    gateway = await startGatewayProcess(home, { OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1`, PATH: `${binDir}:${process.env.PATH ?? ''}`, FAKE_GH_RECORD: ghRecord });
    dash = await startDashboardProcess(home);
  });

  it('a PR event is delivered; Redeliver posts a second comment with no model request; Re-run is a new event and a new run', async () => {
    fake.script('main-m', { kind: 'text', deltas: ['Looks good.'] }, { kind: 'text', deltas: ['Title'] }, { kind: 'text', deltas: ['Looks good again.'] }, { kind: 'text', deltas: ['Title'] });
    expect((await runIris(['webhook', 'test', 'github-pr'], { home })).code).toBe(0);
    const first = await waitFor(async () => {
      const [, body] = await answer('/api/deliveries?route=github-pr');
      const [row] = (body as { deliveries: Array<{ id: number; state: string }> }).deliveries;
      return row && (row.state === 'delivered' || row.state === 'failed') ? row : undefined;
    }, 20_000, 'the first delivery');
    expect(first.state).toBe('delivered');
    const shown = await detail(first.id);
    expect(shown).toMatchObject({ state: 'delivered', answer: 'Looks good.', prompt: 'Review PR #7 in example/iris-webhook-test: Add a retry to the upload step', delivery_attempts: 1 });
    expect(shown.outcome).toBe('delivered: posted as a PR comment on example/iris-webhook-test#7 (1 attempt)');
    expect((await comments()).map((c) => [c.repo, c.number, c.body])).toEqual([['example/iris-webhook-test', 7, `Looks good.\n\n<!-- iris-delivery:${first.id} -->`]]);
    // The run's requests (the answer and the session's title) are all there will be until the re-run.
    await waitFor(async () => (fake.requests.length >= 2 ? true : undefined), 10_000, 'the title request');
    const requestsBefore = fake.requests.length;

    expect(await answer(`/api/deliveries/${first.id}/redeliver`, { method: 'POST' })).toEqual([200, { id: first.id, state: 'done', outcome: 'answered; delivery pending' }]);
    const posted = await waitFor(async () => {
      const now = await comments();
      return now.length >= 2 ? now : undefined;
    }, 10_000, 'the redelivered comment');
    expect(posted.map((c) => [c.repo, c.number, c.body])).toEqual([
      ['example/iris-webhook-test', 7, `Looks good.\n\n<!-- iris-delivery:${first.id} -->`],
      ['example/iris-webhook-test', 7, `Looks good.\n\n<!-- iris-delivery:${first.id} -->`],
    ]);
    await waitFor(async () => ((await detail(first.id)).state === 'delivered' ? true : undefined), 10_000, 'the redelivery recorded');
    expect(fake.requests.length).toBe(requestsBefore);

    const [status, rerun] = await answer(`/api/deliveries/${first.id}/rerun`, { method: 'POST' });
    expect(status).toBe(200);
    const rerunBody = rerun as { id: number; delivery_id: string; rerun_of: number };
    expect(rerunBody.id).toBe(first.id + 1);
    expect(rerunBody.rerun_of).toBe(first.id);
    expect(rerunBody.delivery_id).toMatch(new RegExp(`^rerun-${first.id}-[0-9a-f-]{36}$`));
    const again = await waitFor(async () => {
      const d = await detail(rerunBody.id);
      return d.state === 'delivered' || d.state === 'failed' ? d : undefined;
    }, 20_000, 'the re-run delivered');
    expect(again).toMatchObject({ state: 'delivered', answer: 'Looks good again.', prompt: 'Review PR #7 in example/iris-webhook-test: Add a retry to the upload step' });
    expect(fake.requests.length).toBeGreaterThan(requestsBefore);
    expect(JSON.stringify(fake.requests.slice(requestsBefore).map((r) => r.rawBody))).toContain('Review PR #7 in example/iris-webhook-test');
    expect((await comments()).map((c) => c.body)).toEqual([
      `Looks good.\n\n<!-- iris-delivery:${first.id} -->`,
      `Looks good.\n\n<!-- iris-delivery:${first.id} -->`,
      `Looks good again.\n\n<!-- iris-delivery:${rerunBody.id} -->`,
    ]);
    const rows = JSON.parse((await runIris(['webhook', 'deliveries', '--json'], { home })).stdout) as Array<{ id: number; delivery_id: string; state: string }>;
    expect(rows.map((r) => [r.id, r.state])).toEqual([
      [rerunBody.id, 'delivered'],
      [first.id, 'delivered'],
    ]);
    expect((await audit()).map(([action, target, ok]) => [action, target, ok])).toEqual([
      ['delivery.redeliver', `event ${first.id}`, true],
      ['delivery.rerun', `event ${first.id}`, true],
    ]);
  }, 90_000);
});
