// The health strip and the Logs page in Debian's chromium against the real `iris dashboard`: the
// strip says the gateway is not running, a real `iris gateway run` starts, and within a few
// seconds the same page (no reload) says it runs; the Logs page lists the gateway's lines newest
// first with a planted secret redacted, and the text filter narrows them.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { collectPageErrors, launchChromium, startDashboard, type Dashboard } from '../helpers/dashboard-page.js';
import { startGatewayProcess, waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir } from '../helpers/iris.js';

// What the page.evaluate callbacks use on the browser side (the tests' tsconfig has no DOM types).
declare const document: { readonly documentElement: { readonly scrollWidth: number; readonly clientWidth: number } };
declare const window: { healthMarker?: string };

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
        ci:
          secret: ui-secret-0123456789abcdef
          events: [push]
`;
const PLANTED = 'sk-live-PLANTED0123456789abcdef';

let fake: FakeUpstream;
let dir: string;
let home: string;
let dashboard: Dashboard | undefined;
let browser: BrowserContext | undefined;
let gateway: GatewayProcess | undefined;
let page: Page;

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  dir = await makeTempDir('iris-health-logs-ui-');
  home = join(dir, 'home');
  await mkdir(join(home, 'logs'), { recursive: true, mode: 0o700 });
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

async function open(hash: string, width = 1280): Promise<string[]> {
  dashboard = await startDashboard(home, env());
  browser = await launchChromium(join(dir, 'chromium-profile'), { width, height: 900 });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.setDefaultTimeout(10_000);
  const errors = collectPageErrors(page);
  await page.goto(`${dashboard.url}${hash}`);
  return errors;
}

const gatewayChip = () => page.locator('.health-chip[data-chip="gateway"]');
const chipText = async () => (await gatewayChip().textContent())?.replace(/\s*\(.*\)\s*$/, '') ?? '';

describe('the health strip and the Logs page in chromium', { timeout: 90_000 }, () => {
  it('the strip goes from "not running" to "running" live when a gateway starts', async () => {
    const errors = await open('#/models');
    await gatewayChip().waitFor();
    expect(await chipText()).toBe('gateway: not running');
    expect(await gatewayChip().getAttribute('class')).toBe('health-chip health-bad');
    await page.evaluate(() => (window.healthMarker = 'same page'));

    gateway = await startGatewayProcess(home, env());
    const started = Date.now();
    await waitFor(async () => ((await chipText()) === 'gateway: running' ? true : undefined), 8_000, `the strip to say running (it says "${await chipText()}")`);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(await gatewayChip().getAttribute('class')).toBe('health-chip health-ok');
    expect(await page.locator('.health-chip[data-chip="listener"]').textContent()).toContain(`listener: 127.0.0.1:${gateway.port}`);
    expect(await page.evaluate(() => window.healthMarker)).toBe('same page');
    expect(errors).toEqual([]);
  });

  it('the Logs page lists the lines newest first, secrets redacted, and filters by text', async () => {
    const lines = [
      { level: 30, time: '2026-11-28T10:00:01.000Z', msg: 'gateway listening', pid: 7 },
      { level: 40, time: '2026-11-28T10:00:02.000Z', msg: 'webhook refused', route: 'ci', reason: 'bad signature', pid: 7 },
      { level: 50, time: '2026-11-28T10:00:03.000Z', msg: `upstream refused the key ${PLANTED}`, route: 'ci', pid: 7 },
    ];
    await writeFile(join(home, 'logs', 'gateway.log'), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    const errors = await open('#/logs');
    const messages = () => page.locator('.logs-row .logs-what').allTextContents();
    const shows = (expected: string[]) =>
      waitFor(async () => (JSON.stringify(await messages()) === JSON.stringify(expected) ? true : undefined), 5_000, `the table to show ${JSON.stringify(expected)}`);

    await shows(['upstream refused the key sk-[redacted]', 'webhook refused', 'gateway listening']);
    expect(await page.locator('.logs-row').first().locator('.logs-level').textContent()).toBe('ERROR');
    expect(await page.locator('.logs-row').nth(1).locator('.logs-field').allTextContents()).toEqual(['route=ci', 'reason=bad signature']);
    expect(await page.content()).not.toContain('PLANTED');

    await page.getByLabel('Search').fill('bad signature');
    await shows(['webhook refused']);
    await page.getByLabel('Search').fill('kiwi');
    await page.getByText('No line of the gateway log matches these filters. Clear a filter to see more.').waitFor();
    await page.getByLabel('Search').fill('');
    await page.getByLabel('Level').selectOption('error');
    await shows(['upstream refused the key sk-[redacted]']);

    // Refresh reads the file again: a new line shows at the top.
    await writeFile(join(home, 'logs', 'gateway.log'), `${JSON.stringify({ level: 60, time: '2026-11-28T10:00:09.000Z', msg: 'disk full' })}\n`, { flag: 'a' });
    await page.getByRole('button', { name: 'Refresh' }).click();
    await shows(['disk full', 'upstream refused the key sk-[redacted]']);
    expect(errors).toEqual([]);
  });

  it('an answer to earlier filters that comes back after a later one is dropped', async () => {
    const lines = [
      { level: 30, time: '2026-11-28T10:00:01.000Z', msg: 'alpha one' },
      { level: 30, time: '2026-11-28T10:00:02.000Z', msg: 'beta two' },
    ];
    await writeFile(join(home, 'logs', 'gateway.log'), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    const errors = await open('#/logs');
    const messages = () => page.locator('.logs-row .logs-what').allTextContents();
    const shows = (expected: string[]) =>
      waitFor(async () => (JSON.stringify(await messages()) === JSON.stringify(expected) ? true : undefined), 5_000, `the table to show ${JSON.stringify(expected)}`);
    await shows(['beta two', 'alpha one']);

    // The request for "alpha" is held until the one for "beta" has been answered and shown.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => (held = resolve));
    await page.route(
      (url) => url.pathname === '/api/logs' && url.searchParams.get('q') === 'alpha',
      async (route) => {
        held();
        await released;
        await route.continue();
      },
    );
    await page.getByLabel('Search').fill('alpha');
    await holding;
    await page.getByLabel('Search').fill('beta');
    await shows(['beta two']);
    const alphaAnswered = page.waitForResponse((response) => new URL(response.url()).searchParams.get('q') === 'alpha');
    release();
    await alphaAnswered;
    // Give the page time to (wrongly) show it.
    await page.waitForTimeout(300);
    expect(await messages()).toEqual(['beta two']);
    expect(errors).toEqual([]);
  });

  it('at 390 px wide: the strip wraps and nothing scrolls sideways', async () => {
    await writeFile(join(home, 'logs', 'gateway.log'), `${JSON.stringify({ level: 30, time: 1, msg: 'a long line '.repeat(40), route: 'ci', detail: 'x'.repeat(300) })}\n`);
    const errors = await open('#/logs', 390);
    await gatewayChip().waitFor();
    await page.locator('.logs-row').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    expect(errors).toEqual([]);
  });
});
