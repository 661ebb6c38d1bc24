// The Webhooks page (issue 39) in Debian's chromium against the real `iris dashboard`: subscribe a
// route in the form, see its secret once (and copy it), find it in `iris webhook list --json`,
// send a signed test event to the running gateway and follow its last delivery link to the
// Deliveries view until it is delivered, then remove it after the page asks. The CLI and the page share the library, so they must agree.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { collectPageErrors, launchChromium, startDashboard, type Dashboard } from '../helpers/dashboard-page.js';
import { startGatewayProcess, waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

// What the page.evaluate callbacks use on the browser side (the tests' tsconfig has no DOM types).
declare const document: { readonly documentElement: { readonly scrollWidth: number; readonly clientWidth: number; readonly innerHTML: string } };
declare const navigator: { readonly clipboard: { readText(): Promise<string> } };

const CONFIG = 'model:\n  provider: openai\n  default: main-m\nplatforms:\n  webhook:\n    enabled: true\n    extra:\n      host: 127.0.0.1\n      port: 0\n';

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
  fake.reset();
  dir = await makeTempDir('iris-webhooks-ui-');
  home = join(dir, 'home');
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

type Listed = { name: string; source: string; events: string[]; deliver: string; has_secret: boolean };
async function cliList(): Promise<Listed[]> {
  const result = await runIris(['webhook', 'list', '--json'], { home });
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Listed[];
}

async function openWebhooks(width = 1280): Promise<string[]> {
  dashboard = await startDashboard(home, env());
  browser = await launchChromium(join(dir, 'chromium-profile'), { width, height: 900 });
  await browser.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(dashboard.url).origin });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.setDefaultTimeout(10_000);
  const errors = collectPageErrors(page);
  await page.goto(`${dashboard.url}#/webhooks`);
  await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
  return errors;
}

const route = (name: string) => page.getByRole('listitem', { name: `Route ${name}` });

describe('the Webhooks page in chromium', { timeout: 90_000 }, () => {
  it('subscribes a route with its secret shown once, sends a test event, links its delivery, and removes it after asking', async () => {
    const errors = await openWebhooks();
    await page.getByText(/^No routes yet\./).waitFor();

    // Subscribe: the form, then the secret once, in its box.
    await page.getByLabel('Name').fill('ci-ui');
    await page.getByLabel('Events').fill('push');
    await page.getByLabel('Prompt').fill('Build {ref}');
    await page.getByLabel('Deliver the answer to').selectOption('log');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    const box = page.getByRole('group', { name: 'Secret of route ci-ui' });
    await box.waitFor();
    const secret = (await box.locator('code.webhooks-secret-value').textContent()) ?? '';
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(await box.textContent()).toContain('This secret will not be shown again.');
    const stored = JSON.parse(await readFile(join(home, 'webhook_subscriptions.json'), 'utf8')) as { subscriptions: Record<string, { secret: string; prompt: string; events: string[] }> };
    expect(stored.subscriptions['ci-ui']).toMatchObject({ secret, prompt: 'Build {ref}', events: ['push'] });
    await box.getByRole('button', { name: 'Copy secret' }).click();
    await box.getByText('Copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

    // The CLI sees it; the page lists it without the secret.
    expect(await cliList()).toEqual([{ name: 'ci-ui', source: 'subscription', enabled: true, events: ['push'], deliver: 'log', url: 'http://127.0.0.1:0/webhooks/ci-ui', has_secret: true }]);
    await route('ci-ui').waitFor();
    expect(await route('ci-ui').locator('dd').allTextContents()).toEqual(['POST http://127.0.0.1:0/webhooks/ci-ui', 'push', 'none', 'log', 'set', 'no events yet']);
    await box.getByRole('button', { name: 'I have stored it' }).click();
    await box.waitFor({ state: 'detached' });
    await page.reload();
    await route('ci-ui').waitFor();
    expect(await page.evaluate(() => document.documentElement.innerHTML)).not.toContain(secret);

    // Send test event: refused while no gateway runs, accepted once one does.
    await route('ci-ui').getByRole('button', { name: 'Send a test event to ci-ui' }).click();
    await route('ci-ui').getByRole('alert').getByText(/^this home's gateway is not running/).waitFor();
    gateway = await startGatewayProcess(home, env());
    fake.script('main-m', { kind: 'text', deltas: ['Build looks fine.'] }, { kind: 'text', deltas: ['CI title'] });
    await route('ci-ui').getByRole('button', { name: 'Send a test event to ci-ui' }).click();
    await route('ci-ui').getByText(/the gateway answered 202 and accepted it\. It carried /).waitFor();
    const [delivery] = JSON.parse((await runIris(['webhook', 'deliveries', '--json'], { home })).stdout) as Array<{ id: number; route: string }>;
    expect(delivery?.route).toBe('ci-ui');
    const link = route('ci-ui').locator('a.webhooks-last');
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`#/deliveries/${delivery!.id}`);
    expect(await link.textContent()).toMatch(new RegExp(`^#${delivery!.id} (accepted|running|done|delivering|delivered)$`));
    // The link opens the event in the Deliveries view, which follows it to `delivered` by itself.
    await link.click();
    await page.getByRole('heading', { name: new RegExp(`^Event #${delivery!.id}`) }).waitFor();
    await page.locator('.delivery-head .delivery-state', { hasText: /^delivered$/ }).waitFor({ timeout: 20_000 });
    expect(await page.locator('.delivery-section', { has: page.getByRole('heading', { name: 'Answer' }) }).locator('pre').textContent()).toBe('Build looks fine.');
    await page.goBack();
    await route('ci-ui').waitFor();

    // Remove asks first; keeping it changes nothing.
    await route('ci-ui').getByRole('button', { name: 'Remove route ci-ui' }).click();
    await page.getByRole('button', { name: 'Keep it' }).click();
    expect((await cliList()).map((row) => row.name)).toEqual(['ci-ui']);
    await route('ci-ui').getByRole('button', { name: 'Remove route ci-ui' }).click();
    await page.getByRole('button', { name: 'Remove ci-ui' }).click();
    await page.getByText('Removed route ci-ui.').waitFor();
    await route('ci-ui').waitFor({ state: 'detached' });
    expect(await cliList()).toEqual([]);
    await waitFor(async () => ((await runIris(['webhook', 'deliveries', '--json'], { home })).stdout.includes('"delivered"') ? true : undefined), 15_000, 'the test event to be delivered');
    // Chromium logs the one refused request (the test event without a gateway); nothing else went wrong.
    expect(errors).toEqual(['console: Failed to load resource: the server responded with a status of 409 (Conflict)']);
  });

  it('refuses a bad name in the form, and at 390 px wide has no horizontal scrolling', async () => {
    const errors = await openWebhooks(390);
    await page.getByText(/^No routes yet\./).waitFor();
    await page.getByLabel('Name').fill('Bad Name');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByRole('alert').getByText('The name "Bad Name" does not fit the rule: lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64, without "..".').waitFor();
    expect(await cliList()).toEqual([]);
    await page.getByLabel('Name').fill('narrow');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByRole('group', { name: 'Secret of route narrow' }).waitFor();
    await route('narrow').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    expect(errors).toEqual([]);
  });
});
