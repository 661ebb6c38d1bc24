// Screenshots of every dashboard page for the docs: the real `iris dashboard` over a temporary
// IRIS_HOME (scripts/screenshot-home.ts: two profiles, chats and a webhook run, usage with aux
// slots and an unpriced model), in Debian's chromium, light and dark, 1280 and 390 px wide.
//   npm run build && node scripts/run-ts.mjs scripts/screenshots.ts [<page>…]
// Run from the repository root. Writes docs/screenshots/dashboard-<page>-<light|dark>-<1280|390>.png
// for each page in src/dashboard/web/nav.ts's PAGES (a page added there is photographed too), or
// only the pages named.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { PAGES, type PageId } from '../src/dashboard/web/nav.js';
import { launchChromium, startDashboard } from '../test/helpers/dashboard-page.js';
import { CHAT_SESSION, KEYS, seedHome } from './screenshot-home.js';

// What the page.evaluate callback reads on the browser side (this tsconfig has no DOM types).
declare const document: { readonly documentElement: { readonly scrollHeight: number } };

const WIDTHS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
] as const;
const SCHEMES = ['light', 'dark'] as const;
const MAX_SCREENS = 2;

/** What a page needs before it is photographed; a page without an entry is shot once it has loaded. */
const PREPARE: Partial<Record<PageId, { hash?: string; ready?: (page: Page, width: number) => Promise<void> }>> = {
  chat: { hash: `#/chat/${CHAT_SESSION}` },
  models: {
    ready: async (page, width) => {
      await page.locator('.card .stats').first().waitFor();
      // Wide: the auxiliary slots open beside the cards. Narrow: closed, so a card shows too.
      if (width > 600) await page.getByRole('button', { name: /^Auxiliary models/ }).click();
    },
  },
  profiles: { ready: (page) => page.locator('[data-profile="work"]').waitFor() },
};

/**
 * Loaded: no "Loading…" left and no request in flight. Both are best efforts: a page that keeps a
 * stream open (the chat's events) is never idle, and a page still being built may show neither.
 */
async function settle(page: Page): Promise<void> {
  await page.locator('main').first().waitFor();
  await page.waitForLoadState('networkidle', { timeout: 3_000 }).catch(() => {});
  await page.locator('.loading').first().waitFor({ state: 'detached', timeout: 5_000 }).catch(() => {});
}

const wanted = process.argv.slice(2);
const unknown = wanted.filter((id) => !PAGES.some((page) => page.id === id));
if (unknown.length > 0) {
  process.stderr.write(`no such page: ${unknown.join(', ')} (pages: ${PAGES.map((page) => page.id).join(', ')})\n`);
  process.exit(2);
}
const pages = PAGES.filter((page) => wanted.length === 0 || wanted.includes(page.id));

const dir = await mkdtemp(join(tmpdir(), 'iris-screenshots-'));
const home = join(dir, 'home');
const out = resolve('docs', 'screenshots');
let failed = 0;
try {
  await mkdir(out, { recursive: true });
  await seedHome(home, Date.now());
  const dashboard = await startDashboard(home, KEYS, resolve('bin/iris'));
  try {
    for (const size of WIDTHS) {
      const browser = await launchChromium(join(dir, `chromium-${size.width}`), size);
      try {
        const page = browser.pages()[0] ?? (await browser.newPage());
        page.setDefaultTimeout(10_000);
        for (const scheme of SCHEMES) {
          await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
          for (const { id } of pages) {
            const file = `dashboard-${id}-${scheme}-${size.width}.png`;
            try {
              // A fresh load per shot: no state (an open picker, a scrolled list) carries over.
              await page.goto(`${dashboard.url}${PREPARE[id]?.hash ?? `#/${id}`}`);
              await page.reload();
              await settle(page);
              await PREPARE[id]?.ready?.(page, size.width);
              await page.mouse.move(0, 0);
              // The whole page up to two screens: a long list (the model cards) shows its start, not every card.
              const height = Math.min(await page.evaluate(() => document.documentElement.scrollHeight), MAX_SCREENS * size.height);
              await page.screenshot({ path: join(out, file), fullPage: true, clip: { x: 0, y: 0, width: size.width, height }, animations: 'disabled', caret: 'hide' });
              process.stdout.write(`wrote docs/screenshots/${file}\n`);
            } catch (err) {
              failed += 1;
              process.stderr.write(`${file}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}\n`);
            }
          }
        }
      } finally {
        await browser.close();
      }
    }
  } finally {
    await dashboard.stop();
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
if (failed > 0) {
  process.stderr.write(`${failed} screenshot(s) failed\n`);
  process.exitCode = 1;
}
