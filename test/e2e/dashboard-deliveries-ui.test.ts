// The Deliveries page in Debian's chromium against the real `iris dashboard` and a running
// gateway (`iris gateway run`) with the fake model and the fake gh: a test event sent with
// `iris webhook test` shows up and reaches `delivered` in the open page without a reload; its
// detail shows the prompt and the answer; Redeliver asks in the page, then the fake gh records a
// second comment and the fake model gets no new request.
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { collectPageErrors, launchChromium, startDashboard, type Dashboard } from '../helpers/dashboard-page.js';
import { startGatewayProcess, waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, REPO_ROOT, removeDir, runIris } from '../helpers/iris.js';

// What the page.evaluate callbacks use on the browser side (the tests' tsconfig has no DOM types).
declare const document: { readonly documentElement: { readonly scrollWidth: number; readonly clientWidth: number } };
declare const window: { loadedOnce?: boolean };

const CONFIG = 'model:\n  provider: openai\n  default: main-m\nplatforms:\n  webhook:\n    enabled: true\n    extra:\n      host: 127.0.0.1\n      port: 0\n';
const PROMPT = 'Review PR #7 in example/iris-webhook-test: Add a retry to the upload step';

let fake: FakeUpstream;
let dir: string;
let home: string;
let ghRecord: string;
let gateway: GatewayProcess | undefined;
let dashboard: Dashboard | undefined;
let browser: BrowserContext | undefined;
let page: Page;

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  dir = await makeTempDir('iris-deliveries-ui-');
  home = join(dir, 'home');
  ghRecord = join(dir, 'gh.jsonl');
  await mkdir(home, { recursive: true, mode: 0o700 });
  await writeFile(join(home, 'config.yaml'), CONFIG, { mode: 0o600 });
});
afterEach(async () => {
  await browser?.close();
  await dashboard?.stop();
  await gateway?.stop('SIGKILL');
  browser = undefined;
  dashboard = undefined;
  gateway = undefined;
  await removeDir(dir);
});

const env = () => ({ OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` });

async function comments(): Promise<string[]> {
  const text = await readFile(`${ghRecord}.comments.jsonl`, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { body: string }).body);
}

async function startGatewayWithGh(): Promise<void> {
  const binDir = join(dir, 'bin');
  await mkdir(binDir);
  await symlink(join(REPO_ROOT, 'test', 'fakes', 'fake-gh.mjs'), join(binDir, 'gh'));
  const subscribed = await runIris(
    ['webhook', 'subscribe', 'github-pr', '--events', 'pull_request', '--deliver', 'forge_comment', '--deliver-extra', 'repo={repository.full_name}', '--deliver-extra', 'pr_number={number}', '--prompt', 'Review PR #{number} in {repository.full_name}: {pull_request.title}'],
    { home },
  );
  expect(subscribed.code).toBe(0);
  gateway = await startGatewayProcess(home, gatewayEnv());
}

/** The gateway's environment: the fake model, and the fake `gh` first on PATH, recording what it posts. */
const gatewayEnv = () => ({ ...env(), PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`, FAKE_GH_RECORD: ghRecord });

async function openPage(hash: string, width = 1280): Promise<string[]> {
  dashboard = await startDashboard(home, env());
  browser = await launchChromium(join(dir, 'chromium-profile'), { width, height: 900 });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.setDefaultTimeout(15_000);
  const errors = collectPageErrors(page);
  await page.goto(`${dashboard.url}${hash}`);
  return errors;
}

