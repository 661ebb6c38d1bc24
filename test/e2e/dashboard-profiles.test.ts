// The Profiles page (issue 38) against the real `iris dashboard` and the fake upstream: the REST
// endpoints (list, create, edit, Auto-generate, delete, switch) with their refusals and audit
// lines, and the page in Debian's chromium (needs /usr/bin/chromium, like dashboard-ui.test.ts).
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { parse } from 'yaml';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { collectPageErrors, launchChromium, seedUsage, startDashboard, type Dashboard } from '../helpers/dashboard-page.js';
import { dashboardApi, startDashboardProcess, type DashboardProcess } from '../helpers/dashboard.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

// What the page.evaluate callbacks use on the browser side (the tests' tsconfig has no DOM types).
declare const document: { readonly activeElement: unknown; readonly documentElement: { readonly scrollWidth: number } };

const RULE = 'must match ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64) and cannot contain ".."';
const CONFIG = '# the default profile\nmodel:\n  provider: openai\n  default: main-m\n';
const WORK_CONFIG = '# work: keep this comment\nmodel:\n  provider: openai\n  default: work-m\n';
const KEYS = { OPENAI_API_KEY: 'sk-openai-test-0123456789' };

let fake: FakeUpstream;
let dir: string;
let home: string;

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  dir = await makeTempDir('iris-dashboard-profiles-');
  home = join(dir, 'home');
  await mkdir(home, { recursive: true, mode: 0o700 });
  await writeFile(join(home, 'config.yaml'), CONFIG, { mode: 0o600 });
  await writeFile(join(home, '.env'), `OPENAI_BASE_URL=${fake.url}/v1\n`, { mode: 0o600 });
});
afterEach(() => removeDir(dir));

const profileConfig = (name: string) => readFile(join(home, 'profiles', name, 'config.yaml'), 'utf8');

type AuditRow = { actor: string; action: string; target: string; ok: boolean; reason?: string };
async function auditRows(): Promise<Array<[string, string, boolean, string]>> {
  const text = await readFile(join(home, 'logs', 'audit.log'), 'utf8');
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as AuditRow)
    .map((row) => [row.action, row.target, row.ok, row.reason ?? '']);
}

