// The Skills page in Debian's chromium against the real `iris dashboard`: a skill's load count from
// the store, Remove (the page asks first) after which `iris skills list --json` no longer has it,
// a hub search and Install, and the curator's last report (written by `iris curator review` with
// the fake model) with Apply moving only the archive proposal's skill to skills/.archive/.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { collectPageErrors, launchChromium, startDashboard, type Dashboard } from '../helpers/dashboard-page.js';
import { waitFor } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

// What the page.evaluate callbacks use on the browser side (the tests' tsconfig has no DOM types).
declare const document: { readonly documentElement: { readonly scrollWidth: number; readonly clientWidth: number } };

let fake: FakeUpstream;
let dir: string;
let home: string;
let skills: string;
let dashboard: Dashboard | undefined;
let browser: BrowserContext | undefined;
let page: Page;

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  dir = await makeTempDir('iris-skills-ui-');
  home = join(dir, 'home');
  skills = join(home, 'skills');
  await mkdir(join(dir, 'hub'), { recursive: true });
  await mkdir(home, { recursive: true, mode: 0o700 });
  const hub = join(dir, 'hub', 'index.json');
  await writeFile(hub, JSON.stringify({ skills: [{ name: 'pdf-tools', description: 'Split and merge PDF files', url: 'pdf-tools.md' }] }));
  await writeFile(join(dir, 'hub', 'pdf-tools.md'), '---\nname: pdf-tools\ndescription: Split and merge PDF files\n---\nUse qpdf.\n');
  await writeFile(join(home, 'config.yaml'), `model:\n  provider: openai\n  default: main-m\nskills:\n  hubs:\n    - ${hub}\n`, { mode: 0o600 });
  for (const [name, description] of [['deploy', 'Deploys the service.'], ['lint', 'Runs the linter.'], ['review', 'Reviews.']] as const) {
    await mkdir(join(skills, name), { recursive: true });
    await writeFile(join(skills, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\nThe steps of ${name}.\n`);
  }
  const store = await openSqliteStore(join(home, 'state.db'));
  try {
    for (let i = 0; i < 3; i += 1) await store.skillLoads.record('deploy', null, Date.UTC(2026, 10, 20, 9, i));
    await store.skillLoads.record('review', null, Date.UTC(2026, 10, 21, 7, 0));
  } finally {
    await store.close();
  }
});
afterEach(async () => {
  await browser?.close();
  await dashboard?.stop();
  browser = undefined;
  dashboard = undefined;
  await removeDir(dir);
});

const env = () => ({ OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` });

async function openSkills(width = 1280): Promise<string[]> {
  dashboard = await startDashboard(home, env());
  browser = await launchChromium(join(dir, 'chromium-profile'), { width, height: 900 });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.setDefaultTimeout(10_000);
  const errors = collectPageErrors(page);
  await page.goto(`${dashboard.url}#/skills`);
  await page.getByRole('heading', { name: 'Skills', level: 1 }).waitFor();
  return errors;
}

async function cliSkills(): Promise<string[]> {
  const result = await runIris(['skills', 'list', '--json'], { home });
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout) as { skills: Array<{ name: string }> }).skills.map((s) => s.name);
}

async function attributes(selector: string, name: string): Promise<Array<string | null>> {
  return Promise.all((await page.locator(selector).all()).map((item) => item.getAttribute(name)));
}

const skillItem = (name: string) => page.locator(`li[data-skill="${name}"]`);