describe('the Deliveries page in chromium', { timeout: 120_000 }, () => {
  it('watches a test event reach delivered live, shows its prompt and answer; Redeliver posts a second comment with no new run; Re-run runs it as a new event', async () => {
    await startGatewayWithGh();
    const errors = await openPage('#/deliveries');
    await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
    await page.getByText('No webhook events yet.', { exact: false }).waitFor();
    // A mark on the page: still there at the end means the page was never reloaded.
    await page.evaluate(() => {
      window.loadedOnce = true;
    });

    fake.script('main-m', { kind: 'text', deltas: ['Looks good: the retry is bounded.'] }, { kind: 'text', deltas: ['Upload retry'] });
    const sent = await runIris(['webhook', 'test', 'github-pr'], { home });
    expect(sent.code).toBe(0);

    const row = page.locator('.deliveries-row').first();
    await row.waitFor();
    await row.locator('.delivery-state', { hasText: /^delivered$/ }).waitFor({ timeout: 30_000 });
    expect(await row.locator('.deliveries-what').textContent()).toBe('github-pr pull_request');
    expect(await row.locator('.deliveries-first-line').textContent()).toBe('Looks good: the retry is bounded.');
    expect(await page.evaluate(() => window.loadedOnce)).toBe(true);
    expect(await comments()).toEqual(['Looks good: the retry is bounded.\n\n<!-- iris-delivery:1 -->']);
    await waitFor(async () => (fake.requests.length >= 2 ? true : undefined), 10_000, 'the title request');
    const requestsBefore = fake.requests.length;

    // The detail: the prompt the run was given, the answer, where it went.
    await row.getByRole('link').click();
    await page.getByRole('heading', { name: /^Event #1/ }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/deliveries/1');
    expect(await page.locator('.delivery-section', { has: page.getByRole('heading', { name: 'Prompt' }) }).locator('pre').textContent()).toBe(PROMPT);
    expect(await page.locator('.delivery-section', { has: page.getByRole('heading', { name: 'Answer' }) }).locator('pre').textContent()).toBe('Looks good: the retry is bounded.');
    expect(await page.locator('.delivery-outcome').textContent()).toBe('delivered: posted as a PR comment on example/iris-webhook-test#7 (1 attempt)');

    // Redeliver asks in the page first; Cancel changes nothing.
    await page.getByRole('button', { name: 'Redeliver' }).click();
    const confirm = page.getByRole('group', { name: 'Redeliver event #1?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await comments()).toHaveLength(1);

    // With the gateway stopped, the redelivered event waits as `done` (no comment yet); once a
    // gateway runs again the open page follows it to `delivered` by itself.
    await gateway!.stop('SIGTERM');
    gateway = undefined;
    await page.getByRole('button', { name: 'Redeliver' }).click();
    await page.getByRole('button', { name: 'Yes, redeliver' }).click();
    await page.getByText('Put back for delivery: the running gateway delivers the stored answer within a few seconds.').waitFor();
    await page.locator('.delivery-head .delivery-state', { hasText: /^done$/ }).waitFor();
    expect(await comments()).toHaveLength(1);
    gateway = await startGatewayProcess(home, gatewayEnv());
    const posted = await waitFor(async () => {
      const now = await comments();
      return now.length >= 2 ? now : undefined;
    }, 15_000, 'the second comment');
    expect(posted).toEqual(['Looks good: the retry is bounded.\n\n<!-- iris-delivery:1 -->', 'Looks good: the retry is bounded.\n\n<!-- iris-delivery:1 -->']);
    // The page follows the redelivery to its end, live.
    await page.locator('.delivery-head .delivery-state', { hasText: /^delivered$/ }).waitFor({ timeout: 15_000 });
    expect(fake.requests.length).toBe(requestsBefore);

    // Re-run asks too, then starts a new event that runs and is delivered; the page links to it.
    fake.script('main-m', { kind: 'text', deltas: ['Second look: still bounded.'] });
    await page.getByRole('button', { name: 'Re-run' }).click();
    await page.getByRole('group', { name: 'Re-run event #1?' }).waitFor();
    await page.getByRole('button', { name: 'Yes, re-run' }).click();
    await page.getByText('Started a new run as event #2.').waitFor();
    await page.getByRole('link', { name: 'Open event #2' }).click();
    await page.getByRole('heading', { name: /^Event #2/ }).waitFor();
    await page.locator('.delivery-head .delivery-state', { hasText: /^delivered$/ }).waitFor({ timeout: 20_000 });
    expect(await comments()).toEqual([...posted, 'Second look: still bounded.\n\n<!-- iris-delivery:2 -->']);
    expect(fake.requests.length).toBeGreaterThan(requestsBefore);
    expect(await page.evaluate(() => window.loadedOnce)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('at 390 px wide: the empty state says what to do, filters work, nothing scrolls sideways', async () => {
    const errors = await openPage('#/deliveries', 390);
    await page.getByText('No webhook events yet.', { exact: false }).waitFor();
    expect(await page.locator('.deliveries-empty code').textContent()).toBe('iris webhook test <route>');
    await page.getByLabel('State').selectOption('failed');
    await page.getByText('No events match these filters. Clear them to see every route’s events.').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await page.goto(`${dashboard!.url}#/deliveries/42`);
    await page.getByRole('alert').filter({ hasText: 'no webhook event #42 (the list shows the events there are)' }).waitFor();
    // The browser logs the 404 answer itself (once per poll, every 2 s, so once or more on a slow
    // machine); nothing else went wrong.
    expect(errors.length).toBeGreaterThan(0);
    expect([...new Set(errors)]).toEqual(['console: Failed to load resource: the server responded with a status of 404 (Not Found)']);
  });
});
