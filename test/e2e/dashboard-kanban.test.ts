// The Kanban page's REST API over real HTTP against `bin/iris dashboard`: the board, add, move /
// edit, a card with its parent and children, and Specify / Decompose through their slots on the
// fake upstream. Each answer agrees with `iris kanban … --json`; every refusal has its status and
// message; every write is a line in logs/audit.log; slot calls are counted under `dashboard`.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import { startFakeUpstream, type FakeBehaviour, type FakeUpstream } from '../fakes/upstream.js';
import { dashboardApi, startDashboardProcess, type DashboardProcess } from '../helpers/dashboard.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

let fake: FakeUpstream;
let dir: string;
let home: string;
let dash: DashboardProcess;

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
  await writeFile(join(home, 'config.yaml'), 'model:\n  provider: openai\n  default: main-m\n', { mode: 0o600 });
});
afterEach(async () => {
  await dash?.stop();
  await removeDir(dir);
});

const env = () => ({ OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` });
const start = async () => (dash = await startDashboardProcess(home, env()));

const { send, answer } = dashboardApi(() => dash);

const cli = async (args: string[]): Promise<unknown> => {
  const result = await runIris([...args, '--json'], { home, env: env() });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
};

type AuditRow = { actor: string; from: string; action: string; target: string; ok: boolean; reason?: string };
async function audit(): Promise<AuditRow[]> {
  const text = await readFile(join(home, 'logs', 'audit.log'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const row = JSON.parse(line) as AuditRow & { time?: string };
      expect(row.time).toMatch(/^\d{4}-\d\d-\d\dT/);
      delete row.time;
      return row;
    });
}
const row = (action: string, target: string, reason?: string): AuditRow => ({
  actor: 'local',
  from: '127.0.0.1',
  action,
  target,
  ok: reason === undefined,
  ...(reason === undefined ? {} : { reason }),
});

const SPEC = JSON.stringify({
  title: 'Dark mode for the dashboard',
  goal: 'Users can switch the dashboard to a dark theme.',
  context: 'The dashboard has one light theme today.',
  acceptance_criteria: ['a toggle in the header switches the theme', 'the choice survives a reload'],
});
const SPEC_BODY =
  '## Goal\n\nUsers can switch the dashboard to a dark theme.\n\n## Context\n\nThe dashboard has one light theme today.\n\n' +
  '## Acceptance criteria\n\n- [ ] a toggle in the header switches the theme\n- [ ] the choice survives a reload';
const CHILDREN = JSON.stringify({
  tasks: [
    { title: 'Theme tokens', body: 'Define the dark palette.' },
    { title: 'Header toggle', body: 'Add the switch and persist it.' },
  ],
});
const text = (answerText: string): FakeBehaviour => ({ kind: 'text', deltas: [answerText] });
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const ENDPOINTS = [
  ['GET', '/api/kanban', undefined],
  ['POST', '/api/kanban', { title: 'x' }],
  ['GET', '/api/kanban/1', undefined],
  ['PATCH', '/api/kanban/1', { status: 'doing' }],
  ['POST', '/api/kanban/1/specify', undefined],
  ['POST', '/api/kanban/1/decompose', undefined],
] as const;

describe('dashboard kanban API', () => {
  it('without a store: an empty board, 404 for a card, and no state.db created', async () => {
    await start();
    expect(await answer('/api/kanban')).toEqual([200, { statuses: ['triage', 'todo', 'doing', 'done', 'blocked'], tasks: [] }]);
    expect(await answer('/api/kanban/1')).toEqual([404, { error: 'no kanban task 1' }]);
    expect(await answer('/api/kanban/1/specify', { method: 'POST' })).toEqual([404, { error: 'no kanban task 1' }]);
    await expect(readFile(join(home, 'state.db'))).rejects.toThrow('ENOENT');
  });

  it('needs the token and the right Host on every endpoint, and changes nothing without them', async () => {
    await cli(['kanban', 'add', 'dark mode']);
    await start();
    for (const [method, path, body] of ENDPOINTS) {
      expect([method, path, ...(await answer(path, { method, body, token: null }))]).toEqual([method, path, 401, { error: 'Unauthorized' }]);
      expect([method, path, ...(await answer(path, { method, body, host: 'evil.example:80' }))]).toEqual([method, path, 400, { error: 'Invalid Host header' }]);
    }
    expect(await cli(['kanban', 'list'])).toMatchObject([{ id: 1, title: 'dark mode', status: 'triage' }]);
    expect(fake.requests).toHaveLength(0);
    expect(await audit()).toEqual([]);
  });

  it('add → move → edit: each answer is what iris kanban show --json says; audited', async () => {
    await start();
    const added = await send('/api/kanban', { body: { title: '  dark mode  ', status: 'todo' } });
    expect(added.status).toBe(201);
    expect(added.json).toMatchObject({ id: 1, title: 'dark mode', body: '', status: 'todo', parent_id: null });
    expect((added.json as { created_at: string }).created_at).toMatch(ISO);

    const moved = await send('/api/kanban/1', { method: 'PATCH', body: { status: 'doing' } });
    expect(moved.status).toBe(200);
    expect(moved.json).toEqual(await cli(['kanban', 'show', '1']));
    expect(moved.json).toMatchObject({ id: 1, status: 'doing' });

    const edited = await send('/api/kanban/1', { method: 'PATCH', body: { title: 'Dark mode', body: 'Both themes.' } });
    expect(edited.json).toEqual(await cli(['kanban', 'show', '1']));
    expect(edited.json).toMatchObject({ id: 1, title: 'Dark mode', body: 'Both themes.', status: 'doing' });

    expect(await send('/api/kanban', { body: { title: 'second' } })).toMatchObject({ status: 201, json: { id: 2, status: 'triage' } });
    const board = await send('/api/kanban');
    expect(board.json).toEqual({ statuses: ['triage', 'todo', 'doing', 'done', 'blocked'], tasks: ((await cli(['kanban', 'list'])) as object[]).map((task) => ({ ...task, children: [] })) });

    expect(await audit()).toEqual([row('kanban.add', '#1 dark mode'), row('kanban.move', '#1 → doing'), row('kanban.edit', '#1'), row('kanban.add', '#2 second')]);
  });

  it('400 for a bad id, body or status, 404 for an unknown card, 400 for a body that is not JSON; refusals audited', async () => {
    await cli(['kanban', 'add', 'dark mode']);
    await start();
    expect(await answer('/api/kanban/abc')).toEqual([400, { error: 'a task id is a positive whole number (got "abc")' }]);
    expect(await answer('/api/kanban/0', { method: 'PATCH', body: { status: 'doing' } })).toEqual([400, { error: 'a task id is a positive whole number (got "0")' }]);
    expect(await answer('/api/kanban/-1/specify', { method: 'POST' })).toEqual([400, { error: 'a task id is a positive whole number (got "-1")' }]);
    expect(await answer('/api/kanban', { body: { title: ' ' } })).toEqual([400, { error: 'a task needs a one-line title' }]);
    expect(await answer('/api/kanban', { body: { title: 'a\nb' } })).toEqual([400, { error: 'a title is one line (put the details in the body)' }]);
    expect(await answer('/api/kanban', { body: { title: 'x'.repeat(201) } })).toEqual([400, { error: 'title is 201 characters; the limit is 200' }]);
    expect(await answer('/api/kanban', { body: { title: 'x', status: 'later' } })).toEqual([400, { error: 'unknown status "later" (allowed: triage, todo, doing, done, blocked)' }]);
    expect(await answer('/api/kanban', { body: { title: 'x', owner: 'me' } })).toEqual([400, { error: 'unknown field "owner" (known: title, body, status)' }]);
    expect(await answer('/api/kanban', { body: ['x'] })).toEqual([400, { error: 'the body must be a JSON object {"title": "...", "body"?: "...", "status"?: "triage"}' }]);
    expect(await answer('/api/kanban', { raw: '{nope' })).toEqual([400, { error: 'the body is not JSON' }]);
    expect(await answer('/api/kanban/1', { method: 'PATCH', body: { status: 'later' } })).toEqual([400, { error: 'unknown status "later" (allowed: triage, todo, doing, done, blocked)' }]);
    expect(await answer('/api/kanban/1', { method: 'PATCH', body: { status: 7 } })).toEqual([400, { error: 'status must be one of triage, todo, doing, done, blocked' }]);
    expect(await answer('/api/kanban/1', { method: 'PATCH', body: {} })).toEqual([400, { error: 'nothing to change: give status, title or body' }]);
    expect(await answer('/api/kanban/9', { method: 'PATCH', body: { status: 'done' } })).toEqual([404, { error: 'no kanban task 9' }]);
    expect(await answer('/api/kanban/9')).toEqual([404, { error: 'no kanban task 9' }]);
    expect(await answer('/api/kanban/9/decompose', { method: 'POST' })).toEqual([404, { error: 'no kanban task 9' }]);
    // Specify and Decompose take no input: a body with fields is a mistake, refused before any slot call.
    expect(await answer('/api/kanban/1/specify', { method: 'POST', body: { model: 'other' } })).toEqual([400, { error: 'this request takes no body (send none, or {})' }]);
    expect(await answer('/api/kanban/1/decompose', { method: 'POST', body: ['x'] })).toEqual([400, { error: 'this request takes no body (send none, or {})' }]);

    expect(await cli(['kanban', 'list'])).toMatchObject([{ id: 1, title: 'dark mode', status: 'triage', body: '' }]);
    expect(fake.requests).toHaveLength(0);
    expect(await audit()).toEqual([
      row('kanban.move', '#0', '400: a task id is a positive whole number (got "0")'),
      row('kanban.specify', '#-1', '400: a task id is a positive whole number (got "-1")'),
      row('kanban.add', '', '400: a task needs a one-line title'),
      row('kanban.add', '', '400: a title is one line (put the details in the body)'),
      row('kanban.add', '', `400: title is 201 characters; the limit is 200`),
      row('kanban.add', '', '400: unknown status "later" (allowed: triage, todo, doing, done, blocked)'),
      row('kanban.add', '', '400: unknown field "owner" (known: title, body, status)'),
      row('kanban.add', '', '400: the body must be a JSON object {"title": "...", "body"?: "...", "status"?: "triage"}'),
      row('kanban.add', '', '400: the body is not JSON'),
      row('kanban.move', '#1', '400: unknown status "later" (allowed: triage, todo, doing, done, blocked)'),
      row('kanban.move', '#1', '400: status must be one of triage, todo, doing, done, blocked'),
      row('kanban.move', '#1', '400: nothing to change: give status, title or body'),
      row('kanban.move', '#9', '404: no kanban task 9'),
      row('kanban.decompose', '#9', '404: no kanban task 9'),
      row('kanban.specify', '#1', '400: this request takes no body (send none, or {})'),
      row('kanban.decompose', '#1', '400: this request takes no body (send none, or {})'),
    ]);
  });

  it('specify and decompose call their slots as the CLI does; the card shows its parent and children; usage under dashboard', async () => {
    await cli(['kanban', 'add', 'dark mode']);
    await start();
    fake.script('main-m', text(SPEC));
    const specified = await send('/api/kanban/1/specify', { method: 'POST' });
    expect(specified.status).toBe(200);
    expect(specified.json).toMatchObject({ id: 1, title: 'Dark mode for the dashboard', body: SPEC_BODY, status: 'todo', parent_id: null });
    expect(specified.json).toEqual(await cli(['kanban', 'show', '1']));
    expect(fake.requests.map((r) => (r.body as { model?: string }).model)).toEqual(['main-m']);

    fake.script('main-m', text(CHILDREN));
    const decomposed = await send('/api/kanban/1/decompose', { method: 'POST' });
    expect(decomposed.status).toBe(200);
    const { parent, children } = decomposed.json as { parent: { id: number }; children: Array<{ id: number; title: string; status: string; parent_id: number }> };
    expect(parent.id).toBe(1);
    expect(children.map((c) => [c.id, c.title, c.status, c.parent_id])).toEqual([
      [2, 'Theme tokens', 'todo', 1],
      [3, 'Header toggle', 'todo', 1],
    ]);

    const card = await send('/api/kanban/1');
    expect(card.json).toEqual({ ...((await cli(['kanban', 'show', '1'])) as object), parent: null, children: [await cli(['kanban', 'show', '2']), await cli(['kanban', 'show', '3'])] });
    const child = await send('/api/kanban/3');
    expect(child.json).toEqual({ ...((await cli(['kanban', 'show', '3'])) as object), parent: await cli(['kanban', 'show', '1']), children: [] });
    const board = (await send('/api/kanban')).json as { tasks: Array<{ id: number; children: number[] }> };
    expect(board.tasks.map((t) => [t.id, t.children])).toEqual([
      [1, [2, 3]],
      [2, []],
      [3, []],
    ]);

    const store = await openSqliteStore(join(home, 'state.db'));
    try {
      expect((await store.usageSummary({ by: 'source' })).map((u) => [u.key, u.calls])).toEqual([['dashboard', 2]]);
      expect((await store.usageSummary({ by: 'task' })).map((u) => [u.key, u.calls]).sort()).toEqual([
        ['kanban_decomposer', 1],
        ['triage_specifier', 1],
      ]);
    } finally {
      await store.close();
    }
    expect(await audit()).toEqual([row('kanban.specify', '#1'), row('kanban.decompose', '#1')]);
  });

  it("a slot's failure is a 502 with the slot's message, and the board is left as it was", async () => {
    await cli(['kanban', 'add', 'dark mode']);
    await start();
    fake.script('main-m', { kind: 'error', status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } } });
    expect(await answer('/api/kanban/1/specify', { method: 'POST' })).toEqual([502, { error: 'the triage_specifier slot failed: openai (chat_completions) answered 401: Incorrect API key provided' }]);

    // A 500 fails over along fallback_providers; when every one fails, the slot's message names them.
    fake.reset();
    fake.script('main-m', { kind: 'error', status: 500 });
    fake.script('gpt-5.1', { kind: 'error', status: 500 });
    expect(await answer('/api/kanban/1/decompose', { method: 'POST' })).toEqual([
      502,
      {
        error:
          'the kanban_decomposer slot failed: openai (chat_completions) answered 500: Fake upstream error (HTTP 500). [tried: openai · main-m (server), ' +
          'openrouter · anthropic/claude-sonnet-4.5 (no credential (set OPENROUTER_API_KEY)), openai · gpt-5.1 (server)]',
      },
    ]);
    expect(fake.requests.map((r) => (r.body as { model?: string }).model)).toEqual(['main-m', 'gpt-5.1']);

    fake.reset();
    fake.script('main-m', text('Sure! Here is the spec.'), text('{"title":"x"}'));
    expect(await answer('/api/kanban/1/specify', { method: 'POST' })).toEqual([
      502,
      { error: `the triage_specifier slot's answer was malformed twice (the answer lacks "goal", "context", "acceptance_criteria"); nothing was changed` },
    ]);

    fake.reset();
    fake.script('main-m', text(JSON.stringify({ tasks: [{ title: 'a', body: 'b' }] })), text(JSON.stringify({ tasks: [] })));
    const decompose = await send('/api/kanban/1/decompose', { method: 'POST' });
    expect(decompose.status).toBe(502);
    expect((decompose.json as { error: string }).error).toMatch(/^the kanban_decomposer slot's answer was malformed twice \(.+\); nothing was changed$/);

    expect(await cli(['kanban', 'list'])).toMatchObject([{ id: 1, title: 'dark mode', body: '', status: 'triage' }]);
    expect((await audit()).map((r) => [r.action, r.target, r.ok, r.reason?.slice(0, 4)])).toEqual([
      ['kanban.specify', '#1', false, '502:'],
      ['kanban.decompose', '#1', false, '502:'],
      ['kanban.specify', '#1', false, '502:'],
      ['kanban.decompose', '#1', false, '502:'],
    ]);
  });
});
