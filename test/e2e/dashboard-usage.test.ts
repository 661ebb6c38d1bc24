// The Usage page in Debian's chromium against the real `iris dashboard`: its figures are exactly
// `iris usage --since … --until … --by … --json` for the same window (an aux slot and an unpriced
// model included), the previous period sits beside the totals, and the page holds at 390 px in
// dark mode with no console error (the CSP refuses inline styles: a chart that needed them would
// show one).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS, usageTotal, type UsageJsonRow } from '../../src/domain/usage-ledger.js';
import { ledgerCostText, tokensText } from '../../src/dashboard/web/usage-format.js';
import { collectPageErrors, launchChromium, seedUsage, startDashboard, type Dashboard, type SeededUsage } from '../helpers/dashboard-page.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

declare const document: { readonly documentElement: { readonly scrollWidth: number; readonly clientWidth: number } };
declare const window: { readonly __DASHBOARD_AUTH_TOKEN__: string };
declare function fetch(path: string, init: { headers: Record<string, string> }): Promise<{ status: number; text(): Promise<string> }>;

/** GET an API path from the page, with its session token: the status and the body. */
async function apiGet(path: string): Promise<[number, unknown]> {
  const [status, text] = await page.evaluate(async (url) => {
    const response = await fetch(url, { headers: { 'X-Service-Session-Token': window.__DASHBOARD_AUTH_TOKEN__ } });
    return [response.status, await response.text()] as const;
  }, path);
  return [status, JSON.parse(text) as unknown];
}

const KEYS = { OPENROUTER_API_KEY: 'sk-or-test-0123456789' };
const CONFIG = 'model:\n  provider: openrouter\n  default: anthropic/claude-sonnet-4.5\n';

let dir: string;
let home: string;
let dashboard: Dashboard | undefined;
let browser: BrowserContext | undefined;
let page: Page;
let errors: string[];

