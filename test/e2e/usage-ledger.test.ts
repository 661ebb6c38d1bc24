// Every model call is counted in `iris usage`. Two walks: over the source, every call through
// routing is one that records its usage (a session's, in src/agent/agent.ts, or a sessionless
// one through callCounted), and each of the 11 slots' features makes its call that way; and over
// the features a person runs outside a chat, each leaves its slot in the ledger.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUX_TASKS, type AuxTaskId } from '../../src/domain/slots.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { makeTempDir, REPO_ROOT, removeDir, runIris } from '../helpers/iris.js';

/** The files allowed to call routing directly: the definition, the session recorder, callCounted. */
const RECORDING_CALLERS = ['src/routing/call-model.ts', 'src/agent/agent.ts', 'src/agent/slot-usage.ts'];

/** Where each slot's feature calls its model, and how that call is counted. */
const SLOT_FEATURES: Readonly<Record<AuxTaskId, { readonly file: string; readonly call: string; readonly namedIn?: string }>> = {
  vision: { file: 'src/agent/vision-slot.ts', call: "callCounted('vision'" },
  web_extract: { file: 'src/agent/runtime.ts', call: "callCounted('web_extract'" },
  compression: { file: 'src/agent/agent.ts', call: "'compression'" },
  skills_hub: { file: 'src/skills/hub-search.ts', call: "callCounted('skills_hub'" },
  approval: { file: 'src/agent/runtime.ts', call: "callCounted('approval'" },
  mcp: { file: 'src/agent/agent.ts', call: "recordUsage(session, 'mcp'" },
  title_generation: { file: 'src/agent/agent.ts', call: "'title_generation'" },
  triage_specifier: { file: 'src/kanban/slot-call.ts', call: 'callCounted(slot', namedIn: 'src/kanban/refine.ts' },
  kanban_decomposer: { file: 'src/kanban/slot-call.ts', call: 'callCounted(slot', namedIn: 'src/kanban/refine.ts' },
  profile_describer: { file: 'src/profiles/describe.ts', call: "callCounted('profile_describer'" },
  curator: { file: 'src/curator/run.ts', call: "callCounted('curator'" },
};

async function sourceFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await sourceFiles(path)));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) found.push(path);
  }
  return found;
}

describe('every call through routing is counted', () => {
  it('only the recording callers call callModel or streamTask', async () => {
    const callers: string[] = [];
    for (const file of await sourceFiles(join(REPO_ROOT, 'src'))) {
      if (/\b(callModel|streamTask)\(/.test(await readFile(file, 'utf8'))) callers.push(relative(REPO_ROOT, file));
    }
    expect(callers.sort()).toEqual([...RECORDING_CALLERS].sort());
  });

  it.each(AUX_TASKS.map((task) => task.id))('the %s feature calls its slot through a counted call', async (slot) => {
    const feature = SLOT_FEATURES[slot];
    expect(await readFile(join(REPO_ROOT, feature.file), 'utf8')).toContain(feature.call);
    expect(await readFile(join(REPO_ROOT, feature.namedIn ?? feature.file), 'utf8')).toContain(`'${slot}'`);
  });
});

describe('the ledger after each feature run outside a chat', () => {
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
  });
  afterEach(() => removeDir(dir));

  const env = () => ({ OPENAI_API_KEY: 'sk-test-0123456789abcdef', OPENAI_BASE_URL: `${fake.url}/v1` });
  const iris = (args: string[]) => runIris(args, { home, env: env() });
  const tasks = async (args: string[] = []) => {
    const result = await iris([...args, 'usage', '--by', 'task', '--json']);
    expect(result.code).toBe(0);
    return (JSON.parse(result.stdout) as Array<{ key: string; calls: number }>).map((row) => [row.key, row.calls]);
  };

  it('iris profile describe --auto: profile_describer, in that profile’s usage', async () => {
    expect(await iris(['profile', 'create', 'a'])).toMatchObject({ code: 0 });
    await writeFile(join(home, 'profiles', 'a', 'config.yaml'), 'model:\n  provider: openai\n  default: main-m\nauxiliary:\n  profile_describer: { provider: openai, model: desc-m }\n', { mode: 0o600 });
    fake.script('desc-m', { kind: 'text', deltas: ['A profile for reviews.'] });
    expect(await iris(['profile', 'describe', 'a', '--auto'])).toMatchObject({ code: 0, stdout: 'A profile for reviews.\n' });
    expect(await tasks(['-p', 'a'])).toEqual([['profile_describer', 1]]);
  });

  /** Every aux slot pinned to a model of its own, so each call is seen under its task. */
  async function pinEverySlot(extra = ''): Promise<void> {
    const aux = AUX_TASKS.map((task) => `  ${task.id}: { provider: openai, model: ${task.id}-m }\n`).join('');
    await writeFile(join(home, 'config.yaml'), `model:\n  provider: openai\n  default: main-m\nauxiliary:\n${aux}${extra}`, { mode: 0o600 });
  }

  it('kanban specify and decompose, skills search and curator review: each slot in the ledger', async () => {
    await mkdir(join(home, 'skills', 'pdf-tools'), { recursive: true });
    await writeFile(join(home, 'skills', 'pdf-tools', 'SKILL.md'), '---\nname: pdf-tools\ndescription: Splits PDFs.\n---\nSteps.\n');
    await writeFile(join(dir, 'hub.json'), JSON.stringify({ skills: [{ name: 'pdf-split', description: 'Split a PDF', url: join(dir, 'SKILL.md') }] }));
    await pinEverySlot(`skills:\n  hubs: [${join(dir, 'hub.json')}]\n`);
    const text = (value: unknown) => ({ kind: 'text' as const, deltas: [JSON.stringify(value)] });
    fake.script('triage_specifier-m', text({ title: 'Dark mode', goal: 'A dark theme.', context: 'Light only.', acceptance_criteria: ['a toggle'] }));
    fake.script('kanban_decomposer-m', text({ tasks: [{ title: 'Tokens', body: 'Palette.' }, { title: 'Toggle', body: 'Switch.' }] }));
    fake.script('skills_hub-m', text({ results: [{ name: 'pdf-split', reason: 'It splits PDFs.' }] }));
    fake.script('curator-m', text({ proposals: [{ skill: 'pdf-tools', action: 'keep', reason: 'fine' }] }));
    for (const args of [['kanban', 'add', 'dark mode'], ['kanban', 'specify', '1'], ['kanban', 'decompose', '1'], ['skills', 'search', 'pdf'], ['curator', 'review']]) {
      expect(await iris(args), args.join(' ')).toMatchObject({ code: 0 });
    }
    expect(Object.fromEntries(await tasks())).toEqual({ triage_specifier: 1, kanban_decomposer: 1, skills_hub: 1, curator: 1 });
  });

  it('a chat turn under smart approval: main, approval and title_generation in the ledger', async () => {
    await mkdir(join(dir, 'work'));
    await pinEverySlot(`approval_mode: smart\nagent:\n  workspace: ${join(dir, 'work')}\n`);
    fake.script('main-m', { kind: 'tool_calls', calls: [{ id: 'c1', name: 'run_command', arguments: { command: 'ls' } }] }, { kind: 'text', deltas: ['Listed.'] });
    fake.script('approval-m', { kind: 'text', deltas: ['{"risk":"low","reason":"lists files"}'] });
    fake.script('title_generation-m', { kind: 'text', deltas: ['Listing files'] });
    expect(await iris(['chat', '-q', 'list the files'])).toMatchObject({ code: 0 });
    expect(Object.fromEntries(await tasks())).toEqual({ main: 2, approval: 1, title_generation: 1 });
  });
});
