// Dynamic webhook subscriptions (`iris webhook subscribe`): $IRIS_HOME/webhook_subscriptions.json,
// owner-only because it holds secrets, written atomically under a lock like config.yaml. A
// running gateway notices a change by the file's identity (see createSubscriptionReader), so a new
// subscription answers at once, without a restart.
import { readFileSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import * as z from 'zod/mini';
import { writeFileAtomic } from '../config/atomic-write.js';
import { withFileLock } from '../config/file-lock.js';
import type { HomePaths } from '../config/home.js';
import { readTextIfPresent } from '../config/read-optional.js';
import { errnoMessage, fail, type Result } from '../config/result.js';
import type { WebhookRoute } from '../config/schema.js';
import { checkName } from '../security/names.js';
import { webhookRouteSchema } from './routes.js';

export const SUBSCRIPTIONS_FILE = 'webhook_subscriptions.json';
const FORMAT_VERSION = 1;

export function subscriptionsPath(paths: HomePaths): string {
  return join(paths.dir, SUBSCRIPTIONS_FILE);
}

export type Subscription = WebhookRoute & { readonly secret: string; readonly created_at: string };

const subscriptionSchema = z.extend(webhookRouteSchema, {
  secret: z.string().check(z.minLength(1)),
  created_at: z.string(),
});

export type SubscriptionFile = {
  readonly subscriptions: Readonly<Record<string, Subscription>>;
  /** Entries that could not be read, as sentences; they are left out, never lost from the file. */
  readonly problems: readonly string[];
};

/** Reads the file's text; a missing file is an empty set. */
export function parseSubscriptions(text: string | undefined, path: string): SubscriptionFile {
  if (text === undefined || text.trim() === '') return { subscriptions: {}, problems: [] };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { subscriptions: {}, problems: [`${path} is not valid JSON; no subscription is served until it is fixed`] };
  }
  const entries = (data as { subscriptions?: unknown } | null)?.subscriptions;
  if (typeof entries !== 'object' || entries === null || Array.isArray(entries)) {
    return { subscriptions: {}, problems: [`${path} has no "subscriptions" object; no subscription is served until it is fixed`] };
  }
  const subscriptions: Record<string, Subscription> = {};
  const problems: string[] = [];
  for (const [name, entry] of Object.entries(entries)) {
    const checked = checkName('route', name);
    if (!checked.ok) {
      problems.push(`${path}: ${checked.error}; it is ignored`);
      continue;
    }
    const parsed = subscriptionSchema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      problems.push(`${path}: subscription "${name}" is invalid (${issue?.path.join('.') || 'entry'}: ${issue?.message ?? 'invalid'}); it is ignored`);
      continue;
    }
    subscriptions[name] = parsed.data;
  }
  return { subscriptions, problems };
}

export async function loadSubscriptions(paths: HomePaths): Promise<Result<SubscriptionFile>> {
  const path = subscriptionsPath(paths);
  try {
    return { ok: true, ...parseSubscriptions(await readTextIfPresent(path), path) };
  } catch (err) {
    return fail('io_error', `cannot read ${path}: ${errnoMessage(err)}`);
  }
}

export function serializeSubscriptions(subscriptions: Readonly<Record<string, unknown>>): string {
  return `${JSON.stringify({ version: FORMAT_VERSION, subscriptions }, null, 2)}\n`;
}

/**
 * Changes the subscriptions under the lock, from the freshest file. The edit gets the raw entries
 * (unreadable ones included, so a bad entry is never dropped by someone else's change).
 */
export async function updateSubscriptions<T extends object>(
  paths: HomePaths,
  edit: (entries: Record<string, unknown>, current: SubscriptionFile) => Result<T>,
): Promise<Result<T>> {
  const path = subscriptionsPath(paths);
  try {
    const outcome = await withFileLock(`${path}.lock`, async (): Promise<Result<T>> => {
      const text = await readTextIfPresent(path);
      const current = parseSubscriptions(text, path);
      if (text !== undefined && text.trim() !== '' && current.problems.some((p) => p.includes('no subscription is served'))) {
        return fail('parse_error', `${current.problems[0]}; fix or remove it first`);
      }
      const raw = text && text.trim() !== '' ? ((JSON.parse(text) as { subscriptions: Record<string, unknown> }).subscriptions ?? {}) : {};
      const edited = edit(raw, current);
      if (!edited.ok) return edited;
      await writeFileAtomic(path, serializeSubscriptions(raw), 0o600);
      return edited;
    });
    if (outcome.ok) return outcome.value;
    return fail('lock_timeout', `${path} is locked by another process (${outcome.holder || 'unknown'}); try again`);
  } catch (err) {
    return fail('io_error', `cannot write ${path}: ${errnoMessage(err)}`);
  }
}

/**
 * The subscriptions as they are now, for a long-running listener. A stat per call (microseconds)
 * decides whether the file changed; only then is it read and parsed again. `onProblems` hears
 * about unreadable entries once per change.
 */
export function createSubscriptionReader(path: string, onProblems: (problems: readonly string[]) => void = () => {}) {
  let identity = '';
  let current: SubscriptionFile = { subscriptions: {}, problems: [] };
  let version = 0;
  return {
    read(): { readonly file: SubscriptionFile; readonly version: number } {
      let next: string;
      try {
        // No exception for a missing file: most homes have none.
        const info = statSync(path, { bigint: true, throwIfNoEntry: false });
        next = info ? `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}` : 'missing';
      } catch {
        next = 'unreadable';
      }
      if (next !== identity) {
        identity = next;
        let text: string | undefined;
        try {
          text = next === 'missing' || next === 'unreadable' ? undefined : readFileSync(path, 'utf8');
        } catch (err) {
          current = { subscriptions: current.subscriptions, problems: [`cannot read ${path}: ${errnoMessage(err)}`] };
          text = undefined;
        }
        if (text !== undefined || next === 'missing') current = parseSubscriptions(text, path);
        version++;
        if (current.problems.length > 0) onProblems(current.problems);
      }
      return { file: current, version };
    },
  };
}

export type ChangeSignal = {
  /** True when the file may have changed since the last call (and then false until it may again). */
  take(): boolean;
  close(): void;
};

/**
 * Whether a file may have changed, without a stat per request: an fs.watch on its folder (the file
 * is replaced by a rename, so a watch on the file itself would stop at the first change), plus a
 * "maybe" every `recheckMs` for file systems whose watch misses changes (NFS, some containers).
 * Without a working watch, every call is a maybe.
 */
export function watchForChanges(path: string, recheckMs: number): ChangeSignal {
  let maybe = true;
  let watcher: FSWatcher | undefined;
  const name = basename(path);
  try {
    watcher = watch(dirname(path), { persistent: false }, (_event, changed) => {
      if (changed === null || changed === name) maybe = true;
    });
    watcher.on('error', () => {
      watcher?.close();
      watcher = undefined;
    });
  } catch {
    watcher = undefined; // out of inotify watches, or no such folder: ask every time
  }
  const timer = setInterval(() => {
    maybe = true;
  }, recheckMs);
  timer.unref();
  return {
    take() {
      if (!watcher) return true;
      const was = maybe;
      maybe = false;
      return was;
    },
    close() {
      clearInterval(timer);
      watcher?.close();
      watcher = undefined;
    },
  };
}