beforeEach(async () => {
  dir = await makeTempDir('iris-dashboard-usage-');
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

/** Noon UTC `days` days ago: inside one UTC day whatever the hour of the run. */
function daysAgo(days: number, now: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS - days * DAY_MS + DAY_MS / 2;
}

function calls(now: number): SeededUsage[] {
  const sonnet = { provider: 'openrouter', model: 'anthropic/claude-sonnet-4.5' };
  return [
    { ...sonnet, at: daysAgo(0, now), task: 'main', inputTokens: 120_000, outputTokens: 8_000, cachedTokens: 30_000, cacheWriteTokens: 12_000, costUsd: 0.48 },
    { ...sonnet, at: daysAgo(2, now), task: 'main', inputTokens: 40_000, outputTokens: 2_000, cachedTokens: 0, costUsd: 0.15, source: 'webhook:pr-review' },
    { ...sonnet, at: daysAgo(2, now), task: 'title_generation', inputTokens: 900, outputTokens: 12, cachedTokens: 0, costUsd: 0.003, source: 'webhook:pr-review' },
    // An aux slot on a model with no known price.
    { provider: 'custom', model: 'llava-local', at: daysAgo(5, now), task: 'vision', inputTokens: 2_000, outputTokens: 100, cachedTokens: 0, costUsd: null, source: 'platform:telegram' },
    // The previous period (8 to 14 days ago), and one call outside both.
    { ...sonnet, at: daysAgo(9, now), task: 'main', inputTokens: 80_000, outputTokens: 4_000, cachedTokens: 0, costUsd: 0.32, source: 'dashboard' },
    { ...sonnet, at: daysAgo(40, now), task: 'main', inputTokens: 1, outputTokens: 1, cachedTokens: 0, costUsd: 9 },
  ];
}

/** What `iris usage --json` prints for the page's window. */
async function cliRows(since: string, until: string, by: string): Promise<UsageJsonRow[]> {
  const result = await runIris(['usage', '--since', since, '--until', until, '--by', by, '--json'], { home });
  expect(result).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(result.stdout) as UsageJsonRow[];
}

/** A table row as the page writes it: the group, calls, input, output, cache read, cache write, cost. */
const asCells = (row: UsageJsonRow) => [row.key, tokensText(row.calls), tokensText(row.input_tokens), tokensText(row.output_tokens), tokensText(row.cached_tokens), tokensText(row.cache_write_tokens), ledgerCostText(row)];

async function tableRows(section: Locator): Promise<string[][]> {
  return section.locator('.usage-table tbody tr').evaluateAll((rows) =>
    rows.map((row) => Array.from((row as unknown as { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> }).querySelectorAll('th, td'), (cell) => cell.textContent ?? '')),
  );
}

async function openUsage(width: number, colorScheme: 'light' | 'dark'): Promise<void> {
  dashboard = await startDashboard(home, KEYS);
  browser = await launchChromium(join(dir, 'chromium-profile'), { width, height: 900 });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.setDefaultTimeout(10_000);
  await page.emulateMedia({ colorScheme });
  errors = collectPageErrors(page);
  const response = await page.goto(`${dashboard.url}#/usage`);
  expect(response?.status()).toBe(200);
  // The range buttons once the page is up; else say what the page showed.
  await page
    .locator('.usage-presets button')
    .first()
    .waitFor()
    .catch(async (error: unknown) => {
      throw new Error(`the Usage page did not render (${String(error)}); page errors: ${JSON.stringify(errors)}; text: ${await page.locator('body').innerText()}`);
    });
}

describe('the Usage page in chromium', { timeout: 60_000 }, () => {
  it('shows by day, model, slot and source exactly what iris usage --json says for the same window', async () => {
    const now = Date.now();
    await seedUsage(home, calls(now));
    await openUsage(1280, 'light');
    expect(await page.getByRole('button', { name: '7 days' }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.evaluate('getComputedStyle(document.documentElement).backgroundColor')).toBe('rgb(246, 247, 249)');
    await page.locator('[data-group="source"] .usage-table tbody tr').first().waitFor().catch(async (error: unknown) => {
      throw new Error(`no figures (${String(error)}); page errors: ${JSON.stringify(errors)}; text: ${await page.locator('main').innerText()}`);
    });
    const command = await page.locator('.usage-window code').textContent();
    const window = /--since (\S+) --until (\S+)$/.exec(command ?? '');
    expect(window).not.toBeNull();
    const [, since = '', until = ''] = window ?? [];
    expect(Date.parse(until) - Date.parse(since)).toBe(7 * DAY_MS);

    const byDay = await cliRows(since, until, 'day');
    const byModel = await cliRows(since, until, 'model');
    const byTask = await cliRows(since, until, 'task');
    const bySource = await cliRows(since, until, 'source');
    expect(await tableRows(page.locator('[data-group="day"]'))).toEqual(byDay.map(asCells));
    expect(await tableRows(page.locator('[data-group="model"]'))).toEqual(byModel.map(asCells));
    expect(await tableRows(page.locator('[data-group="source"]'))).toEqual(bySource.map(asCells));
    // Every slot is listed; those with calls carry the CLI's figures, the rest are empty.
    const slots = await tableRows(page.locator('[data-group="slot"]'));
    expect(slots).toHaveLength(12);
    for (const row of byTask) expect(slots).toContainEqual(asCells(row));
    expect(slots.find((cells) => cells[0] === 'curator')).toEqual(['curator', '0', '0', '0', '0', '0', '—']);

    // The figures themselves, so the test does not only compare the page with itself.
    expect(bySource.map(asCells)).toEqual([
      ['cli', '1', '120,000', '8,000', '30,000', '12,000', '$0.4800'],
      ['webhook:pr-review', '2', '40,900', '2,012', '0', '0', '$0.1530'],
      ['platform:telegram', '1', '2,000', '100', '0', '0', 'unpriced'],
    ]);
    expect(byModel.map((row) => [row.key, ledgerCostText(row)])).toEqual([
      ['openrouter · anthropic/claude-sonnet-4.5', '$0.6330'],
      ['custom · llava-local', 'unpriced'],
    ]);
    expect(await page.locator('[data-group="source"] .usage-table tfoot tr').evaluate((row) => (row as unknown as { textContent: string }).textContent)).toBe(
      ['total', '4', '162,900', '10,112', '30,000', '12,000', '$0.6330 + 1 unpriced'].join(''),
    );

    // The totals, with the previous period (one dashboard call of $0.32) beside them.
    const cost = page.locator('[data-figure="Cost"]');
    expect(await cost.locator('.usage-now').textContent()).toBe(ledgerCostText(usageTotal(bySource)));
    expect(await cost.locator('.usage-before').textContent()).toBe('previous period: $0.3200 +98%');
    expect(await page.locator('[data-figure="Cache write"] .usage-now').textContent()).toBe('12,000');
    // Each section has its chart, drawn on a canvas by the chart library (in an effect after the
    // render that put the tables in).
    await page.locator('.usage-chart canvas').nth(3).waitFor({ state: 'attached' });
    expect(await page.locator('.usage-chart canvas').count()).toBe(4);
    expect(errors).toEqual([]);

    // The API answers the CLI's JSON itself, and refuses what it cannot read with a message
    // (after the check above: the browser logs each 400).
    expect(await apiGet(`/api/usage?${new URLSearchParams({ since, until, by: 'source' }).toString()}`)).toEqual([200, bySource]);
    expect(await apiGet('/api/usage?by=week')).toEqual([400, { error: 'by "week" is not one of model, task, day, source' }]);
    expect(await apiGet('/api/usage?by=day&until=later')).toEqual([400, { error: 'until "later" is not valid (use a span such as 30m, 24h, 7d or 2w, or a date such as 2026-11-01)' }]);
    expect(await apiGet('/api/usage?by=day&since=2d&until=3d')).toEqual([400, { error: 'until "3d" is not after since "2d"; nothing falls between them' }]);
  });

  it('a custom range of two UTC days shows only their calls; a range with none says what to do', async () => {
    const now = Date.now();
    await seedUsage(home, calls(now));
    await openUsage(1280, 'light');
    const day = (at: number) => new Date(at).toISOString().slice(0, 10);
    await page.getByLabel('From', { exact: true }).fill(day(daysAgo(2, now)));
    await page.getByLabel('To', { exact: true }).fill(day(daysAgo(1, now)));
    await page.getByRole('button', { name: 'Show range' }).click();
    await page.locator('[data-group="day"] .usage-table tbody tr').first().waitFor();
    expect(await tableRows(page.locator('[data-group="day"]'))).toEqual([
      [day(daysAgo(2, now)), '2', '40,900', '2,012', '0', '0', '$0.1530'],
    ]);
    await page.getByLabel('From', { exact: true }).fill(day(daysAgo(30, now)));
    await page.getByLabel('To', { exact: true }).fill(day(daysAgo(29, now)));
    await page.getByRole('button', { name: 'Show range' }).click();
    await page.getByRole('heading', { name: 'No model calls in this range' }).waitFor();
    await page.getByLabel('To', { exact: true }).fill(day(daysAgo(31, now)));
    await page.getByRole('button', { name: 'Show range' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('The last day comes before the first.');
    expect(errors).toEqual([]);
  });

  it('holds at 390 px in dark mode: its dark colours, no sideways scrolling, charts drawn, no console error', async () => {
    await seedUsage(home, calls(Date.now()));
    await openUsage(390, 'dark');
    await page.locator('[data-group="slot"] .usage-table tbody tr').first().waitFor();
    // The system's dark scheme is followed: the page's own dark colours (base.css), not the light ones.
    expect(await page.evaluate('[getComputedStyle(document.documentElement).backgroundColor, getComputedStyle(document.documentElement).color]')).toEqual(['rgb(20, 23, 27)', 'rgb(231, 234, 238)']);
    // uPlot draws each chart's canvas in an effect after the render that put the tables in.
    await page.locator('.usage-chart canvas').nth(3).waitFor({ state: 'attached' });
    expect(await page.locator('.usage-chart canvas').count()).toBe(4);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    expect(errors).toEqual([]);
  });
});
