// The Chat page in Debian's chromium against the real `iris dashboard` and the fake model server:
// an answer streams in, tool steps open, Stop ends a run, a reload keeps the answer (and a run in
// progress keeps streaming), /model changes one chat only, and an approval is answered in the page.
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { collectPageErrors, launchChromium, startDashboard, type Dashboard } from '../helpers/dashboard-page.js';
import { makeTempDir, removeDir } from '../helpers/iris.js';

// What the page.evaluate callbacks use on the browser side (the tests' tsconfig has no DOM types).
declare const document: { readonly documentElement: { readonly scrollWidth: number; readonly clientWidth: number } };

let fake: FakeUpstream;
let dir: string;
let home: string;
let workspace: string;
let dashboard: Dashboard | undefined;
let browser: BrowserContext | undefined;
let page: Page;
let errors: string[];

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  dir = await makeTempDir('iris-chat-ui-');
  home = join(dir, 'home');
  workspace = join(dir, 'work');
  await mkdir(home, { recursive: true, mode: 0o700 });
  await mkdir(workspace);
});
afterEach(async () => {
  await browser?.close();
  await dashboard?.stop();
  browser = undefined;
  dashboard = undefined;
  await removeDir(dir);
});

const configText = (approval: string) => `# chat test\nmodel:\n  provider: openai\n  default: main-m\napproval_mode: ${approval}\nagent:\n  workspace: ${workspace}\n`;

