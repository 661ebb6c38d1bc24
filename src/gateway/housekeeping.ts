// What keeps a worker's store bounded while the gateway runs: every 10 minutes the inbox's dedup
// records (an hour) and finished events, answered platform messages, idle PR threads and their
// review findings (`keep_days`); every hour retention (DECISIONS "Retention": old automation sessions, skill loads,
// curator reports, usage folded into per-day totals).
import type { HomePaths } from '../config/home.js';
import type { Config } from '../config/schema.js';
import { errorMessage } from '../domain/error-message.js';
import { DAY_MS } from '../domain/usage-ledger.js';
import { pruneCountsJson, prunedAnything, pruneHome } from '../retention/prune-home.js';
import type { Store } from '../store/types.js';
import { DEDUP_WINDOW_MS, type ListenerLog } from '../webhook/listener.js';

const PRUNE_EVERY_MS = 10 * 60_000;
/** Retention's prune (DECISIONS "Retention"): hourly. */
const RETENTION_EVERY_MS = 60 * 60_000;

export type Housekeeping = {
  /** The first inbox prune (awaited), then retention in the background and both on their timers. */
  start(): Promise<void>;
  /** Stops the timers and waits for a prune in flight, so the store can close after it. */
  stop(): Promise<void>;
};

export function createHousekeeping(deps: { store: Store; paths: HomePaths; config: Readonly<Config>; log: ListenerLog; nowMs: () => number }): Housekeeping {
  const { store, paths, config, log, nowMs } = deps;
  const keepDays = config.platforms.webhook.extra.keep_days;

  const pruneInbox = async () => {
    await store.webhooks.pruneDedup(nowMs() - DEDUP_WINDOW_MS);
    if (keepDays <= 0) return;
    const before = nowMs() - keepDays * DAY_MS;
    const removed = await store.webhooks.pruneFinished(before);
    if (removed > 0) log.info({ removed, keep_days: keepDays }, 'old delivered and failed events removed from the inbox');
    const platformRows = await store.platforms.prune(before, nowMs());
    if (platformRows > 0) log.info({ removed: platformRows, keep_days: keepDays }, 'old answered platform messages and sent outbox messages removed');
    const threads = await store.prThreads.prune(before);
    if (threads > 0) log.info({ removed: threads, keep_days: keepDays }, 'pull requests not heard from in keep_days forgotten (their sessions stay)');
    // After the threads: a forgotten PR's findings go with it, and so do the plans of removed events.
    const findings = await store.prFindings.prune(before);
    if (findings > 0) log.info({ removed: findings, keep_days: keepDays }, 'review findings of forgotten pull requests and plans of removed events removed');
  };
  const pruneRetention = async () => {
    const { counts } = await pruneHome(store, paths.dir, config.retention, nowMs(), { dryRun: false });
    if (prunedAnything(counts)) log.info(pruneCountsJson(counts), 'retention: old sessions, skill loads and curator reports removed, old usage folded into per-day totals');
  };

  // One prune at a time, chained, so a stop can wait for the one in flight.
  let inFlight: Promise<void> = Promise.resolve();
  const queue = (work: () => Promise<void>, what: string) => {
    inFlight = inFlight.then(work).catch((err: unknown) => log.warn({ err: errorMessage(err) }, `${what} failed; it is tried again later`));
  };
  const timers: NodeJS.Timeout[] = [];
  return {
    async start() {
      await pruneInbox();
      // Never awaited: a first retention prune of a long history must not hold the start back.
      queue(pruneRetention, 'retention pruning');
      timers.push(setInterval(() => queue(pruneInbox, 'inbox pruning'), PRUNE_EVERY_MS), setInterval(() => queue(pruneRetention, 'retention pruning'), RETENTION_EVERY_MS));
      for (const timer of timers) timer.unref();
    },
    async stop() {
      for (const timer of timers.splice(0)) clearInterval(timer);
      await inFlight;
    },
  };
}
