// The dashboard's Models page in a real browser: the real `iris dashboard` as a subprocess on a
// free port, and Debian's chromium driven by playwright-core (which downloads no browser).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import type { UsageRecord } from '../../src/store/types.js';
import { cleanEnv, IRIS_BIN } from './iris.js';

// The pretest step (scripts/test-prerequisites.mjs) makes sure it is there.
export const CHROMIUM = process.env.IRIS_CHROMIUM || '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export type Dashboard = { readonly url: string; readonly stop: () => Promise<void> };

/**
 * Starts `iris dashboard --port 0 --no-open` and waits for the `dashboard: <url>` line. `bin`: the
 * executable, for callers bundled elsewhere (scripts/screenshots.ts).
 */
export async function startDashboard(home: string, env: Record<string, string>, bin = IRIS_BIN): Promise<Dashboard> {
  const child = spawn(process.execPath, [bin, 'dashboard', '--port', '0', '--no-open'], {
    env: cleanEnv({ IRIS_HOME: home, ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail('no "dashboard: <url>" line within 15 s'), 15_000);
    function fail(why: string) {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`iris dashboard: ${why}\nstdout: ${stdout}\nstderr: ${stderr}`));
    }
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = /^dashboard: (http:\/\/127\.0\.0\.1:\d+\/)\n/.exec(stdout);
      if (line?.[1]) {
        clearTimeout(timer);
        resolve(line[1]);
      } else if (stdout.includes('\n')) fail('the first line is not "dashboard: <url>"');
    });
    child.once('exit', (code) => fail(`exited with ${code}`));
  });
  return { url, stop: () => stopProcess(child) };
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Chromium with a fresh profile in `userDataDir`. */
export async function launchChromium(
  userDataDir: string,
  viewport: { width: number; height: number } = { width: 1280, height: 900 },
): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: run node scripts/test-prerequisites.mjs (npm test runs it first), or install Debian's chromium (apt-get install -y --no-install-recommends chromium)`);
  }
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
    colorScheme: 'light',
    reducedMotion: 'reduce',
  });
}

/** Every console error and uncaught page error, as text. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return errors;
}

/** A model call to seed; its source is `cli` and it wrote nothing to the prompt cache unless it says. */
export type SeededUsage = Omit<UsageRecord, 'sessionId' | 'source' | 'cacheWriteTokens'> & Partial<Pick<UsageRecord, 'source' | 'cacheWriteTokens'>>;

/** Records model calls in `$IRIS_HOME/state.db`, as the agent would. */
export async function seedUsage(home: string, records: readonly SeededUsage[]): Promise<void> {
  await mkdir(home, { recursive: true, mode: 0o700 });
  const store = await openSqliteStore(join(home, 'state.db'));
  try {
    const session = await store.createSession({ source: 'cli', provider: 'openrouter', model: 'anthropic/claude-sonnet-4.5' });
    for (const record of records) await store.recordUsage({ sessionId: session.id, source: 'cli', cacheWriteTokens: 0, ...record });
  } finally {
    await store.close();
  }
}
