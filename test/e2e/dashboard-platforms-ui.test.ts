// The Platforms page in Debian's chromium against the real `iris dashboard`, with `iris gateway
// run` polling the fake Telegram Bot API and the fake model answering: a stranger messages the bot
// and gets a pairing code; the operator approves it on the page, and the stranger's next message
// is answered. Revoke asks first; Test sends one message through the outbox; the token is never
// on the page. At 390 px with no platform enabled, the page says how to enable one.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeSentMessage, type FakeTelegram } from '../fakes/telegram-api.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { collectPageErrors, launchChromium, startDashboard, type Dashboard } from '../helpers/dashboard-page.js';
import { startGatewayProcess, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { writePlatformConfig } from '../helpers/platforms.js';

// What the page.evaluate callbacks use on the browser side (the tests' tsconfig has no DOM types).
declare const document: { readonly documentElement: { readonly scrollWidth: number; readonly clientWidth: number } };

const TOKEN = '123456789:AAF-platforms_page_token_0123456789';
const OWNER = 111_111;
const STRANGER = 333_333;
const HOME_CHAT = 555_555;
/** For an answer to arrive: a run starts a runtime and calls the model (parallel test files slow it down). */
const WAIT = 15_000;
const TEST_MESSAGE = 'Test message from the Iris dashboard: this chat receives what Iris sends here.';

let upstream: FakeUpstream;
let telegram: FakeTelegram;
let dir: string;
let home: string;
let gateway: GatewayProcess | undefined;
let dashboard: Dashboard | undefined;
let browser: BrowserContext | undefined;
let page: Page;

beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());
beforeEach(async () => {
  upstream.reset();
  telegram = await startFakeTelegram({ token: TOKEN });
  dir = await makeTempDir('iris-platforms-ui-');
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
});
afterEach(async () => {
  await browser?.close();
  await dashboard?.stop();
  await gateway?.stop('SIGKILL');
  await telegram.close();
  browser = undefined;
  dashboard = undefined;
  gateway = undefined;
  await removeDir(dir);
});

const ENV = () => ({ OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${upstream.url}/v1`, TELEGRAM_BOT_TOKEN: TOKEN });
const wire = (messages: readonly FakeSentMessage[]) => messages.map((m) => [m.chat_id, m.text]);
const approvedUsers = async () => {
  const listed = await runIris(['pairing', 'list', '--json'], { home });
  expect(listed.code).toBe(0);
  return (JSON.parse(listed.stdout) as { approved: Array<{ user_id: string }> }).approved.map((u) => u.user_id);
};

async function openPlatforms(width = 1280): Promise<string[]> {
  dashboard = await startDashboard(home, ENV());
  browser = await launchChromium(join(dir, 'chromium-profile'), { width, height: 900 });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.setDefaultTimeout(10_000);
  const errors = collectPageErrors(page);
  await page.goto(`${dashboard.url}#/platforms`);
  await page.getByRole('heading', { name: 'Platforms' }).waitFor();
  return errors;
}

describe('the Platforms page in chromium', { timeout: 120_000 }, () => {
  it('a stranger gets a code; Approve on the page lets them in and their next message is answered; Revoke asks; Test sends', async () => {
    upstream.script('main-m', { kind: 'echo', prefix: 'Hi: ' });
    await writePlatformConfig(home, `  telegram:\n    enabled: true\n    extra:\n      api_base: ${telegram.url}\n      poll_timeout: 1\n      owners: [${OWNER}]\n      home_channel: ${HOME_CHAT}\n`);
    gateway = await startGatewayProcess(home, ENV());

    // The stranger's direct message: a pairing code, and no run.
    telegram.pushMessage({ chatId: STRANGER, userId: STRANGER, text: 'let me in' });
    const [pairing] = await telegram.waitForSent(1, WAIT);
    const code = /pairing code is ([A-Z0-9]{8})/.exec(pairing!.text)?.[1];
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);

    const errors = await openPlatforms();
    const card = page.getByRole('listitem', { name: 'telegram' });
    await card.locator('.platform-chip', { hasText: 'Connected' }).waitFor();
    expect(await card.locator('.platform-facts').textContent()).toBe(`Home channel${HOME_CHAT}Owners${OWNER}Allowed usersnone listed`);
    await card.getByText('Settings').click();
    expect(await card.getByRole('row', { name: /TELEGRAM_BOT_TOKEN/ }).textContent()).toBe('TELEGRAM_BOT_TOKENset');
    expect(await page.content()).not.toContain('AAF-platforms_page_token');

    // Approve: the code leaves the list, the CLI agrees, and the next message is answered.
    const pendingRow = card.locator('.platform-item', { hasText: code! });
    expect(await pendingRow.textContent()).toMatch(new RegExp(`^${code} from Ada \\(${STRANGER}\\) in chat ${STRANGER}, \\d+s agoApprove$`));
    await card.getByRole('button', { name: `Approve ${code}` }).click();
    await page.getByRole('status').filter({ hasText: `Approved telegram user Ada (${STRANGER}): their next message is answered.` }).waitFor();
    await card.getByText('None. A stranger who messages the bot directly gets a code here, valid for an hour.').waitFor();
    expect(await approvedUsers()).toEqual([String(STRANGER)]);
    telegram.pushMessage({ chatId: STRANGER, userId: STRANGER, text: 'now?' });
    const sent = await telegram.waitForSent(2, WAIT);
    expect(wire(sent.slice(1))).toEqual([[String(STRANGER), 'Hi: now?']]);

    // Revoke asks first: Keep changes nothing; Revoke removes the user.
    await card.getByRole('button', { name: `Revoke ${STRANGER}` }).click();
    await card.getByRole('button', { name: 'Keep' }).click();
    expect(await approvedUsers()).toEqual([String(STRANGER)]);
    await card.getByRole('button', { name: `Revoke ${STRANGER}` }).click();
    await card.getByRole('group', { name: `Revoke Ada (${STRANGER})?` }).getByRole('button', { name: 'Revoke' }).click();
    await card.getByText('None approved by pairing yet.').waitFor();
    expect(await approvedUsers()).toEqual([]);

    // Test: one message to the home channel, through the outbox and the gateway.
    await card.getByRole('button', { name: 'Send test message' }).click();
    await card.getByText(/^Sent to 555555 \(outbox #\d+\)\.$/).waitFor({ timeout: WAIT });
    expect(wire((await telegram.waitForSent(3, WAIT)).slice(2))).toEqual([[String(HOME_CHAT), TEST_MESSAGE]]);
    expect(await page.content()).not.toContain('AAF-platforms_page_token');
    expect(errors).toEqual([]);
  });

  it('at 390 px with no platform enabled: says how to enable one, no horizontal scrolling', async () => {
    await writeFile(join(home, 'config.yaml'), 'model:\n  provider: openai\n  default: main-m\n', { mode: 0o600 });
    const errors = await openPlatforms(390);
    await page.getByText('No chat platform is enabled yet.').waitFor();
    expect(await page.locator('.platforms-empty').textContent()).toContain('iris config set platforms.telegram.enabled true');
    expect(await page.locator('.platforms-empty').textContent()).toContain('iris setup');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    expect(errors).toEqual([]);
  });
});
