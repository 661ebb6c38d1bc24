// The Profiles card in Debian's chromium against the real `iris dashboard` and the fake upstream:
// Auto-generate asks the profile's own profile_describer slot and stores the paragraph in that
// profile's config.yaml (comments kept). Needs /usr/bin/chromium, like dashboard-ui.test.ts.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { parse } from 'yaml';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { collectPageErrors, launchChromium, startDashboard, type Dashboard } from '../helpers/dashboard-page.js';
import { startDashboardProcess } from '../helpers/dashboard.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

const CONFIG = '# the default profile\nmodel:\n  provider: openai\n  default: main-m\n';
const WORK_CONFIG = '# work: keep this comment\nmodel:\n  provider: openai\n  default: work-m\n';

let fake: FakeUpstream;
let dir: string;
let home: string;
let dashboard: Dashboard | undefined;
let browser: BrowserContext | undefined;
let page: Page;
let errors: string[];

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
  expect((await runIris(['profile', 'create', 'work'], { home })).code).toBe(0);
  await writeFile(join(home, 'profiles', 'work', 'config.yaml'), WORK_CONFIG, { mode: 0o600 });
});
afterEach(async () => {
  await browser?.close();
  await dashboard?.stop();
  browser = undefined;
  dashboard = undefined;
  await removeDir(dir);
});

const workConfig = () => readFile(join(home, 'profiles', 'work', 'config.yaml'), 'utf8');

async function openPage(): Promise<void> {
  dashboard = await startDashboard(home, { OPENAI_API_KEY: 'sk-openai-test-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` });
  browser = await launchChromium(join(dir, 'chromium-profile'), { width: 1280, height: 900 });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.setDefaultTimeout(10_000);
  errors = collectPageErrors(page);
  expect((await page.goto(dashboard.url))?.status()).toBe(200);
  await page.locator('[data-profile="work"]').waitFor();
}

describe('the Profiles card in chromium', { timeout: 60_000 }, () => {
  it('lists the profiles and Auto-generate writes the description with the profile\'s own model', async () => {
    fake.script('work-m', { kind: 'text', deltas: ['A profile for ', 'work tasks.'] });
    await openPage();
    const rows = page.locator('.profiles [data-profile]');
    expect(await rows.evaluateAll((els) => els.map((el) => (el as unknown as { dataset: { profile: string } }).dataset.profile))).toEqual(['default', 'work']);
    const work = page.locator('[data-profile="work"]');
    expect(await work.locator('.profile-description').textContent()).toBe('No description yet.');

    await work.getByRole('button', { name: 'Auto-generate a description of work' }).click();
    await work.getByText('A profile for work tasks.').waitFor();
    expect(fake.requests.map((r) => (r.body as { model?: string }).model)).toEqual(['work-m']);
    const text = await workConfig();
    expect(text.startsWith('# work: keep this comment\n')).toBe(true);
    expect(parse(text)).toMatchObject({ description: 'A profile for work tasks.' });
    expect(errors).toEqual([]);
  });

  it('shows a refusal inline and leaves config.yaml alone', async () => {
    fake.script('work-m', { kind: 'text', deltas: [' '] });
    await openPage();
    const work = page.locator('[data-profile="work"]');
    await work.getByRole('button', { name: 'Auto-generate a description of work' }).click();
    const alert = work.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('the profile_describer model gave a blank answer (malformed); the description was not changed');
    expect(await workConfig()).toBe(WORK_CONFIG);
    expect(await work.locator('.profile-description').textContent()).toBe('No description yet.');
  });
});

describe('the profile API', { timeout: 30_000 }, () => {
  it('needs the token, checks the body, and answers {ok, profile, description}', async () => {
    fake.script('work-m', { kind: 'text', deltas: ['Work words.'] });
    const dash = await startDashboardProcess(home, { OPENAI_API_KEY: 'sk-openai-test-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` });
    try {
      const post = async (body: unknown, token: string | null = dash.token) => {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (token !== null) headers['x-service-session-token'] = token;
        const response = await fetch(`${dash.url}/api/profile/describe`, { method: 'POST', headers, body: JSON.stringify(body) });
        return { status: response.status, json: await response.json() };
      };
      expect(await post({ profile: 'work' }, null)).toEqual({ status: 401, json: { error: 'Unauthorized' } });
      expect(fake.requests).toEqual([]);
      expect(await post({ name: 'work' })).toEqual({ status: 422, json: { error: 'send {"profile": "<name>"}' } });
      expect(await post({ profile: 'nope' })).toEqual({ status: 404, json: { error: 'no profile "nope"; see iris profile list' } });
      expect(await post({ profile: 'work' })).toEqual({ status: 200, json: { ok: true, profile: 'work', description: 'Work words.' } });
      const list = await fetch(`${dash.url}/api/profiles`, { headers: { 'x-service-session-token': dash.token } });
      expect(await list.json()).toEqual({
        profiles: [
          { name: 'default', active: true, description: '' },
          { name: 'work', active: false, description: 'Work words.' },
        ],
      });
    } finally {
      await dash.stop();
    }
  });
});
