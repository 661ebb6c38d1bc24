// The Skills API (issue 39) against the real `iris dashboard`, the fake model upstream (the
// skills_hub slot on auto: the main model) and a hub index on disk: the token and Host checks,
// bad bodies and names, the list with its load counts, a hub search (usage counted under
// `dashboard`), install and remove (audited, the CLI agrees), and the curator's last report with
// Apply for its archive proposals only.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { dashboardApi, startDashboardProcess, type DashboardProcess } from '../helpers/dashboard.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

const RULE = 'must match ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64) and cannot contain ".."';
const PDF_TOOLS = '---\nname: pdf-tools\ndescription: Split and merge PDF files\n---\nUse qpdf --split-pages.\n';
const KEYS = { OPENAI_API_KEY: 'sk-openai-test-0123456789' };

let fake: FakeUpstream;
let dir: string;
let home: string;
let hub: string;
let skills: string;

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  dir = await makeTempDir('iris-dashboard-skills-');
  home = join(dir, 'home');
  skills = join(home, 'skills');
  hub = join(dir, 'hub', 'index.json');
  await mkdir(join(dir, 'hub'), { recursive: true });
  await mkdir(home, { recursive: true, mode: 0o700 });
  await writeFile(hub, JSON.stringify({ skills: [
    { name: 'pdf-tools', description: 'Split and merge PDF files', url: 'pdf-tools.md', tags: ['documents'] },
    { name: 'weather', description: 'Forecasts for a city', url: 'weather.md' },
  ] }));
  await writeFile(join(dir, 'hub', 'pdf-tools.md'), PDF_TOOLS);
  await writeFile(join(home, 'config.yaml'), `model:\n  provider: openai\n  default: main-m\nskills:\n  hubs:\n    - ${hub}\n`, { mode: 0o600 });
  await writeFile(join(home, '.env'), `OPENAI_BASE_URL=${fake.url}/v1\n`, { mode: 0o600 });
  for (const [name, description] of [['deploy', 'Deploys the service.'], ['lint', 'Runs the linter.'], ['review', 'Reviews.']] as const) {
    await mkdir(join(skills, name), { recursive: true });
    await writeFile(join(skills, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\nThe steps of ${name}.\n`);
  }
});
afterEach(() => removeDir(dir));

async function seedLoads(loads: ReadonlyArray<[string, number]>): Promise<void> {
  const store = await openSqliteStore(join(home, 'state.db'));
  try {
    for (const [skill, at] of loads) await store.skillLoads.record(skill, null, at);
  } finally {
    await store.close();
  }
}

type AuditRow = { action: string; target: string; ok: boolean; reason?: string };
async function auditRows(): Promise<Array<[string, string, boolean, string]>> {
  const text = await readFile(join(home, 'logs', 'audit.log'), 'utf8');
  return text.trim().split('\n').map((line) => JSON.parse(line) as AuditRow).map((row) => [row.action, row.target, row.ok, row.reason ?? '']);
}

const PROPOSALS = {
  proposals: [
    { skill: 'deploy', action: 'keep', reason: 'loaded often' },
    { skill: 'lint', action: 'archive', reason: 'never loaded' },
    { skill: 'review', action: 'rewrite', reason: 'too vague', description: 'Reviews a pull request.' },
  ],
};

describe('the skills API', { timeout: 90_000 }, () => {
  let dash: DashboardProcess;
  beforeEach(async () => {
    dash = await startDashboardProcess(home, KEYS);
  });
  afterEach(() => dash.stop());

  const { answer } = dashboardApi(() => dash);

  const ENDPOINTS = [
    ['GET', '/api/skills', undefined],
    ['GET', '/api/skills/hub?q=pdf', undefined],
    ['POST', '/api/skills', { name: 'pdf-tools' }],
    ['DELETE', '/api/skills/lint', undefined],
    ['GET', '/api/curator', undefined],
    ['POST', '/api/curator/apply', { proposals: ['archive:lint'] }],
  ] as const;

  it('needs the token and the right Host on every endpoint, and changes nothing without them', async () => {
    for (const [method, path, body] of ENDPOINTS) {
      expect([method, path, ...(await answer(path, { method, body, token: null }))]).toEqual([method, path, 401, { error: 'Unauthorized' }]);
      expect([method, path, ...(await answer(path, { method, body, token: 'wrong' }))]).toEqual([method, path, 401, { error: 'Unauthorized' }]);
      expect([method, path, ...(await answer(path, { method, body, host: 'evil.example:80' }))]).toEqual([method, path, 400, { error: 'Invalid Host header' }]);
    }
    expect((await readdir(skills)).sort()).toEqual(['deploy', 'lint', 'review']);
    expect(fake.requests).toHaveLength(0);
    await expect(readFile(join(home, 'logs', 'audit.log'), 'utf8')).rejects.toThrow('ENOENT');
  });

  it('refuses bad bodies, bad names and paths with 400, audited, and nothing changes', async () => {
    expect(await answer('/api/skills', { body: { name: '../x' } })).toEqual([400, { error: `skill name "../x" ${RULE}` }]);
    expect(await answer('/api/skills', { body: { source: '/etc/passwd' } })).toEqual([400, { error: '"source" must be an http(s) URL of a SKILL.md (install from a path with iris skills install)' }]);
    expect(await answer('/api/skills', { body: { name: 'pdf-tools', source: 'https://x.example/a.md' } })).toEqual([400, { error: 'give exactly one of "name" (a skill in the hubs) or "source" (a SKILL.md URL)' }]);
    expect(await answer('/api/skills', { body: { title: 'x' } })).toEqual([400, { error: 'the body must be {"name": "<skill in a hub>"} or {"source": "<https URL of a SKILL.md>"}, with an optional "force": true' }]);
    expect(await answer('/api/skills', { raw: '{nope' })).toEqual([400, { error: 'the body is not JSON' }]);
    expect(await answer('/api/skills/..%2Fx', { method: 'DELETE' })).toEqual([400, { error: `skill name "../x" ${RULE}` }]);
    expect(await answer('/api/skills/Lint', { method: 'DELETE' })).toEqual([400, { error: `skill name "Lint" ${RULE}` }]);
    expect(await answer('/api/skills/hub')).toEqual([400, { error: 'give a search: /api/skills/hub?q=<words>' }]);
    expect(await answer(`/api/skills/hub?q=${'a'.repeat(201)}`)).toEqual([400, { error: 'the search is longer than 200 characters' }]);
    expect(await answer('/api/curator/apply', { body: { proposals: 'archive:lint' } })).toEqual([400, { error: 'the body must be {"proposals": ["<proposal id>", …]} (ids from GET /api/curator)' }]);
    expect(await answer('/api/curator/apply', { body: {} })).toEqual([400, { error: 'the body must be {"proposals": ["<proposal id>", …]} (ids from GET /api/curator)' }]);
    expect((await readdir(skills)).sort()).toEqual(['deploy', 'lint', 'review']);
    expect(await auditRows()).toEqual([
      ['skills.install', '../x', false, `400: skill name "../x" ${RULE}`],
      ['skills.install', '/etc/passwd', false, '400: "source" must be an http(s) URL of a SKILL.md (install from a path with iris skills install)'],
      ['skills.install', 'pdf-tools', false, '400: give exactly one of "name" (a skill in the hubs) or "source" (a SKILL.md URL)'],
      ['skills.install', '', false, '400: the body must be {"name": "<skill in a hub>"} or {"source": "<https URL of a SKILL.md>"}, with an optional "force": true'],
      ['skills.install', '', false, '400: the body is not JSON'],
      ['skills.remove', '../x', false, `400: skill name "../x" ${RULE}`],
      ['skills.remove', 'Lint', false, `400: skill name "Lint" ${RULE}`],
      ['curator.apply', '', false, '400: the body must be {"proposals": ["<proposal id>", …]} (ids from GET /api/curator)'],
      ['curator.apply', '', false, '400: the body must be {"proposals": ["<proposal id>", …]} (ids from GET /api/curator)'],
    ]);
  });

  it('lists the installed skills with their load counts and last loads from the store', async () => {
    const t1 = Date.UTC(2026, 10, 20, 9, 0, 0);
    const t2 = Date.UTC(2026, 10, 21, 10, 30, 0);
    await seedLoads([['deploy', t1], ['deploy', t2], ['review', t1], ['gone', t2]]);
    expect(await answer('/api/skills')).toEqual([
      200,
      {
        skills: [
          { name: 'deploy', description: 'Deploys the service.', path: join(skills, 'deploy', 'SKILL.md'), source: null, installed_at: null, loads: 2, last_load_at: new Date(t2).toISOString() },
          { name: 'lint', description: 'Runs the linter.', path: join(skills, 'lint', 'SKILL.md'), source: null, installed_at: null, loads: 0, last_load_at: null },
          { name: 'review', description: 'Reviews.', path: join(skills, 'review', 'SKILL.md'), source: null, installed_at: null, loads: 1, last_load_at: new Date(t1).toISOString() },
        ],
        invalid: [],
      },
    ]);
  });

  it('searches the hubs through the skills_hub slot (usage under dashboard); a failing slot is a 502 with its reason', async () => {
    fake.script('main-m', { kind: 'text', deltas: [JSON.stringify({ results: [{ name: 'pdf-tools', reason: 'It splits PDFs.' }] })] });
    expect(await answer('/api/skills/hub?q=pdf')).toEqual([
      200,
      {
        query: 'pdf',
        ranked: true,
        results: [{ name: 'pdf-tools', description: 'Split and merge PDF files', source: hub, url: join(dir, 'hub', 'pdf-tools.md'), tags: ['documents'], reason: 'It splits PDFs.' }],
        failed_hubs: [],
        warnings: [],
      },
    ]);
    expect(fake.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(1);
    const usage = await runIris(['usage', '--by', 'source', '--json'], { home, env: KEYS });
    expect((JSON.parse(usage.stdout) as Array<{ key: string; calls: number }>).map((row) => [row.key, row.calls])).toEqual([['dashboard', 1]]);

    fake.script('main-m', { kind: 'error', status: 400 });
    const [status, body] = await answer('/api/skills/hub?q=pdf');
    expect(status).toBe(502);
    expect(body).toMatchObject({ error: expect.stringMatching(/^the skills_hub slot failed: .+; showing the prefilter order$/) as string, ranked: false, results: [{ name: 'pdf-tools', reason: null }] });

    await writeFile(join(home, 'config.yaml'), 'model:\n  provider: openai\n  default: main-m\n', { mode: 0o600 });
    expect(await answer('/api/skills/hub?q=pdf')).toEqual([404, { error: 'no skills hubs: list the URLs or paths of hub indexes under skills.hubs in config.yaml (docs/skills.md)' }]);
  });

  it('installs by hub name (the exact bytes, its origin kept) and removes, each audited; the CLI agrees', async () => {
    expect(await answer('/api/skills', { body: { name: 'pdf-tools' } })).toEqual([
      200,
      { ok: true, installed: 'pdf-tools', description: 'Split and merge PDF files', path: join(skills, 'pdf-tools', 'SKILL.md'), from: join(dir, 'hub', 'pdf-tools.md'), source: hub, replaced: false },
    ]);
    expect(await readFile(join(skills, 'pdf-tools', 'SKILL.md'), 'utf8')).toBe(PDF_TOOLS);
    expect(await answer('/api/skills', { body: { name: 'pdf-tools' } })).toEqual([409, { error: `skill "pdf-tools" is already installed (${join(skills, 'pdf-tools', 'SKILL.md')}); --force replaces it` }]);
    expect(await answer('/api/skills', { body: { name: 'nope' } })).toEqual([404, { error: 'no skill named "nope" in the skills hubs (iris skills search finds them)' }]);
    // A URL goes through the fetch guard: loopback is refused, and nothing is written.
    expect(await answer('/api/skills', { body: { source: 'http://127.0.0.1:9/evil/SKILL.md' } })).toEqual([502, { error: expect.stringContaining('refused: 127.0.0.1 is loopback') as string }]);
    const listed = (await answer('/api/skills'))[1] as { skills: Array<{ name: string; source: string | null }> };
    expect(listed.skills.map((s) => [s.name, s.source])).toEqual([['deploy', null], ['lint', null], ['pdf-tools', hub], ['review', null]]);

    expect(await answer('/api/skills/pdf-tools', { method: 'DELETE' })).toEqual([200, { ok: true, removed: 'pdf-tools' }]);
    expect(await answer('/api/skills/pdf-tools', { method: 'DELETE' })).toEqual([404, { error: 'no skill named "pdf-tools"' }]);
    const cli = await runIris(['skills', 'list', '--json'], { home });
    expect((JSON.parse(cli.stdout) as { skills: Array<{ name: string }> }).skills.map((s) => s.name)).toEqual(['deploy', 'lint', 'review']);
    expect((await auditRows()).map(([action, target, ok]) => [action, target, ok])).toEqual([
      ['skills.install', 'pdf-tools', true],
      ['skills.install', 'pdf-tools', false],
      ['skills.install', 'nope', false],
      ['skills.install', 'http://127.0.0.1:9/evil/SKILL.md', false],
      ['skills.remove', 'pdf-tools', true],
      ['skills.remove', 'pdf-tools', false],
    ]);
  });

  it("shows the curator's last report and applies only its archive proposals", async () => {
    expect(await answer('/api/curator')).toEqual([200, { report: null }]);
    fake.script('main-m', { kind: 'text', deltas: [JSON.stringify(PROPOSALS)] });
    const review = await runIris(['curator', 'review'], { home, env: KEYS });
    expect(review.code).toBe(0);
    const date = new Date().toISOString().slice(0, 10);

    const [status, body] = await answer('/api/curator');
    expect(status).toBe(200);
    const report = (body as { report: Record<string, unknown> }).report;
    expect(report).toMatchObject({ date, path: join(home, 'curator', `${date}.md`), days: 30, has_data: true, invalid: [] });
    expect(report.text).toBe(review.stdout.slice(0, review.stdout.indexOf('report: ')));
    expect(report.proposals).toEqual([
      { id: 'keep:deploy', skill: 'deploy', action: 'keep', reason: 'loaded often', into: null, description: null, installed: true },
      { id: 'archive:lint', skill: 'lint', action: 'archive', reason: 'never loaded', into: null, description: null, installed: true },
      { id: 'rewrite:review', skill: 'review', action: 'rewrite', reason: 'too vague', into: null, description: 'Reviews a pull request.', installed: true },
    ]);

    expect(await answer('/api/curator/apply', { body: { proposals: ['keep:deploy'] } })).toEqual([400, { error: 'proposal "keep:deploy" is a keep proposal; only archive proposals can be applied' }]);
    expect(await answer('/api/curator/apply', { body: { proposals: ['archive:lint', 'archive:nope'] } })).toEqual([400, { error: 'no proposal "archive:nope" in the last curator report' }]);
    expect(await answer('/api/curator/apply', { body: { proposals: [] } })).toEqual([400, { error: 'name at least one proposal to apply' }]);
    expect((await readdir(skills)).sort()).toEqual(['deploy', 'lint', 'review']);

    expect(await answer('/api/curator/apply', { body: { proposals: ['archive:lint'] } })).toEqual([200, { ok: true, report: join(home, 'curator', `${date}.md`), archived: [{ skill: 'lint', to: join(skills, '.archive', 'lint') }] }]);
    expect((await readdir(skills)).sort()).toEqual(['.archive', 'deploy', 'review']);
    expect(await answer('/api/curator/apply', { body: { proposals: ['archive:lint'] } })).toEqual([409, { error: 'skill "lint" is no longer installed (already archived or removed)' }]);
    expect(((await answer('/api/curator'))[1] as { report: { proposals: Array<{ id: string; installed: boolean }> } }).report.proposals.map((p) => [p.id, p.installed])).toEqual([
      ['keep:deploy', true],
      ['archive:lint', false],
      ['rewrite:review', true],
    ]);
    expect((await auditRows()).filter(([action]) => action === 'curator.apply').map(([, target, ok, reason]) => [target, ok, reason])).toEqual([
      ['keep:deploy', false, '400: proposal "keep:deploy" is a keep proposal; only archive proposals can be applied'],
      ['archive:lint,archive:nope', false, '400: no proposal "archive:nope" in the last curator report'],
      ['', false, '400: name at least one proposal to apply'],
      ['archive:lint', true, ''],
      ['archive:lint', false, '409: skill "lint" is no longer installed (already archived or removed)'],
    ]);
  });
});
