// The Models page's fallback editors and Test buttons (issue 39) in Debian's chromium against the
// real `iris dashboard` and two fake upstreams (OpenAI and Anthropic): a fallback chain edited in
// the page lands in config.yaml with its comments kept, and Test names the provider that answered
// when the first one fails over.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { collectPageErrors, launchChromium, startDashboard, type Dashboard } from '../helpers/dashboard-page.js';
import { makeTempDir, removeDir } from '../helpers/iris.js';

// What the page.evaluate callbacks use on the browser side (the tests' tsconfig has no DOM types).
declare const document: {
  readonly activeElement: { getAttribute(name: string): string | null; readonly textContent: string | null } | null;
  readonly documentElement: { readonly scrollWidth: number; readonly clientWidth: number };
};

const KEYS = { OPENAI_API_KEY: 'sk-openai-test-0123456789', ANTHROPIC_API_KEY: 'sk-ant-test-0123456789' };
const CONFIG = [
  '# keep: the fallbacks test config',
  'model:',
  '  provider: openai # the main provider',
  '  default: main-m',
  'auxiliary:',
  '  # keep: vision follows the main model',
  '  vision:',
  '    provider: auto',
  '# keep: the global chain',
  'fallback_providers:',
  '  - provider: anthropic',
  '    model: claude-backup',
  '',
].join('\n');
const OPENAI_503 = 'openai (chat_completions) answered 503: Fake upstream error (HTTP 503).';

let openai: FakeUpstream;
let anthropic: FakeUpstream;
let dir: string;
let home: string;
let dashboard: Dashboard | undefined;
let browser: BrowserContext | undefined;
let page: Page;
let errors: string[];

beforeAll(async () => {
  [openai, anthropic] = await Promise.all([startFakeUpstream(), startFakeUpstream()]);
});
afterAll(() => Promise.all([openai.close(), anthropic.close()]));
beforeEach(async () => {
  openai.reset();
  anthropic.reset();
  dir = await makeTempDir('iris-dashboard-fallbacks-ui-');
  home = join(dir, 'home');
  await mkdir(home, { recursive: true, mode: 0o700 });
  await writeFile(join(home, 'config.yaml'), CONFIG, { mode: 0o600 });
  await writeFile(join(home, '.env'), `OPENAI_BASE_URL=${openai.url}/v1\nANTHROPIC_BASE_URL=${anthropic.url}\n`, { mode: 0o600 });
});
afterEach(async () => {
  await browser?.close();
  await dashboard?.stop();
  browser = undefined;
  dashboard = undefined;
  await removeDir(dir);
});

const configText = () => readFile(join(home, 'config.yaml'), 'utf8');
const focusedText = () => page.evaluate(() => document.activeElement?.textContent ?? '');
const focusedLabel = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

async function openPage(width = 1280): Promise<void> {
  dashboard = await startDashboard(home, KEYS);
  browser = await launchChromium(join(dir, 'chromium-profile'), { width, height: 900 });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.setDefaultTimeout(10_000);
  errors = collectPageErrors(page);
  expect((await page.goto(`${dashboard.url}#/models`))?.status()).toBe(200);
  await page.getByRole('list', { name: 'global fallbacks, in the order tried' }).waitFor();
}

/** Opens the picker from `button` and chooses `model` of `provider` in it. */
async function pickFallback(button: Locator, dialogName: string, provider: RegExp, model: RegExp): Promise<void> {
  await button.click();
  const picker = page.getByRole('dialog', { name: dialogName });
  await picker.waitFor();
  await picker.getByRole('button', { name: provider }).click();
  await picker.getByRole('button', { name: model }).click();
  await picker.waitFor({ state: 'detached' });
}

const visionList = () => page.getByRole('list', { name: 'Vision fallbacks, in the order tried' }).getByRole('listitem').locator('.fallback-name').allTextContents();

