// The Sessions page in Debian's chromium against the real `iris dashboard`, with sessions made for
// real: a chat through `iris chat -q` and a webhook run through `iris gateway run`, both against the
// fake model. The run is listed under Automation and not under Chats; a word of its message text
// finds it; deleting it (after the page asks) removes it while `iris usage --json` and the Usage page
// keep its tokens.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { UsageJsonRow } from '../../src/domain/usage-ledger.js';
import { ledgerCostText, tokensText } from '../../src/dashboard/web/usage-format.js';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { collectPageErrors, launchChromium, startDashboard, type Dashboard } from '../helpers/dashboard-page.js';
import { postEvent, startGatewayProcess, waitFor } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

// What the page.evaluate callbacks use on the browser side (the tests' tsconfig has no DOM types).
declare const document: { readonly documentElement: { readonly scrollWidth: number; readonly clientWidth: number } };

const SECRET = 'pr-secret-0123456789abcdef';
const CONFIG = `model:
  provider: openai
  default: main-m
platforms:
  webhook:
    enabled: true
    extra:
      host: 127.0.0.1
      port: 0
      routes:
        github-pr:
          secret: ${SECRET}
          events: [pull_request]
          prompt: "Review PR #{number}: {pull_request.title}"
`;

let fake: FakeUpstream;
let dir: string;
let home: string;
let dashboard: Dashboard | undefined;
let browser: BrowserContext | undefined;
let page: Page;

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  dir = await makeTempDir('iris-sessions-ui-');
  home = join(dir, 'home');
  await mkdir(home, { recursive: true, mode: 0o700 });
  await writeFile(join(home, 'config.yaml'), CONFIG, { mode: 0o600 });
});
afterEach(async () => {
  await browser?.close();
  await dashboard?.stop();
  browser = undefined;
  dashboard = undefined;
  await removeDir(dir);
});