describe('the Skills page in chromium', { timeout: 90_000 }, () => {
  it('shows each skill with its load count; Remove asks first, and the CLI agrees afterwards', async () => {
    const errors = await openSkills();
    await skillItem('deploy').waitFor();
    expect(await attributes('li[data-skill]', 'data-skill')).toEqual(['deploy', 'lint', 'review']);
    expect(await skillItem('deploy').locator('.skills-usage').textContent()).toBe('3 loads');
    expect(await skillItem('review').locator('.skills-usage').textContent()).toBe('1 load');
    expect(await skillItem('lint').locator('.skills-usage').textContent()).toBe('never loaded');
    expect(await skillItem('review').locator('dd').first().textContent()).toBe('2026-11-21 07:00 UTC');

    // Remove asks in the page; "Keep it" keeps it.
    await page.getByRole('button', { name: 'Remove skill lint' }).click();
    await page.getByRole('button', { name: 'Keep it' }).click();
    expect(await cliSkills()).toEqual(['deploy', 'lint', 'review']);
    await page.getByRole('button', { name: 'Remove skill lint' }).click();
    await page.getByRole('button', { name: 'Remove lint' }).click();
    await page.getByRole('status').getByText('Removed skill lint.').waitFor();
    await waitFor(async () => ((await page.locator('li[data-skill="lint"]').count()) === 0 ? true : undefined), 5_000, 'lint to leave the list');
    expect(await cliSkills()).toEqual(['deploy', 'review']);
    expect(errors).toEqual([]);
  });

  it('searches the hubs and installs a result', async () => {
    fake.script('main-m', { kind: 'text', deltas: [JSON.stringify({ results: [{ name: 'pdf-tools', reason: 'It splits PDFs.' }] })] });
    const errors = await openSkills();
    await page.getByRole('searchbox', { name: 'Search' }).fill('pdf');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const hit = page.locator('li[data-hit="pdf-tools"]');
    await hit.waitFor();
    expect(await hit.getByText('Why: It splits PDFs.').count()).toBe(1);
    await page.getByRole('button', { name: 'Install skill pdf-tools' }).click();
    await skillItem('pdf-tools').waitFor();
    expect(await cliSkills()).toEqual(['deploy', 'lint', 'pdf-tools', 'review']);
    expect(await page.getByRole('button', { name: 'Install skill pdf-tools' }).textContent()).toBe('Installed');

    // The slot down: the error is shown, and the hubs' matches still are, unranked.
    fake.script('main-m', { kind: 'error', status: 400 });
    await page.getByRole('searchbox', { name: 'Search' }).fill('pdf files');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'the skills_hub slot failed' }).waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'the skills_hub slot failed' }).textContent()).toMatch(/; showing the prefilter order\.$/);
    await page.locator('li[data-hit="pdf-tools"]').waitFor();
    expect(await page.locator('li[data-hit="pdf-tools"]').getByText('Why:').count()).toBe(0);
    expect(errors.filter((line) => !line.includes('502'))).toEqual([]);
  });

  it("shows the curator's last report and applies its archive proposal only, after a confirm", async () => {
    fake.script('main-m', { kind: 'text', deltas: [JSON.stringify({ proposals: [
      { skill: 'deploy', action: 'keep', reason: 'loaded often' },
      { skill: 'lint', action: 'archive', reason: 'never loaded' },
      { skill: 'review', action: 'merge', reason: 'same as deploy', into: 'deploy' },
    ] })] });
    expect((await runIris(['curator', 'review'], { home, env: env() })).code).toBe(0);
    const errors = await openSkills();
    await page.locator('li[data-proposal="archive:lint"]').waitFor();
    expect(await attributes('li[data-proposal]', 'data-proposal')).toEqual(['keep:deploy', 'archive:lint', 'merge:review']);
    expect(await page.locator('li[data-proposal="merge:review"]').textContent()).toContain('review: merge into deploy');

    await page.getByRole('button', { name: 'Apply 1 archive proposal' }).click();
    expect(await page.getByRole('group', { name: 'Apply the archive proposals?' }).textContent()).toContain('Move lint to skills/.archive/?');
    await page.getByRole('button', { name: 'Archive them' }).click();
    await page.getByRole('status').getByText('Archived lint to skills/.archive/.').waitFor();
    expect((await readdir(skills)).sort()).toEqual(['.archive', 'deploy', 'review']);
    expect(await readdir(join(skills, '.archive'))).toEqual(['lint']);
    expect(await cliSkills()).toEqual(['deploy', 'review']);
    await page.getByText('archived or removed').waitFor();
    expect(await page.getByRole('button', { name: /^Apply/ }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('fits a 390 px phone without sideways scrolling, and says what to do when nothing is there', async () => {
    await writeFile(join(home, 'config.yaml'), 'model:\n  provider: openai\n  default: main-m\n', { mode: 0o600 });
    for (const name of ['deploy', 'lint', 'review']) await runIris(['skills', 'remove', name], { home });
    await openSkills(390);
    await page.getByText('No skills installed yet.').waitFor();
    await page.getByText('No curator report yet.').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  });
});