describe('the fallback editors and Test buttons in chromium', { timeout: 90_000 }, () => {
  it("edits a slot's fallback chain (add, reorder by keyboard, remove) and config.yaml follows with its comments kept", async () => {
    await openPage();
    expect(await page.getByRole('list', { name: 'global fallbacks, in the order tried' }).getByRole('listitem').locator('.fallback-name').allTextContents()).toEqual([
      'anthropic · claude-backup',
    ]);

    await page.getByRole('button', { name: /^Auxiliary models/ }).click();
    const toggle = page.getByRole('button', { name: 'Vision fallbacks (0)' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    expect(await page.getByText('No Vision fallbacks: when its model is busy or down, the fallback chain above is tried next.').count()).toBe(1);

    const add = page.getByRole('button', { name: 'Add a Vision fallback' });
    await pickFallback(add, 'Choose a model for a Vision fallback', /^Anthropic/, /^claude-sonnet-4-6/);
    await expect.poll(visionList).toEqual(['anthropic · claude-sonnet-4-6']);
    await pickFallback(add, 'Choose a model for a Vision fallback', /^OpenAI/, /^gpt-5\.1(?!-)/);
    await expect.poll(visionList).toEqual(['anthropic · claude-sonnet-4-6', 'openai · gpt-5.1']);
    expect(await page.getByRole('button', { name: 'Vision fallbacks (2)' }).getAttribute('aria-expanded')).toBe('true');
    expect(await configText()).toBe(
      CONFIG.replace(
        '    provider: auto\n',
        '    provider: auto\n    fallback_chain:\n      - provider: anthropic\n        model: claude-sonnet-4-6\n      - provider: openai\n        model: gpt-5.1\n',
      ),
    );

    // Reorder with the keyboard: the focus follows the entry to its new place.
    await page.getByRole('button', { name: 'Move openai · gpt-5.1 up' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(visionList).toEqual(['openai · gpt-5.1', 'anthropic · claude-sonnet-4-6']);
    // The entry is drawn at its new place first; an effect after that render moves the focus there.
    await expect.poll(focusedLabel, { timeout: 5_000 }).toBe('Move openai · gpt-5.1 down');
    expect(await page.getByText('Moved openai · gpt-5.1 up in the Vision fallbacks.').count()).toBe(1);

    await page.getByRole('button', { name: 'Remove anthropic · claude-sonnet-4-6' }).click();
    await expect.poll(visionList).toEqual(['openai · gpt-5.1']);
    expect(await configText()).toBe(CONFIG.replace('    provider: auto\n', '    provider: auto\n    fallback_chain:\n      - provider: openai\n        model: gpt-5.1\n'));

    // A duplicate is refused in the picker, which stays open and says why.
    await add.click();
    const picker = page.getByRole('dialog', { name: 'Choose a model for a Vision fallback' });
    await picker.getByRole('button', { name: /^OpenAI/ }).click();
    await picker.getByRole('button', { name: /^gpt-5\.1(?!-)/ }).click();
    expect(await picker.getByRole('alert').textContent()).toBe('openai · gpt-5.1 is already in the Vision fallbacks.');
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'detached' });
    expect(await focusedText()).toBe('Add a Vision fallback');
    expect(await configText()).toBe(CONFIG.replace('    provider: auto\n', '    provider: auto\n    fallback_chain:\n      - provider: openai\n        model: gpt-5.1\n'));

    // The global list: add one, then move it first.
    await pickFallback(page.getByRole('button', { name: 'Add a global fallback' }), 'Choose a model for the global fallback chain', /^OpenAI/, /^gpt-5\.1(?!-)/);
    await page.getByRole('button', { name: 'Move openai · gpt-5.1 up' }).first().click();
    await expect
      .poll(configText)
      .toContain('# keep: the global chain\nfallback_providers:\n  - provider: openai\n    model: gpt-5.1\n  - provider: anthropic\n    model: claude-backup\n');
    expect(await configText()).toContain('# keep: the fallbacks test config\nmodel:\n  provider: openai # the main provider\n');
    expect(await configText()).toContain('  # keep: vision follows the main model\n  vision:\n');
    expect(errors).toEqual([]);
  });

  it('Test names the provider that answered when the first one fails over, and the failed route', async () => {
    openai.script('main-m', { kind: 'error', status: 503 });
    anthropic.script('claude-backup', { kind: 'text', deltas: ['ok'], usage: { input: 9, output: 1 } });
    await openPage(390);
    await page.getByRole('button', { name: 'Test Main model' }).click();
    const answered = page.locator('[data-test-slot="main"] .test-answered');
    await answered.waitFor();
    expect(await answered.textContent()).toMatch(/^Answered by anthropic · claude-backup in \d+ ms, after a fallback\.$/);
    expect(await page.getByRole('list', { name: 'Routes tried before for Main model' }).getByRole('listitem').allTextContents()).toEqual([
      `openai · main-m failed: server: ${OPENAI_503}`,
    ]);
    expect(openai.requests).toHaveLength(1);
    expect(anthropic.requests).toHaveLength(1);

    // A slot whose every route fails says so, with each route tried.
    openai.script('gpt-5.1', { kind: 'error', status: 503 });
    anthropic.script('claude-backup', { kind: 'overloaded' });
    anthropic.script('claude-sonnet-4-5', { kind: 'overloaded' });
    await page.getByRole('button', { name: /^Auxiliary models/ }).click();
    await page.getByRole('button', { name: 'Test Vision' }).click();
    const alert = page.locator('[data-test-slot="vision"]').getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/^No route answered \(\d+ ms\)\.$/);
    expect(await page.getByRole('list', { name: 'Routes tried before for Vision' }).getByRole('listitem').allTextContents()).toEqual([
      `openai · main-m failed: server: ${OPENAI_503}`,
      'anthropic · claude-backup failed: overloaded: anthropic (anthropic_messages) answered 529: Overloaded',
      'openrouter · anthropic/claude-sonnet-4.5 skipped: no credential (set OPENROUTER_API_KEY)',
      `openai · gpt-5.1 failed: server: ${OPENAI_503}`,
      'anthropic · claude-sonnet-4-5 failed: overloaded: anthropic (anthropic_messages) answered 529: Overloaded',
    ]);
    expect(await overflow()).toBe(0);
    expect(errors.filter((e) => !/Failed to load resource: the server responded with a status of 502/.test(e))).toEqual([]);
  });
});
