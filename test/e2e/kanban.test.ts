// `iris kanban` as a subprocess against the fake upstream: the board in state.db, specify and
// decompose through their slots (pinned, auto, fallback), and strict refusals that leave the
// board as it was.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeBehaviour, type FakeUpstream } from '../fakes/upstream.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

let fake: FakeUpstream;
let dir: string;
let home: string;

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
afterEach(() => removeDir(dir));

const env = () => ({
  OPENAI_API_KEY: 'test-key-0123456789',
  OPENAI_BASE_URL: `${fake.url}/v1`,
  ANTHROPIC_API_KEY: 'test-anthropic-key',
  ANTHROPIC_BASE_URL: fake.url,
});
const iris = (args: string[]) => runIris(args, { home, env: env() });
const json = async (args: string[]): Promise<unknown> => {
  const result = await iris([...args, '--json']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
};
const models = () => fake.requests.map((r) => (r.body as { model?: string }).model);

const SPEC = JSON.stringify({
  title: 'Dark mode for the dashboard',
  goal: 'Users can switch the dashboard to a dark theme.',
  context: 'The dashboard has one light theme today.',
  acceptance_criteria: ['a toggle in the header switches the theme', 'the choice survives a reload'],
});
const CHILDREN = JSON.stringify({
  tasks: [
    { title: 'Theme tokens', body: 'Define the dark palette.' },
    { title: 'Header toggle', body: 'Add the switch and persist it.' },
    { title: 'Contrast check', body: 'Every text passes WCAG AA.' },
  ],
});
const text = (answer: string): FakeBehaviour => ({ kind: 'text', deltas: [answer] });

describe('iris kanban', () => {
  it('add → specify → decompose: the spec becomes the body, the children land in todo under their parent', async () => {
    expect(await json(['kanban', 'add', 'dark mode'])).toMatchObject({ id: 1, title: 'dark mode', body: '', status: 'triage', parent_id: null });

    fake.script('main-m', text(SPEC));
    const specified = await json(['kanban', 'specify', '1']);
    expect(specified).toMatchObject({ id: 1, title: 'Dark mode for the dashboard', status: 'todo' });
    expect((specified as { body: string }).body).toBe(
      '## Goal\n\nUsers can switch the dashboard to a dark theme.\n\n## Context\n\nThe dashboard has one light theme today.\n\n' +
        '## Acceptance criteria\n\n- [ ] a toggle in the header switches the theme\n- [ ] the choice survives a reload',
    );

    fake.script('main-m', text(CHILDREN));
    const decomposed = (await json(['kanban', 'decompose', '1'])) as { parent: { id: number }; children: unknown[] };
    expect(decomposed.parent.id).toBe(1);
    expect(decomposed.children).toHaveLength(3);

    const board = (await json(['kanban', 'list'])) as Array<{ id: number; title: string; status: string; parent_id: number | null }>;
    expect(board.map((t) => [t.id, t.title, t.status, t.parent_id])).toEqual([
      [1, 'Dark mode for the dashboard', 'todo', null],
      [2, 'Theme tokens', 'todo', 1],
      [3, 'Header toggle', 'todo', 1],
      [4, 'Contrast check', 'todo', 1],
    ]);
    expect(await json(['kanban', 'show', '3'])).toMatchObject({ id: 3, body: 'Add the switch and persist it.', parent_id: 1 });

    const shown = await iris(['kanban', 'list', '--status', 'todo']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('Header toggle');
  });

  it('move validates the status: exit 2 with the allowed list; a missing task is exit 1', async () => {
    await json(['kanban', 'add', 'x']);
    const bad = await iris(['kanban', 'move', '1', 'later']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown status "later" (allowed: triage, todo, doing, done, blocked)');
    expect(await json(['kanban', 'move', '1', 'doing'])).toMatchObject({ id: 1, status: 'doing' });
    const missing = await iris(['kanban', 'move', '9', 'done']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no kanban task 9');
    expect((await iris(['kanban', 'list', '--status', 'nope'])).code).toBe(2);
  });

  it('specify goes to the pinned triage_specifier slot, and to the main model when it is auto', async () => {
    await json(['kanban', 'add', 'one']);
    await json(['kanban', 'add', 'two']);
    const pin = await iris(['model', 'aux', 'set', 'triage_specifier', 'anthropic', 'spec-m']);
    expect(pin.code).toBe(0);
    fake.script('spec-m', text(SPEC));
    await json(['kanban', 'specify', '1']);
    expect(models()).toEqual(['spec-m']);
    expect(fake.requests[0]?.path).toBe('/v1/messages');

    fake.reset();
    expect((await iris(['model', 'aux', 'set', 'triage_specifier', 'auto', ''])).code).toBe(0);
    fake.script('main-m', text(SPEC));
    await json(['kanban', 'specify', '2']);
    expect(models()).toEqual(['main-m']);
  });

  it('a malformed answer, twice, is refused with exit 1 and the board unchanged', async () => {
    await json(['kanban', 'add', 'dark mode']);
    const before = await json(['kanban', 'list']);

    fake.script('main-m', text('Sure! Here is the spec: dark mode.'), text('{"title":"x"}'));
    const specify = await iris(['kanban', 'specify', '1']);
    expect(specify.code).toBe(1);
    expect(specify.stderr).toBe(`iris: error: the triage_specifier slot's answer was malformed twice (the answer lacks "goal", "context", "acceptance_criteria"); nothing was changed\n`);
    expect(specify.stdout).toBe('');
    // The second request asked for a fix, showing the first answer.
    const second = fake.requests[1]?.body as { messages: Array<{ role: string; content: unknown }> };
    expect(second.messages.at(-2)).toMatchObject({ role: 'assistant', content: 'Sure! Here is the spec: dark mode.' });
    expect(String(second.messages.at(-1)?.content)).toContain('That answer could not be used: the answer is not JSON');

    const oneTask = JSON.stringify({ tasks: [{ title: 'a', body: 'b' }] });
    const nineTasks = JSON.stringify({ tasks: Array.from({ length: 9 }, (_, i) => ({ title: `t${i}`, body: 'b' })) });
    fake.reset();
    fake.script('main-m', text(oneTask), text(nineTasks));
    const decompose = await iris(['kanban', 'decompose', '1']);
    expect(decompose.code).toBe(1);
    expect(decompose.stderr).toContain('9 tasks; there must be 2 to 8');
    expect(fake.requests).toHaveLength(2);

    expect(await json(['kanban', 'list'])).toEqual(before);
  });

  it('the slot provider down (503): the fallback chain answers', async () => {
    await writeFile(
      join(home, 'config.yaml'),
      'model:\n  provider: openai\n  default: main-m\nauxiliary:\n  kanban_decomposer:\n    provider: openai\n    model: dec-m\n' +
        '    fallback_chain:\n      - { provider: anthropic, model: dec-fallback }\n',
      { mode: 0o600 },
    );
    await json(['kanban', 'add', 'dark mode']);
    fake.script('dec-m', { kind: 'error', status: 503 });
    fake.script('dec-fallback', text(CHILDREN));
    const decomposed = (await json(['kanban', 'decompose', '1'])) as { children: Array<{ parent_id: number; status: string }> };
    expect(decomposed.children.map((c) => [c.parent_id, c.status])).toEqual([
      [1, 'todo'],
      [1, 'todo'],
      [1, 'todo'],
    ]);
    expect(models()).toEqual(['dec-m', 'dec-fallback']);
  });
});
