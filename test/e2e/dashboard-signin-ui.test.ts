// Sign-in in Debian's chromium against the real `iris dashboard --host ::` (a non-loopback,
// dual-stack address; the browser reaches it on 127.0.0.1 and on [::1], two client addresses for
// the per-address limit): the sign-in page carries no token, a wrong password is refused, the 6th
// try in a minute is 429, the right one opens the Models page, a change is saved, and Sign out
// ends it.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { parse } from 'yaml';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startDashboardProcess, type DashboardProcess } from '../helpers/dashboard.js';
import { collectPageErrors, launchChromium } from '../helpers/dashboard-page.js';
import { makeTempDir, removeDir, runIrisWithInput } from '../helpers/iris.js';

const PASSWORD = 'a-long-team-password-7f3e';
const COMMENT = '# the team dashboard: this comment must survive';

let dir: string;
let home: string;
let dash: DashboardProcess | undefined;
let browser: BrowserContext | undefined;

beforeEach(async () => {
  dir = await makeTempDir('iris-signin-ui-');
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
  await writeFile(join(home, 'config.yaml'), `${COMMENT}\nmodel:\n  provider: openrouter\n  default: anthropic/claude-sonnet-4.5\n`, { mode: 0o600 });
  await writeFile(join(home, '.env'), 'OPENROUTER_API_KEY=sk-or-v1-0123456789abcdef\nOPENAI_API_KEY=sk-openai-0123456789abcdef\n', { mode: 0o600 });
  const set = await runIrisWithInput(['dashboard', 'password', '--stdin'], `${PASSWORD}\n`, { home });
  expect(set.code).toBe(0);
});

afterEach(async () => {
  await browser?.close();
  await dash?.stop();
  browser = undefined;
  dash = undefined;
  await removeDir(dir);
});

async function tryPassword(page: Page, password: string): Promise<string> {
  const alert = page.getByRole('alert');
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => alert.textContent()).not.toBe('');
  const text = (await alert.textContent()) ?? '';
  await page.evaluate('document.getElementById("error").textContent = ""');
  return text;
}

it('signs in with the password in a real browser, limits guessing, saves a change and signs out', async () => {
  dash = await startDashboardProcess(home, {}, ['--host', '::'], { readToken: false });
  browser = await launchChromium(join(dir, 'chromium-profile'));
  const page = browser.pages()[0] ?? (await browser.newPage());
  page.setDefaultTimeout(10_000);
  const errors = collectPageErrors(page);

  // The page at / is the sign-in page, and nothing in it carries the token.
  await page.goto(`http://127.0.0.1:${dash.port}/`);
  expect(new URL(page.url()).pathname).toBe('/login');
  expect(await page.getByRole('heading', { name: 'Sign in' }).count()).toBe(1);
  expect(await page.content()).not.toContain('__DASHBOARD_AUTH_TOKEN__');

  for (let i = 0; i < 5; i++) expect(await tryPassword(page, `wrong-password-${i}`)).toBe('Wrong password');
  expect(await tryPassword(page, PASSWORD)).toMatch(/^Too many failed sign-ins\. Try again in ([1-9]|[1-5]\d|60) s\.$/);
  expect(new URL(page.url()).pathname).toBe('/login');

  // From another address ([::1]) the right password opens the Models page.
  await page.goto(`http://[::1]:${dash.port}/login`);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`http://[::1]:${dash.port}/`);
  await page.locator('[data-slot="main"] .slot-value').waitFor();
  expect(await page.locator('[data-slot="main"] .slot-value').textContent()).toBe('openrouter · anthropic/claude-sonnet-4.5');

  // A change is saved.
  await page.getByRole('button', { name: 'Change main model' }).click();
  const picker = page.getByRole('dialog', { name: 'Choose the main model' });
  await picker.getByRole('button', { name: /^OpenAI/ }).click();
  await picker.getByRole('button', { name: /^gpt-5-mini/ }).click();
  await picker.waitFor({ state: 'detached' });
  await expect.poll(() => page.locator('[data-slot="main"] .slot-value').textContent()).toBe('openai · gpt-5-mini');
  const configText = await readFile(join(home, 'config.yaml'), 'utf8');
  expect((parse(configText) as { model: unknown }).model).toMatchObject({ provider: 'openai', default: 'gpt-5-mini' });
  expect(configText).toContain(COMMENT);

  // Sign out: back to the sign-in page, and / no longer opens.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`http://[::1]:${dash.port}/login`);
  await page.goto(`http://[::1]:${dash.port}/`);
  expect(new URL(page.url()).pathname).toBe('/login');
  expect(errors.filter((error) => !/status of (401|429)/.test(error))).toEqual([]);

  const audit = (await readFile(join(home, 'logs', 'audit.log'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { actor: string; from: string; action: string; ok: boolean });
  expect(audit.map((row) => [row.from, row.action, row.ok])).toEqual([
    ...Array.from({ length: 5 }, () => ['127.0.0.1', 'sign_in', false]),
    ['127.0.0.1', 'sign_in', false],
    ['::1', 'sign_in', true],
    ['::1', 'model.set', true],
    ['::1', 'sign_out', true],
  ]);
  expect(await readFile(join(home, 'logs', 'audit.log'), 'utf8')).not.toContain(PASSWORD);
});