async function openChat(approval = 'off', width = 1280): Promise<void> {
  await writeFile(join(home, 'config.yaml'), configText(approval), { mode: 0o600 });
  dashboard = await startDashboard(home, { OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` });
  browser = await launchChromium(join(dir, 'chromium-profile'), { width, height: 900 });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.setDefaultTimeout(10_000);
  errors = collectPageErrors(page);
  expect((await page.goto(`${dashboard.url}#/chat`))?.status()).toBe(200);
  await page.getByRole('heading', { name: 'No chat open' }).waitFor();
}

/** New chat; resolves with its id once the empty conversation shows. */
async function newChat(): Promise<string> {
  const before = page.url();
  await page.getByRole('button', { name: 'New chat' }).click();
  await page.waitForURL((url) => url.toString() !== before && /#\/chat\/s_/.test(url.hash));
  // The address changes before the page draws the new chat: until then an empty chat open before
  // still says "Nothing said yet.". The picker marks the new chat current in the same render.
  const hash = new URL(page.url()).hash;
  await page.getByRole('navigation', { name: 'Chats' }).locator(`a[href="${hash}"][aria-current="page"]`).waitFor();
  await page.getByText('Nothing said yet.').waitFor();
  return decodeURIComponent(hash.replace('#/chat/', ''));
}

async function send(text: string): Promise<void> {
  const box = page.getByLabel('Message');
  await box.fill(text);
  await box.press('Enter');
}

const answers = () => page.getByLabel('Answer');
const modelLine = () => page.locator('.chat-model').textContent();

describe('the Chat page in chromium', { timeout: 60_000 }, () => {
  it('streams the answer as it is written, Stop ends the run, and a reload keeps what was said', async () => {
    await openChat();
    await newChat();
    expect(await modelLine()).toBe('Model: openai · main-m');
    fake.script('main-m', { kind: 'hang', deltas: ['First words ', 'and more'] });
    // Shift+Enter is a new line, not a send.
    await page.getByLabel('Message').fill('say');
    await page.getByLabel('Message').press('Shift+Enter');
    await page.getByLabel('Message').pressSequentially('something');
    expect(await page.getByLabel('Message').inputValue()).toBe('say\nsomething');
    await page.getByLabel('Message').press('Enter');
    // The model has written its first words and not its last (the fake holds the stream open).
    await fake.hanging();
    await expect.poll(() => answers().last().textContent()).toBe('First words and more');
    expect(await page.getByLabel('You said').textContent()).toBe('say\nsomething');
    expect(await page.getByRole('status').textContent()).toBe('Answering…');

    // A reload mid-answer: the answer so far is back, and the run is still going.
    await page.reload();
    await expect.poll(() => answers().last().textContent()).toBe('First words and more');
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByText('stopped; the session keeps what was said').waitFor();
    await page.getByRole('button', { name: 'Send' }).waitFor();
    await page.reload();
    await expect.poll(() => answers().last().textContent()).toBe('First words and more');
    expect(await page.getByLabel('You said').textContent()).toBe('say\nsomething');
    expect(errors).toEqual([]);
  });

  it('shows a tool call as a step that opens to its result; a reload mid-run keeps streaming', async () => {
    await openChat();
    await newChat();
    fake.script(
      'main-m',
      { kind: 'tool_calls', calls: [{ id: 'c1', name: 'run_command', arguments: { command: 'sleep 3; echo from-the-shell' } }] },
      { kind: 'text', deltas: ['The shell ', 'said hi.'] },
      { kind: 'text', deltas: ['Shell chat'] },
    );
    await send('use the shell');
    const step = page.locator('details.chat-tool');
    await expect.poll(() => step.locator('summary').textContent()).toBe('run_command running…');
    // Reloaded while the command runs (3 s): the step is there, and what follows streams into this page.
    await page.reload();
    await expect.poll(() => step.locator('summary').textContent()).toBe('run_command running…');
    await expect.poll(() => answers().last().textContent(), { timeout: 10_000 }).toBe('The shell said hi.');
    expect(await step.locator('summary').textContent()).toBe('run_command done');
    expect(await step.locator('.chat-tool-result').isVisible()).toBe(false);
    await step.locator('summary').click();
    expect(await step.locator('.chat-tool-result').textContent()).toContain('from-the-shell');
    expect(await step.locator('.chat-pre').first().textContent()).toBe('{"command":"sleep 3; echo from-the-shell"}');
    // The title comes after the first answer; the picker lists the chat under it.
    await page.getByRole('heading', { name: 'Shell chat' }).waitFor();
    await page.getByRole('navigation', { name: 'Chats' }).getByRole('link', { name: /Shell chat/ }).waitFor();
    expect(errors).toEqual([]);
  });

  it('/model in the box changes only this chat: another chat and config.yaml keep theirs', async () => {
    await openChat();
    const second = await newChat();
    const first = await newChat();
    await send('/model gpt-4.1');
    await expect.poll(modelLine).toBe('Model: openai · gpt-4.1');
    await page.getByText(/^\/model gpt-4\.1\nsession now on openai · gpt-4\.1/).waitFor();
    await page.goto(`${dashboard!.url}#/chat/${second}`);
    await expect.poll(modelLine).toBe('Model: openai · main-m');
    await page.goto(`${dashboard!.url}#/chat/${first}`);
    await expect.poll(modelLine).toBe('Model: openai · gpt-4.1');
    expect(await readFile(join(home, 'config.yaml'), 'utf8')).toBe(configText('off'));
    await send('hello');
    await expect.poll(() => answers().last().textContent()).toBe('ok');
    expect((fake.requests[0]?.body as { model: string }).model).toBe('gpt-4.1');
    expect(errors).toEqual([]);
  });

  it('answers an approval in the page (manual policy) at 390 px, with no sideways scrolling', async () => {
    await openChat('manual', 390);
    await newChat();
    fake.script(
      'main-m',
      { kind: 'tool_calls', calls: [{ id: 'c1', name: 'run_command', arguments: { command: 'touch from-the-page' } }] },
      { kind: 'text', deltas: ['Made it.'] },
    );
    await send('make a file');
    const card = page.getByRole('region', { name: 'Approval needed' });
    await card.waitFor();
    expect(await card.locator('.chat-pre').textContent()).toBe('touch from-the-page');
    expect(await card.locator('.chat-risk').textContent()).toBe('low risk');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await card.getByRole('button', { name: 'Approve' }).click();
    await card.getByText('Approved (approved in the dashboard)').waitFor();
    await expect.poll(() => answers().last().textContent()).toBe('Made it.');
    await access(join(workspace, 'from-the-page'));
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    expect(errors).toEqual([]);
  });
});
