// A custom endpoint in the dashboard's picker: the endpoint's own models (GET <base>/models) to
// pick from, a typed id still possible, and a clear note when the endpoint does not answer. The
// REST answer is checked too, and the page in Debian's chromium.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { parse } from 'yaml';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { collectPageErrors, launchChromium, startDashboard, type Dashboard } from '../helpers/dashboard-page.js';
import { makeTempDir, removeDir } from '../helpers/iris.js';

let fake: FakeUpstream;
let dir: string;
let home: string;
let dashboard: Dashboard | undefined;
let browser: BrowserContext | undefined;
let page: Page;

beforeAll(async () => {
  fake = await startFakeUpstream({ models: ['llama-3.3-70b', 'qwen-2.5-coder'] });
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  dir = await makeTempDir('iris-dashboard-custom-');
  home = join(dir, 'home');
  await mkdir(home, { recursive: true, mode: 0o700 });
});
afterEach(async () => {
  await browser?.close();
  await dashboard?.stop();
  browser = undefined;
  dashboard = undefined;
  await removeDir(dir);
});

const customConfig = (baseUrl: string) => `model:\n  provider: custom\n  default: llama-3.3-70b\n  base_url: ${baseUrl}\n  key_env: LLAMA_KEY\n`;

/** The page carries the session token (window.__DASHBOARD_AUTH_TOKEN__); the API wants it. */
async function options(): Promise<{ providers: Array<{ slug: string; models: string[]; models_error?: string }> }> {
  const html = await (await fetch(dashboard!.url)).text();
  const token = /__DASHBOARD_AUTH_TOKEN__=("[^"]+")/.exec(html)?.[1];
  expect(token).toBeDefined();
  const response = await fetch(`${dashboard!.url}api/model/options`, { headers: { 'X-Service-Session-Token': JSON.parse(token!) as string } });
  expect(response.status).toBe(200);
  return (await response.json()) as Awaited<ReturnType<typeof options>>;
}

async function openPicker(): Promise<ReturnType<Page['getByRole']>> {
  browser = await launchChromium(join(dir, 'chromium-profile'));
  page = browser.pages()[0] ?? (await browser.newPage());
  page.setDefaultTimeout(10_000);
  const errors = collectPageErrors(page);
  await page.goto(dashboard!.url);
  await page.locator('[data-slot="main"] .slot-value').waitFor();
  await page.getByRole('button', { name: 'Change main model' }).click();
  const picker = page.getByRole('dialog', { name: 'Choose the main model' });
  await picker.getByRole('button', { name: /^Custom endpoint/ }).click();
  expect(errors).toEqual([]);
  return picker;
}

describe('a custom endpoint in the dashboard picker', { timeout: 60_000 }, () => {
  it("lists the endpoint's own models, asked with its key, and assigns the one picked", async () => {
    await writeFile(join(home, 'config.yaml'), customConfig(`${fake.url}/v1`), { mode: 0o600 });
    dashboard = await startDashboard(home, { LLAMA_KEY: 'llama-secret-0123456789' });
    const custom = (await options()).providers.find((p) => p.slug === 'custom');
    expect(custom).toMatchObject({ models: ['llama-3.3-70b', 'qwen-2.5-coder'] });
    expect(custom).not.toHaveProperty('models_error');
    expect(fake.requests.filter((r) => r.path === '/v1/models').map((r) => r.headers.authorization)).toEqual(['Bearer llama-secret-0123456789']);

    const picker = await openPicker();
    await picker.getByRole('button', { name: /qwen-2\.5-coder/ }).click();
    await picker.waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('[data-slot="main"] .slot-value').textContent()).toBe('custom · qwen-2.5-coder');
    expect((parse(await readFile(join(home, 'config.yaml'), 'utf8')) as { model: Record<string, unknown> }).model).toMatchObject({
      provider: 'custom',
      default: 'qwen-2.5-coder',
      base_url: `${fake.url}/v1`,
    });
  });

  it('says so when the endpoint does not answer, and still takes a typed id', async () => {
    await writeFile(join(home, 'config.yaml'), customConfig('http://127.0.0.1:9/v1'), { mode: 0o600 });
    dashboard = await startDashboard(home, {});
    const custom = (await options()).providers.find((p) => p.slug === 'custom');
    expect(custom?.models).toEqual([]);
    expect(custom?.models_error).toMatch(/^the endpoint did not list its models \(.+\); type the model id$/);

    const picker = await openPicker();
    expect(await picker.getByRole('status').textContent()).toBe(custom?.models_error);
    const typed = picker.getByLabel('Model id');
    await typed.fill('my-local-model');
    await typed.press('Enter');
    await picker.waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('[data-slot="main"] .slot-value').textContent()).toBe('custom · my-local-model');
  });
});