const env = () => ({ OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` });

type Listed = { id: string; title: string | null; source: string; messages: number; status: string };
async function listed(): Promise<Listed[]> {
  const result = await runIris(['sessions', 'list', '--json'], { home });
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Listed[];
}

/** A CLI chat and a webhook run, made for real; returns the run's session id. */
async function makeSessions(): Promise<string> {
  fake.script('main-m', { kind: 'text', deltas: ['Kiwis ripen in late autumn.'] }, { kind: 'text', deltas: ['Kiwi ripening'] });
  const chat = await runIris(['chat', '-q', 'When do kiwis ripen?'], { home, env: env() });
  expect(chat.code).toBe(0);
  fake.script('main-m', { kind: 'text', deltas: ['The parser change looks right.'] }, { kind: 'text', deltas: ['Parser review'] });
  const gateway = await startGatewayProcess(home, env());
  try {
    const answer = await postEvent(gateway.url, 'github-pr', { action: 'opened', number: 42, pull_request: { title: 'Replace the pomegranate parser' } }, { secret: SECRET });
    expect(answer.status).toBe(202);
    const run = await waitFor(
      async () => (await listed()).find((s) => s.source === 'webhook:github-pr' && s.status === 'idle' && s.title === 'Parser review'),
      15_000,
      'the webhook run to finish and be titled',
    );
    return run.id;
  } finally {
    await gateway.stop();
  }
}

async function openSessions(width = 1280): Promise<string[]> {
  dashboard = await startDashboard(home, env());
  browser = await launchChromium(join(dir, 'chromium-profile'), { width, height: 900 });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.setDefaultTimeout(10_000);
  const errors = collectPageErrors(page);
  await page.goto(`${dashboard.url}#/sessions`);
  return errors;
}

const titles = () => page.locator('.sessions-row .sessions-title').allTextContents();
const tab = (name: string) => page.getByRole('tab', { name });

async function listShows(expected: string[]): Promise<void> {
  await waitFor(async () => ((JSON.stringify(await titles()) === JSON.stringify(expected)) ? true : undefined), 5_000, `the list to show ${JSON.stringify(expected)} (it shows ${JSON.stringify(await titles())})`);
}

describe('the Sessions page in chromium', { timeout: 90_000 }, () => {
  it('a webhook run is Automation, not Chats; search finds it by its text; delete asks, removes it, and its usage stays', async () => {
    const runId = await makeSessions();
    const errors = await openSessions();

    // Chats is the first tab: the CLI chat only.
    expect(await tab('Chats').getAttribute('aria-selected')).toBe('true');
    await listShows(['Kiwi ripening']);
    expect(await page.locator('.sessions-row').first().textContent()).toContain('cli');

    // The arrow key moves to Automation (real tab semantics): the run only.
    await tab('Chats').focus();
    await page.keyboard.press('ArrowRight');
    expect(await tab('Automation').getAttribute('aria-selected')).toBe('true');
    expect(await tab('Automation').evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement)).toBe(true);
    await listShows(['Parser review']);
    expect(await page.locator('.sessions-row').first().textContent()).toContain('webhook:github-pr');

    // A word of the run's message text (not its title) finds it, on All.
    await tab('All').click();
    await listShows(['Parser review', 'Kiwi ripening']);
    await page.getByLabel('Search').fill('POMEGRANATE');
    await listShows(['Parser review']);
    await page.getByLabel('Search').fill('no-such-word');
    await page.getByText('No session matches "no-such-word".').waitFor();
    await page.getByLabel('Search').fill('pomegranate');
    await listShows(['Parser review']);

    // The transcript: the prompt, the answer, the model and the tokens of the turn.
    await page.getByRole('link', { name: 'Parser review' }).click();
    await page.getByRole('heading', { name: 'Parser review' }).waitFor();
    expect(page.url()).toContain(`#/sessions/${runId}`);
    expect(await page.locator('.transcript-user .transcript-text').first().textContent()).toBe('Review PR #42: Replace the pomegranate parser');
    expect(await page.locator('.transcript-assistant .transcript-text').first().textContent()).toBe('The parser change looks right.');
    expect(await page.locator('.transcript-turn-head').first().textContent()).toContain('openai · main-m');
    expect(await page.getByRole('link', { name: 'Resume in Chat' }).getAttribute('href')).toBe(`#/chat/${runId}`);

    const usageBefore = (await runIris(['usage', '--json'], { home })).stdout;
    expect(usageBefore).toMatch(/"input_tokens": [1-9]/);

    // Delete asks first; keeping it changes nothing.
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('button', { name: 'Keep it' }).click();
    expect((await listed()).map((s) => s.id)).toContain(runId);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('button', { name: 'Delete session' }).click();
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/sessions');
    // The list (still All, "pomegranate") is read again; while it loads it has no rows either.
    await page.getByText('No session matches "pomegranate".').waitFor();
    await listShows([]);
    expect((await listed()).map((s) => s.title)).toEqual(['Kiwi ripening']);
    expect((await runIris(['usage', '--json'], { home })).stdout).toBe(usageBefore);
    // The Usage page still counts the deleted run's calls under its source, as the CLI does.
    const bySource = JSON.parse((await runIris(['usage', '--by', 'source', '--json'], { home })).stdout) as UsageJsonRow[];
    const webhookRow = bySource.find((row) => row.key === 'webhook:github-pr');
    expect(webhookRow).toMatchObject({ calls: 2 });
    await page.goto(`${dashboard!.url}#/usage`);
    const sourceRows = page.locator('[data-group="source"] .usage-table tbody tr');
    await sourceRows.first().waitFor();
    const cells = await sourceRows.evaluateAll((rows) =>
      rows.map((row) => Array.from((row as unknown as { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> }).querySelectorAll('th, td'), (cell) => cell.textContent ?? '')),
    );
    const row = webhookRow!;
    expect(cells.find((c) => c[0] === 'webhook:github-pr')).toEqual([row.key, tokensText(row.calls), tokensText(row.input_tokens), tokensText(row.output_tokens), tokensText(row.cached_tokens), tokensText(row.cache_write_tokens), ledgerCostText(row)]);
    expect(errors).toEqual([]);
  });

  it('at 390 px wide: no horizontal scrolling, an empty state that says what to do next', async () => {
    const errors = await openSessions(390);
    await page.getByText('No chats yet: start one on the Chat page or with iris chat.').waitFor();
    await tab('Automation').click();
    await page.getByText(/^No automation runs yet/).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    expect(errors).toEqual([]);
  });
});
