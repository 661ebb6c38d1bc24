// The curator end to end: `iris chat -q` runs (the built CLI) that call load_skill record real
// usage; `iris curator review` gives it to the curator slot (pinned, or auto: the main model),
// prints the proposals, writes the report, and with --apply archives what was proposed for archive.
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { startGatewayProcess, waitFor } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

let fake: FakeUpstream;
let dir: string;
let home: string;
let skills: string;
beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  dir = await makeTempDir();
  home = join(dir, 'home');
  skills = join(home, 'skills');
  await mkdir(home, { mode: 0o700 });
  await mkdir(join(dir, 'work'));
  for (const [name, description] of [
    ['deploy', 'Deploys the service to staging.'],
    ['old-deploy', 'Deploys the service (old steps).'],
    ['lint', 'Runs the linter.'],
    ['review', 'Reviews.'],
  ] as const) {
    await mkdir(join(skills, name), { recursive: true });
    await writeFile(join(skills, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\nThe steps of ${name}.\n`);
  }
});
afterEach(() => removeDir(dir));

async function configure(aux = '') {
  await writeFile(
    join(home, 'config.yaml'),
    `model:\n  provider: openai\n  default: main-m\nagent:\n  workspace: ${join(dir, 'work')}\napproval_mode: off\n${aux}`,
    { mode: 0o600 },
  );
}
const PINNED = 'auxiliary:\n  curator:\n    provider: openai\n    model: cur-m\n    fallback_chain:\n      - { provider: openai, model: cur-fb }\n';
const env = () => ({ OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1`, HTTP_PROXY: '', HTTPS_PROXY: '', http_proxy: '', https_proxy: '' });
const iris = (args: string[]) => runIris(args, { home, env: env() });
type Message = { role: string; content: string };
const messagesOf = (model: string) => fake.requests.filter((r) => (r.body as { model?: string }).model === model).map((r) => (r.body as { messages: Message[] }).messages);
const promptOf = (messages: Message[] | undefined) => (messages ?? []).map((m) => m.content).join('\n');

const PROPOSALS = {
  proposals: [
    { skill: 'deploy', action: 'keep', reason: 'loaded in most sessions' },
    { skill: 'old-deploy', action: 'merge', reason: 'the same steps as deploy', into: 'deploy' },
    { skill: 'lint', action: 'archive', reason: 'never loaded in 30 days' },
    { skill: 'review', action: 'rewrite', reason: 'too vague to be chosen', description: 'Reviews a pull request for bugs and missing tests.' },
  ],
};
const answer = (value: unknown) => ({ kind: 'text' as const, deltas: [JSON.stringify(value)] });

/** A chat run whose model loads these skills, answers, and names the session. */
async function chatLoading(...names: string[]) {
  fake.script(
    'main-m',
    { kind: 'tool_calls', calls: names.map((name, index) => ({ id: `l${index}`, name: 'load_skill', arguments: { name } })) },
    { kind: 'text', deltas: ['Done.'] },
    { kind: 'text', deltas: ['A title'] },
  );
  const result = await iris(['chat', '-q', 'ship it']);
  expect(result.stderr).not.toContain('error');
  expect(result.code).toBe(0);
}

async function reportFiles(): Promise<string[]> {
  return readdir(join(home, 'curator')).catch(() => []);
}

describe('iris curator review', () => {
  it('gives the pinned slot the usage recorded by chat runs, prints the proposals and writes the report', async () => {
    await configure(PINNED);
    await chatLoading('deploy', 'review');
    await chatLoading('deploy');
    fake.script('cur-m', answer(PROPOSALS));

    const result = await iris(['curator', 'review']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('- lint: archive (0 loads in 30 days, last: none)\n  reason: never loaded in 30 days');
    expect(result.stdout).toContain('- old-deploy: merge into deploy');
    expect(result.stdout).toMatch(/- deploy: keep \(2 loads in 30 days, last: \d{4}-\d\d-\d\dT[\d:.]+Z\)\n {2}reason: loaded in most sessions/);
    expect(result.stdout).toContain('- review: rewrite the description: "Reviews a pull request for bugs and missing tests."');

    // Exactly one request, to the pinned model, with each skill's load count and text.
    const calls = messagesOf('cur-m');
    expect(calls).toHaveLength(1);
    const prompt = promptOf(calls[0]);
    expect(prompt).toContain('## deploy\ndescription: Deploys the service to staging.\nloads in the last 30 days: 2\nlast load: ');
    expect(prompt).toContain('## review\ndescription: Reviews.\nloads in the last 30 days: 1');
    expect(prompt).toContain('## lint\ndescription: Runs the linter.\nloads in the last 30 days: 0\nlast load: none in the window\ntext:\nThe steps of lint.');
    expect(messagesOf('cur-fb')).toHaveLength(0);

    // The report file, owner-only; without --apply nothing moves.
    const files = await reportFiles();
    expect(files).toEqual([`${new Date().toISOString().slice(0, 10)}.md`]);
    const report = join(home, 'curator', files[0]!);
    expect((await stat(report)).mode & 0o777).toBe(0o600);
    expect(await readFile(report, 'utf8')).toContain('- lint: archive');
    expect(result.stdout).toContain(`report: ${report}`);
    expect((await readdir(skills)).sort()).toEqual(['deploy', 'lint', 'old-deploy', 'review']);
  });

  it('asks the main model when the slot is on auto, and records its usage under the curator task', async () => {
    await configure();
    fake.script('main-m', answer({ proposals: [{ skill: 'lint', action: 'archive', reason: 'unused' }] }));
    const result = await iris(['curator', 'review', '--days', '7', '--json']);
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as { days: number; proposals: unknown[]; archived: unknown[]; skills: Array<{ name: string; loads: number }> };
    expect(out.days).toBe(7);
    expect(out.proposals).toEqual([{ skill: 'lint', action: 'archive', reason: 'unused' }]);
    expect(out.archived).toEqual([]);
    expect(out.skills.map((s) => [s.name, s.loads])).toEqual([['deploy', 0], ['lint', 0], ['old-deploy', 0], ['review', 0]]);
    const calls = messagesOf('main-m');
    expect(calls).toHaveLength(1);
    expect(promptOf(calls[0])).toContain('## lint\ndescription: Runs the linter.\nloads in the last 7 days: 0');

    const usage = await iris(['usage', '--by', 'task', '--json']);
    const tasks = (JSON.parse(usage.stdout) as Array<{ key: string; calls: number }>).map((row) => [row.key, row.calls]);
    expect(tasks).toEqual([['curator', 1]]);
  });

  it('--apply moves exactly the skills proposed for archive, next to an earlier archive of the same name', async () => {
    await configure(PINNED);
    await mkdir(join(skills, '.archive', 'lint'), { recursive: true });
    await writeFile(join(skills, '.archive', 'lint', 'SKILL.md'), 'the earlier lint');
    fake.script('cur-m', answer({ proposals: [{ skill: 'lint', action: 'archive', reason: 'unused' }, { skill: 'review', action: 'archive', reason: 'vague and unused' }, { skill: 'old-deploy', action: 'merge', reason: 'dup', into: 'deploy' }] }));

    const result = await iris(['curator', 'review', '--apply']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`archived lint → ${join(skills, '.archive', 'lint-2')}\narchived review → ${join(skills, '.archive', 'review')}\n`);
    expect((await readdir(skills)).sort()).toEqual(['.archive', 'deploy', 'old-deploy']);
    expect((await readdir(join(skills, '.archive'))).sort()).toEqual(['lint', 'lint-2', 'review']);
    expect(await readFile(join(skills, '.archive', 'lint', 'SKILL.md'), 'utf8')).toBe('the earlier lint');
    expect(await readFile(join(skills, '.archive', 'lint-2', 'SKILL.md'), 'utf8')).toContain('name: lint');
  });

  it('refuses after a malformed answer and a malformed fix: exit 1, nothing moved, no report', async () => {
    await configure(PINNED);
    fake.script('cur-m', answer({ proposals: [{ skill: 'nope', action: 'archive', reason: 'r' }] }), answer({ proposals: [{ skill: 'lint', action: 'merge', reason: 'r' }] }));

    const result = await iris(['curator', 'review', '--apply']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('malformed twice (proposal 1 merges lint without "into"); nothing was changed');
    const calls = messagesOf('cur-m');
    expect(calls).toHaveLength(2);
    expect(promptOf(calls[1])).toContain('That answer could not be used: proposal 1 names an unknown skill "nope"');
    expect((await readdir(skills)).sort()).toEqual(['deploy', 'lint', 'old-deploy', 'review']);
    expect(await reportFiles()).toEqual([]);
  });

  it('refuses a --days that is not a whole number of days from 1, before any request', async () => {
    await configure(PINNED);
    for (const days of ['0', 'abc', '1.5']) {
      const result = await iris(['curator', 'review', '--days', days]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`iris: error: --days must be a whole number of days from 1 to 3650 (got "${days}")\n`);
    }
    expect(fake.requests).toHaveLength(0);
  });

  it("uses the slot's fallback chain when its provider is down", async () => {
    await configure(PINNED);
    fake.script('cur-m', { kind: 'error', status: 503 });
    fake.script('cur-fb', answer({ proposals: [{ skill: 'lint', action: 'archive', reason: 'unused' }] }));

    const result = await iris(['curator', 'review']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('- lint: archive');
    expect(messagesOf('cur-m')).toHaveLength(1);
    expect(messagesOf('cur-fb')).toHaveLength(1);
    expect(promptOf(messagesOf('cur-fb')[0])).toContain('loads in the last 30 days: 0');
  });
});

describe('curator.schedule', () => {
  it('daily: the gateway reviews at start (no --apply), logs the report to gateway.log, and a restart does not review again', async () => {
    await configure('curator:\n  schedule: daily\nplatforms:\n  webhook:\n    enabled: true\n    extra:\n      host: 127.0.0.1\n      port: 0\n');
    fake.script('main-m', answer({ proposals: [{ skill: 'lint', action: 'archive', reason: 'unused' }] }));
    const gatewayEnv = { OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` };

    const first = await startGatewayProcess(home, gatewayEnv);
    try {
      await waitFor(async () => ((await reportFiles()).some((name) => name.endsWith('.md')) ? true : undefined), 10_000, 'the report file');
    } finally {
      await first.stop();
    }
    expect(messagesOf('main-m')).toHaveLength(1);
    expect(JSON.parse(await readFile(join(home, 'curator', 'last-run.json'), 'utf8'))).toEqual({ at: expect.any(Number) as number });
    const reports = (await readFile(join(home, 'logs', 'gateway.log'), 'utf8'))
      .split('\n')
      .filter((line) => line.includes('"msg":"curator report"'))
      .map((line) => JSON.parse(line) as { answer: string; deliver: string });
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ deliver: 'log' });
    expect(reports[0]!.answer).toContain('- lint: archive (0 loads in 30 days, last: none)\n  reason: unused');
    expect((await readdir(skills)).sort()).toEqual(['deploy', 'lint', 'old-deploy', 'review']);

    const second = await startGatewayProcess(home, gatewayEnv);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await second.stop();
    expect(messagesOf('main-m')).toHaveLength(1);
  });
});
