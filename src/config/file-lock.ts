// A lock file beside the file it guards, so that the CLI, the dashboard and the gateway can each
// re-read, change and write config.yaml or .env without losing another process's change.
// The lock holds "<pid> <hostname> <epoch ms>"; a lock whose process is gone, or that is older
// than `staleMs`, is broken, so a crashed writer cannot wedge every later one.
import { hostname } from 'node:os';
import { link, open, readFile, rename, rm, stat } from 'node:fs/promises';

export type LockOptions = {
  readonly timeoutMs?: number;
  readonly staleMs?: number;
  readonly retryMs?: number;
};

const DEFAULTS = Object.freeze({ timeoutMs: 10_000, staleMs: 30_000, retryMs: 15 });

export type LockOutcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly holder: string };

function processIsGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function isStale(lockPath: string, content: string, staleMs: number): Promise<boolean> {
  const [pidText, host] = content.split(' ');
  const pid = Number(pidText);
  if (host === hostname() && Number.isInteger(pid) && pid > 0 && processIsGone(pid)) return true;
  try {
    return Date.now() - (await stat(lockPath)).mtimeMs > staleMs;
  } catch {
    return false; // gone already: the next attempt will take it
  }
}

/** Moves a stale lock aside; if another process replaced it meanwhile, puts theirs back. */
async function breakStaleLock(lockPath: string, staleContent: string): Promise<void> {
  const aside = `${lockPath}.stale.${process.pid}.${Date.now()}`;
  try {
    await rename(lockPath, aside);
  } catch {
    return;
  }
  const moved = await readFile(aside, 'utf8').catch(() => staleContent);
  if (moved !== staleContent) await link(aside, lockPath).catch(() => undefined);
  await rm(aside, { force: true });
}

async function tryCreate(lockPath: string, content: string): Promise<boolean> {
  try {
    const file = await open(lockPath, 'wx', 0o600);
    try {
      await file.writeFile(content);
    } finally {
      await file.close();
    }
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

export async function withFileLock<T>(
  lockPath: string,
  work: () => Promise<T>,
  options: LockOptions = {},
): Promise<LockOutcome<T>> {
  const { timeoutMs, staleMs, retryMs } = { ...DEFAULTS, ...options };
  const deadline = Date.now() + timeoutMs;
  const mine = `${process.pid} ${hostname()} ${Date.now()}-${Math.random().toString(36).slice(2)}`;
  let holder = '';
  for (;;) {
    if (await tryCreate(lockPath, mine)) break;
    holder = await readFile(lockPath, 'utf8').catch(() => '');
    if (holder && (await isStale(lockPath, holder, staleMs))) {
      await breakStaleLock(lockPath, holder);
      continue;
    }
    if (Date.now() >= deadline) return { ok: false, holder };
    // Jitter keeps two waiting writers from retrying in lock step.
    await new Promise((r) => setTimeout(r, retryMs + Math.floor(Math.random() * retryMs)));
  }
  try {
    return { ok: true, value: await work() };
  } finally {
    // Only remove the lock if it is still ours (a stuck holder's lock may have been broken).
    if ((await readFile(lockPath, 'utf8').catch(() => '')) === mine) await rm(lockPath, { force: true });
  }
}
