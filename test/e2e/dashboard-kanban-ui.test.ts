// The Kanban page in Debian's chromium against the real `iris dashboard`, on a board made with
// `iris kanban add|move`: a card dragged from To do to Doing (native HTML5 drag and drop) and a
// keyboard move (Alt+→) both land in state.db, as `iris kanban show --json` says; Specify shows the
// fake model's spec, and a refused answer shows the slot's message; Add card puts a card in triage.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { collectPageErrors, launchChromium, startDashboard, type Dashboard } from '../helpers/dashboard-page.js';
import { waitFor } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

// What the page.evaluate callbacks use on the browser side (the tests' tsconfig has no DOM types).
declare const document: { readonly documentElement: { readonly scrollWidth: number; readonly clientWidth: number }; readonly activeElement: { readonly id: string } | null };

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
  dir = await makeTempDir('iris-kanban-ui-');
  home = join(dir, 'home');
  await mkdir(home, { recursive: true, mode: 0o700 });
  await writeFile(join(home, 'config.yaml'), 'model:\n  provider: openai\n  default: main-m\n', { mode: 0o600 });
});
afterEach(async () => {
  await browser?.close();
  await dashboard?.stop();
  browser = undefined;
  dashboard = undefined;
  await removeDir(dir);
});

const env = () => ({ OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` });

async function cli(args: string[]): Promise<{ id: number; title: string; body: string; status: string }> {
  const result = await runIris([...args, '--json'], { home, env: env() });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as { id: number; title: string; body: string; status: string };
}

async function openKanban(hash = '#/kanban', width = 1280): Promise<string[]> {
  dashboard = await startDashboard(home, env());
  browser = await launchChromium(join(dir, 'chromium-profile'), { width, height: 900 });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.setDefaultTimeout(10_000);
  const errors = collectPageErrors(page);
  await page.goto(`${dashboard.url}${hash}`);
  await page.getByRole('heading', { name: 'Kanban', level: 1 }).waitFor();
  return errors;
}

const column = (name: string) => page.getByRole('region', { name: new RegExp(`^${name} \\d+$`) });
const card = (id: number) => page.locator(`#kanban-card-${id}`);
const cardIds = async (name: string) => (await column(name).locator('.kanban-card').evaluateAll((els) => els.map((el) => Number((el as unknown as { dataset: { id?: string } }).dataset.id))));
const statusOf = async (id: number) => (await cli(['kanban', 'show', String(id)])).status;

const SPEC = JSON.stringify({
  title: 'Dark mode for the dashboard',
  goal: 'Users can switch the dashboard to a dark theme.',
  context: 'The dashboard has one light theme today.',
  acceptance_criteria: ['a toggle in the header switches the theme'],
});

describe('the Kanban page in chromium', { timeout: 90_000 }, () => {
  it('drag a card from To do to Doing, and a keyboard move: iris kanban show agrees each time', async () => {
    await cli(['kanban', 'add', 'dark mode']);
    await cli(['kanban', 'add', 'write the docs']);
    await cli(['kanban', 'move', '1', 'todo']);
    await cli(['kanban', 'move', '2', 'todo']);
    const errors = await openKanban();
    await card(1).waitFor();
    expect(await cardIds('To do')).toEqual([1, 2]);
    expect(await cardIds('Doing')).toEqual([]);

    await card(1).dragTo(column('Doing'));
    await waitFor(async () => ((await cardIds('Doing')).includes(1) ? true : undefined), 5_000, 'card 1 in the Doing column');
    expect(await statusOf(1)).toBe('doing');
    expect(await cardIds('To do')).toEqual([2]);
    expect(await page.getByRole('status').textContent()).toBe('Moved #1 “dark mode” to Doing.');

    // Alt+→ on the focused card: one column right; the focus follows the card.
    await card(2).focus();
    await page.keyboard.press('Alt+ArrowRight');
    await waitFor(async () => ((await cardIds('Doing')).includes(2) ? true : undefined), 5_000, 'card 2 in the Doing column');
    expect(await statusOf(2)).toBe('doing');
    expect(await page.getByRole('status').textContent()).toBe('Moved #2 “write the docs” to Doing.');
    // The card is drawn anew in Doing first; an effect after that render gives it the focus back.
    await waitFor(async () => ((await page.evaluate(() => document.activeElement?.id)) === 'kanban-card-2' ? true : undefined), 5_000, 'the focus on card 2');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('kanban-card-2');
    await page.keyboard.press('Alt+ArrowLeft');
    await waitFor(async () => ((await cardIds('To do')).includes(2) ? true : undefined), 5_000, 'card 2 back in To do');
    expect(await statusOf(2)).toBe('todo');

    // A card dropped on its own column does not move: the page sends no request for it.
    const writes: string[] = [];
    page.on('request', (request) => {
      if (request.method() !== 'GET') writes.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    await card(1).dragTo(column('Doing'));
    await page.waitForTimeout(500);
    expect(writes).toEqual([]);
    expect(await statusOf(1)).toBe('doing');
    expect(errors).toEqual([]);
  });

  it('the drawer: Specify shows the spec; a refused answer shows the slot’s message; Decompose lists the children, linked both ways; Move to… moves', async () => {
    await cli(['kanban', 'add', 'dark mode']);
    const errors = await openKanban();
    await card(1).getByRole('link').click();
    expect(new URL(page.url()).hash).toBe('#/kanban/1');
    const drawer = page.getByRole('complementary');
    await drawer.getByRole('heading', { name: '#1 dark mode' }).waitFor();
    await drawer.getByText('No details yet: Specify writes a spec from the title.').waitFor();

    fake.script('main-m', { kind: 'text', deltas: ['Sure! Here you go.'] }, { kind: 'text', deltas: ['{"title":"x"}'] });
    await drawer.getByRole('button', { name: 'Specify' }).click();
    expect(await drawer.getByRole('alert').textContent()).toBe(
      `the triage_specifier slot's answer was malformed twice (the answer lacks "goal", "context", "acceptance_criteria"); nothing was changed`,
    );
    expect(await statusOf(1)).toBe('triage');

    fake.reset();
    fake.script('main-m', { kind: 'text', deltas: [SPEC] });
    await drawer.getByRole('button', { name: 'Specify' }).click();
    await drawer.getByText('Specified: “Dark mode for the dashboard” is now in To do.').waitFor();
    await drawer.getByRole('heading', { name: '#1 Dark mode for the dashboard' }).waitFor();
    const shown = await cli(['kanban', 'show', '1']);
    expect(shown).toMatchObject({ title: 'Dark mode for the dashboard', status: 'todo' });
    expect(await drawer.locator('.kanban-body').textContent()).toBe(shown.body);
    expect(await cardIds('To do')).toEqual([1]);

    // Decompose: the children appear in the drawer and on the board; a child's drawer links back to its parent.
    fake.script('main-m', { kind: 'text', deltas: [JSON.stringify({ tasks: [{ title: 'Colour tokens', body: 'A palette.' }, { title: 'Theme toggle', body: 'A switch.' }] })] });
    await drawer.getByRole('button', { name: 'Decompose' }).click();
    await drawer.getByText('Split into 2 cards in To do: #2 Colour tokens, #3 Theme toggle.').waitFor();
    // The outcome is shown from the Decompose answer; the card (and its children) is read again just after.
    const children = drawer.locator('.kanban-children li a');
    await children.nth(1).waitFor();
    expect(await children.allTextContents()).toEqual(['#2 Colour tokens', '#3 Theme toggle']);
    await waitFor(async () => (JSON.stringify(await cardIds('To do')) === '[1,2,3]' ? true : undefined), 5_000, 'cards 2 and 3 in To do');
    expect(await cli(['kanban', 'show', '3'])).toMatchObject({ title: 'Theme toggle', body: 'A switch.', status: 'todo', parent_id: 1 });
    await drawer.getByRole('link', { name: '#3 Theme toggle' }).click();
    await drawer.getByRole('heading', { name: '#3 Theme toggle' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/kanban/3');
    await drawer.locator('.kanban-facts').getByRole('link', { name: '#1 Dark mode for the dashboard' }).click();
    await drawer.getByRole('heading', { name: '#1 Dark mode for the dashboard' }).waitFor();

    await drawer.getByLabel('Move to…').selectOption('blocked');
    await waitFor(async () => ((await cardIds('Blocked')).includes(1) ? true : undefined), 5_000, 'card 1 in Blocked');
    expect(await statusOf(1)).toBe('blocked');

    await drawer.getByRole('link', { name: 'Close the card' }).click();
    await page.getByRole('complementary').waitFor({ state: 'detached' });
    // The refused Specify is the one failed request (chromium logs every non-2xx answer).
    expect(errors).toEqual(['console: Failed to load resource: the server responded with a status of 502 (Bad Gateway)']);
  });

  it('at 390 px: the empty board says what to do; Add card puts a card in triage; no sideways scrolling', async () => {
    const errors = await openKanban('#/kanban', 390);
    await page.getByText('The board is empty: add a card above').waitFor();
    await page.getByLabel('Title').fill('ship the page');
    await page.getByRole('button', { name: 'Add to triage' }).click();
    await card(1).waitFor();
    expect(await cardIds('Triage')).toEqual([1]);
    expect(await cli(['kanban', 'show', '1'])).toMatchObject({ title: 'ship the page', status: 'triage' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    expect(errors).toEqual([]);
  });
});
