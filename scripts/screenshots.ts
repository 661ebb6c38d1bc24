// Screenshots of the dashboard's Models page for the docs: the real `iris dashboard` over a
// temporary IRIS_HOME with a few assignments and a week of recorded usage, in Debian's chromium.
//   npm run build && node scripts/run-ts.mjs scripts/screenshots.ts
// Run from the repository root. Writes docs/dashboard-models.png (1280 px wide) and
// docs/dashboard-models-mobile.png (390 px).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { launchChromium, seedUsage, startDashboard } from '../test/helpers/dashboard-page.js';

const CONFIG = `model:
  provider: openrouter
  default: anthropic/claude-sonnet-4.5
auxiliary:
  vision: { provider: openai, model: gpt-4.1 }
  compression: { provider: openrouter, model: google/gemini-2.5-flash }
  title_generation: { provider: openai, model: gpt-5-mini }
`;

const KEYS = {
  OPENROUTER_API_KEY: 'sk-or-screenshot-0123456789',
  OPENAI_API_KEY: 'sk-openai-screenshot-0123456789',
  ANTHROPIC_API_KEY: 'sk-ant-screenshot-0123456789',
};

const HOUR = 3_600_000;

function usage(now: number) {
  const call = (hoursAgo: number, provider: string, model: string, task: string, input: number, output: number, cost: number | null) => ({
    at: now - hoursAgo * HOUR, provider, model, task, inputTokens: input, outputTokens: output, cachedTokens: Math.round(input / 3), costUsd: cost,
  });
  return [
    call(2, 'openrouter', 'anthropic/claude-sonnet-4.5', 'main', 412_000, 28_400, 1.41),
    call(30, 'openrouter', 'anthropic/claude-sonnet-4.5', 'main', 228_000, 15_100, 0.79),
    call(5, 'openai', 'gpt-4.1', 'vision', 64_000, 2_100, 0.14),
    call(8, 'openrouter', 'google/gemini-2.5-flash', 'compression', 180_000, 9_800, 0.08),
    call(3, 'openai', 'gpt-5-mini', 'title_generation', 12_400, 600, 0.004),
    call(50, 'custom', 'llama-3.3-70b', 'main', 40_000, 3_000, null),
  ];
}

const dir = await mkdtemp(join(tmpdir(), 'iris-screenshots-'));
const home = join(dir, 'home');
const docs = resolve('docs');
try {
  await mkdir(home, { recursive: true, mode: 0o700 });
  await writeFile(join(home, 'config.yaml'), CONFIG, { mode: 0o600 });
  await seedUsage(home, usage(Date.now()));
  const dashboard = await startDashboard(home, KEYS, resolve('bin/iris'));
  try {
    for (const [width, height, file] of [
      [1280, 1000, 'dashboard-models.png'],
      [390, 1000, 'dashboard-models-mobile.png'],
    ] as const) {
      const browser = await launchChromium(join(dir, `profile-${width}`), { width, height });
      try {
        const page = browser.pages()[0] ?? (await browser.newPage());
        await page.goto(dashboard.url);
        await page.locator('.card .stats').first().waitFor();
        // Wide: the auxiliary slots open beside the cards. Narrow: closed, so a card shows too.
        if (width > 600) await page.getByRole('button', { name: /^Auxiliary models/ }).click();
        await page.mouse.move(0, 0);
        await page.screenshot({ path: join(docs, file) });
        process.stdout.write(`wrote docs/${file}\n`);
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