describe('the profiles API', { timeout: 60_000 }, () => {
  let dash: DashboardProcess;
  beforeEach(async () => {
    expect((await runIris(['profile', 'create', 'work'], { home })).code).toBe(0);
    await writeFile(join(home, 'profiles', 'work', 'config.yaml'), WORK_CONFIG, { mode: 0o600 });
    await writeFile(join(home, 'profiles', 'work', '.env'), `OPENAI_BASE_URL=${fake.url}/v1\n`, { mode: 0o600 });
    dash = await startDashboardProcess(home, KEYS);
  });
  afterEach(() => dash.stop());

  const { send, answer } = dashboardApi(() => dash);

  const ENDPOINTS = [
    ['GET', '/api/profiles', undefined],
    ['POST', '/api/profiles', { name: 'x' }],
    ['PATCH', '/api/profiles/work', { description: 'x' }],
    ['DELETE', '/api/profiles/work', undefined],
    ['POST', '/api/profiles/switch', { name: 'work' }],
  ] as const;

  it('needs the token and the right Host on every endpoint, and changes nothing without them', async () => {
    for (const [method, path, body] of ENDPOINTS) {
      expect([method, path, ...(await answer(path, { method, body, token: null }))]).toEqual([method, path, 401, { error: 'Unauthorized' }]);
      expect([method, path, ...(await answer(path, { method, body, token: 'wrong' }))]).toEqual([method, path, 401, { error: 'Unauthorized' }]);
      expect([method, path, ...(await answer(path, { method, body, host: 'evil.example:80' }))]).toEqual([method, path, 400, { error: 'Invalid Host header' }]);
    }
    expect((await readdir(join(home, 'profiles'))).sort()).toEqual(['work']);
    expect(await profileConfig('work')).toBe(WORK_CONFIG);
    await expect(readFile(join(home, 'logs', 'audit.log'), 'utf8')).rejects.toThrow('ENOENT');
  });

  it('lists, creates a copy, edits, marks an Auto-generated description, switches and deletes, each audited', async () => {
    expect(await answer('/api/profiles')).toEqual([
      200,
      {
        served: 'default',
        stored_default: 'default',
        profiles: [
          { name: 'default', description: '', generated: false, active: true },
          { name: 'work', description: '', generated: false, active: false },
        ],
      },
    ]);

    // Create: a copy of work (config.yaml and .env), then refusals.
    expect(await answer('/api/profiles', { body: { name: 'lab', clone_from: 'work' } })).toEqual([201, { ok: true, name: 'lab', cloned_from: 'work', cloned: ['config.yaml', '.env'] }]);
    expect(await profileConfig('lab')).toBe(WORK_CONFIG);
    expect(await answer('/api/profiles', { body: { name: 'lab' } })).toEqual([409, { error: 'profile "lab" already exists' }]);
    expect(await answer('/api/profiles', { body: { name: '../../x' } })).toEqual([400, { error: `profile name "../../x" ${RULE}` }]);
    expect(await answer('/api/profiles', { body: { name: 'y', clone_from: 'nope' } })).toEqual([404, { error: 'no profile "nope"; see iris profile list' }]);
    expect(await answer('/api/profiles', { body: { title: 'y' } })).toEqual([400, { error: 'send {"name": "<new profile>", "clone_from"?: "<profile to copy config.yaml and .env from>"}' }]);
    expect(await answer('/api/profiles', { raw: '{nope' })).toEqual([400, { error: 'the body is not JSON' }]);

    // Auto-generate: stored with the mark, which the CLI reads too; a person's edit clears it.
    fake.script('work-m', { kind: 'text', deltas: ['A lab for ', 'experiments.'] });
    expect(await answer('/api/profile/describe', { body: { profile: 'lab' } })).toEqual([200, { ok: true, profile: 'lab', description: 'A lab for experiments.', generated: true }]);
    expect(parse(await profileConfig('lab'))).toMatchObject({ description: 'A lab for experiments.', description_generated: true });
    expect((await profileConfig('lab')).startsWith('# work: keep this comment\n')).toBe(true);
    const cliMark = await runIris(['-p', 'lab', 'config', 'get', 'description_generated'], { home });
    expect([cliMark.code, cliMark.stdout, cliMark.stderr]).toEqual([0, 'true\n', '']);
    expect((await send('/api/profiles')).json).toMatchObject({ profiles: [{ name: 'default' }, { name: 'lab', generated: true }, { name: 'work' }] });
    expect(await answer('/api/profiles/lab', { method: 'PATCH', body: { description: 'My lab.\n' } })).toEqual([200, { ok: true, name: 'lab', description: 'My lab.', generated: false }]);
    expect(parse(await profileConfig('lab'))).toEqual({ description: 'My lab.', model: { provider: 'openai', default: 'work-m' } });
    expect(await answer('/api/profiles/nope', { method: 'PATCH', body: { description: 'x' } })).toEqual([404, { error: 'no profile "nope"; see iris profile list' }]);
    expect(await answer('/api/profiles/Lab', { method: 'PATCH', body: { description: 'x' } })).toEqual([400, { error: `profile name "Lab" ${RULE}` }]);
    expect(await answer('/api/profiles/lab', { method: 'PATCH', body: { description: 7 } })).toEqual([400, { error: 'send {"description": "<one paragraph>"} ("" removes it)' }]);

    // Switch: every endpoint now reads work's config.yaml and store.
    await seedUsage(join(home, 'profiles', 'work'), [{ at: Date.now(), provider: 'openai', model: 'work-m', task: 'main', source: 'cli', inputTokens: 100, outputTokens: 10, cachedTokens: 0, cacheWriteTokens: 0, costUsd: 0.5 }]);
    expect((await send('/api/model/auxiliary')).json).toMatchObject({ main: { provider: 'openai', model: 'main-m' } });
    expect((await send('/api/usage')).json).toMatchObject({ models: [] });
    expect(await answer('/api/profiles/switch', { body: { name: 'work' } })).toEqual([200, { ok: true, served: 'work' }]);
    expect((await send('/api/model/auxiliary')).json).toMatchObject({ main: { provider: 'openai', model: 'work-m' } });
    expect((await send('/api/usage')).json).toMatchObject({ models: [{ provider: 'openai', model: 'work-m' }] });
    expect((await send('/api/profiles')).json).toMatchObject({ served: 'work', profiles: [{ name: 'default', active: false }, { name: 'lab', active: false }, { name: 'work', active: true }] });
    expect(await answer('/api/profiles/switch', { body: { name: 'nope' } })).toEqual([404, { error: 'no profile "nope"; see iris profile list' }]);
    expect(await answer('/api/profiles/switch', { body: { name: '/etc' } })).toEqual([400, { error: `profile name "/etc" ${RULE}` }]);
    expect(await answer('/api/profiles/switch', { body: {} })).toEqual([400, { error: 'send {"name": "<profile to serve>"}' }]);

    // Delete: never default, never the one served; else to .trash.
    expect(await answer('/api/profiles/default', { method: 'DELETE' })).toEqual([400, { error: 'the default profile is the home itself and cannot be deleted' }]);
    expect(await answer('/api/profiles/work', { method: 'DELETE' })).toEqual([409, { error: 'profile "work" is the one this dashboard serves; switch to another first' }]);
    expect(await answer('/api/profiles/nope', { method: 'DELETE' })).toEqual([404, { error: 'no profile "nope"; see iris profile list' }]);
    expect(await answer('/api/profiles/..', { method: 'DELETE' })).toEqual([404, { error: 'Not found' }]);
    expect(await answer('/api/profiles/a%2F..', { method: 'DELETE' })).toEqual([400, { error: `profile name "a/.." ${RULE}` }]);
    const deleted = await send('/api/profiles/lab', { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    const movedTo = (deleted.json as { moved_to: string }).moved_to;
    expect(deleted.json).toEqual({ ok: true, name: 'lab', moved_to: movedTo });
    expect(movedTo.startsWith(join(home, 'profiles', '.trash', 'lab-'))).toBe(true);
    expect((await readdir(join(home, 'profiles'))).sort()).toEqual(['.trash', 'work']);
    expect(await answer('/api/profiles/switch', { body: { name: 'default' } })).toEqual([200, { ok: true, served: 'default' }]);
    expect((await send('/api/model/auxiliary')).json).toMatchObject({ main: { provider: 'openai', model: 'main-m' } });

    expect(await auditRows()).toEqual([
      ['profile.create', 'lab', true, ''],
      ['profile.create', 'lab', false, '409: profile "lab" already exists'],
      ['profile.create', '../../x', false, `400: profile name "../../x" ${RULE}`],
      ['profile.create', 'y', false, '404: no profile "nope"; see iris profile list'],
      ['profile.create', '', false, '400: send {"name": "<new profile>", "clone_from"?: "<profile to copy config.yaml and .env from>"}'],
      ['profile.create', '', false, '400: the body is not JSON'],
      ['profile.describe', 'lab', true, ''],
      ['profile.edit', 'lab', true, ''],
      ['profile.edit', 'nope', false, '404: no profile "nope"; see iris profile list'],
      ['profile.edit', 'Lab', false, `400: profile name "Lab" ${RULE}`],
      ['profile.edit', 'lab', false, '400: send {"description": "<one paragraph>"} ("" removes it)'],
      ['profile.switch', 'work', true, ''],
      ['profile.switch', 'nope', false, '404: no profile "nope"; see iris profile list'],
      ['profile.switch', '/etc', false, `400: profile name "/etc" ${RULE}`],
      ['profile.switch', '', false, '400: send {"name": "<profile to serve>"}'],
      ['profile.delete', 'default', false, '400: the default profile is the home itself and cannot be deleted'],
      ['profile.delete', 'work', false, '409: profile "work" is the one this dashboard serves; switch to another first'],
      ['profile.delete', 'nope', false, '404: no profile "nope"; see iris profile list'],
      ['profile.delete', 'a/..', false, `400: profile name "a/.." ${RULE}`],
      ['profile.delete', 'lab', true, ''],
      ['profile.switch', 'default', true, ''],
    ]);
  });

  it('refuses to delete the default that iris commands use (409)', async () => {
    expect((await runIris(['profile', 'use', 'work'], { home })).code).toBe(0);
    expect(await answer('/api/profiles/work', { method: 'DELETE' })).toEqual([409, { error: 'profile "work" is the default for iris commands; change it first (iris profile use default)' }]);
    expect((await send('/api/profiles')).json).toMatchObject({ served: 'default', stored_default: 'work' });
  });
});

describe('the Profiles page in chromium', { timeout: 90_000 }, () => {
  let dashboard: Dashboard | undefined;
  let browser: BrowserContext | undefined;
  let page: Page;
  let errors: string[];

  afterEach(async () => {
    await browser?.close();
    await dashboard?.stop();
    browser = undefined;
    dashboard = undefined;
  });

  async function openPage(hash: string): Promise<void> {
    dashboard = await startDashboard(home, KEYS);
    browser = await launchChromium(join(dir, 'chromium-profile'), { width: 1280, height: 900 });
    page = browser.pages()[0] ?? (await browser.newPage());
    page.setDefaultTimeout(10_000);
    errors = collectPageErrors(page);
    expect((await page.goto(`${dashboard.url}${hash}`))?.status()).toBe(200);
  }

  it('creates a copy of default, Auto-generates (marked), edits (unmarked), serves it (Models follows) and deletes it after asking', async () => {
    await openPage('#/profiles');
    await page.locator('[data-profile="default"]').waitFor();
    expect(await page.locator('.profiles-empty').textContent()).toContain('Only the default profile so far.');

    // Create, cloned from default.
    await page.getByLabel('Name').fill('lab');
    await page.getByLabel('Start from').selectOption('default');
    await page.getByRole('button', { name: 'Create profile' }).click();
    const lab = page.locator('[data-profile="lab"]');
    await lab.waitFor();
    expect(await page.getByRole('status').textContent()).toBe('Created profile lab, a copy of default.');
    expect(await profileConfig('lab')).toBe(CONFIG);
    expect(await page.locator('.profiles-empty').count()).toBe(0);

    // Auto-generate: with lab's own model (a copy of default's), marked "generated".
    fake.script('main-m', { kind: 'text', deltas: ['A lab ', 'profile.'] });
    await lab.getByRole('button', { name: 'Auto-generate a description of lab' }).click();
    await lab.locator('.badge.generated').waitFor();
    expect(await lab.locator('.profile-description').textContent()).toBe('A lab profile.generated');
    expect(parse(await profileConfig('lab'))).toMatchObject({ description: 'A lab profile.', description_generated: true });

    // A person's edit (keyboard: Ctrl+Enter saves) clears the mark.
    await lab.getByRole('button', { name: 'Edit the description of lab' }).click();
    const field = lab.getByLabel('Description');
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    await field.fill('Experiments only.');
    await field.press('Control+Enter');
    // The saved text, not the textarea still holding it: the row shows it once the server answered.
    await lab.locator('.profile-description', { hasText: 'Experiments only.' }).waitFor();
    expect(await page.getByRole('status').textContent()).toBe('Saved the description of lab.');
    expect(await lab.locator('.badge.generated').count()).toBe(0);
    expect(parse(await profileConfig('lab'))).toEqual({ description: 'Experiments only.', model: { provider: 'openai', default: 'main-m' } });

    // Serve lab: the UI reloads, and the Models page shows lab's model once lab's config changes.
    await writeFile(join(home, 'profiles', 'lab', 'config.yaml'), 'description: Experiments only.\nmodel:\n  provider: openai\n  default: lab-m\n');
    await lab.getByRole('button', { name: 'Serve profile lab in this dashboard' }).click();
    await page.locator('[data-profile="lab"] .badge.current').waitFor();
    expect(await page.locator('.served-name').textContent()).toBe('lab');
    expect(await page.locator('[data-profile="lab"]').getByRole('button', { name: 'Delete profile lab' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Models' }).click();
    await page.getByText('lab-m').first().waitFor();

    // Back to default, then delete lab: it asks first, and Keep it keeps it.
    await page.getByRole('link', { name: 'Profiles' }).click();
    await page.getByRole('button', { name: 'Serve profile default in this dashboard' }).click();
    await page.locator('[data-profile="default"] .badge.current').waitFor();
    const again = page.locator('[data-profile="lab"]');
    await again.getByRole('button', { name: 'Delete profile lab' }).click();
    const confirm = again.getByRole('group', { name: 'Delete profile lab?' });
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    expect(await again.getByRole('group').count()).toBe(0);
    await again.getByRole('button', { name: 'Delete profile lab' }).click();
    await again.getByRole('button', { name: 'Delete lab' }).click();
    await page.getByText('Deleted profile lab: its folder is in profiles/.trash.').waitFor();
    expect(await page.locator('[data-profile="lab"]').count()).toBe(0);
    expect((await readdir(join(home, 'profiles'))).sort()).toEqual(['.trash']);
    expect(await page.locator('[data-profile="default"]').getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('shows a refused Auto-generate inline and leaves config.yaml alone', async () => {
    expect((await runIris(['profile', 'create', 'work'], { home })).code).toBe(0);
    await writeFile(join(home, 'profiles', 'work', 'config.yaml'), WORK_CONFIG, { mode: 0o600 });
    await writeFile(join(home, 'profiles', 'work', '.env'), `OPENAI_BASE_URL=${fake.url}/v1\n`, { mode: 0o600 });
    fake.script('work-m', { kind: 'text', deltas: [' '] });
    await openPage('#/profiles');
    const work = page.locator('[data-profile="work"]');
    await work.getByRole('button', { name: 'Auto-generate a description of work' }).click();
    const alert = work.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('the profile_describer model gave a blank answer (malformed); the description was not changed');
    expect(await profileConfig('work')).toBe(WORK_CONFIG);
    expect(await work.locator('.badge.generated').count()).toBe(0);
  });

  it('fits 390 px without scrolling sideways, and refuses a bad name before sending it', async () => {
    await openPage('#/profiles');
    await page.setViewportSize({ width: 390, height: 800 });
    await page.locator('[data-profile="default"]').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByLabel('Name').fill('Bad/Name');
    await page.getByLabel('Name').press('Enter');
    expect(await page.getByRole('alert').textContent()).toBe(
      'A profile name must match ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64) and cannot contain "..".',
    );
    expect(await readdir(home)).not.toContain('profiles');
  });
});
