// The gateway's scheduled curator review (`curator.schedule: daily|weekly`): checked on an unref'd
// timer, run when `reviewDue` says so (never with --apply), its report delivered to gateway.log as
// a `deliver: log` webhook answer is. The run's time is written before it starts, so a review that
// fails (or a crash during one) waits a whole period, and a restart does not review again at once.
import type { Env, HomePaths } from '../config/home.js';
import { loadConfig } from '../config/store.js';
import type { CURATOR_SCHEDULES } from '../config/schema.js';
import { loadOAuthView } from '../auth/view.js';
import { runCuratorReview } from '../curator/run.js';
import { readLastRun, reviewDue, SCHEDULE_CHECK_MS, writeLastRun } from '../curator/schedule.js';
import { errorMessage } from '../domain/error-message.js';
import type { RoutingDeps } from '../routing/call-model.js';
import type { Store } from '../store/types.js';
import type { ListenerLog } from '../webhook/listener.js';

/** The usage window of a scheduled review, as `iris curator review`'s default. */
const SCHEDULED_DAYS = 30;
/** How long a stop waits for a review under way before closing what it uses. */
const STOP_WAIT_MS = 5_000;

export type CuratorScheduleDeps = {
  readonly schedule: (typeof CURATOR_SCHEDULES)[number];
  readonly paths: HomePaths;
  readonly env: Env;
  readonly store: Store;
  readonly routing: RoutingDeps;
  readonly log: ListenerLog;
  readonly nowMs: () => number;
};

export type CuratorScheduleHandle = { stop(): Promise<void> };

export function startCuratorSchedule(deps: CuratorScheduleDeps): CuratorScheduleHandle {
  if (deps.schedule === 'off') return { stop: async () => {} };
  let running: Promise<void> | undefined;
  let stopped = false;

  const review = async () => {
    if (!reviewDue(deps.schedule, await readLastRun(deps.paths.dir), deps.nowMs())) return;
    await writeLastRun(deps.paths.dir, deps.nowMs());
    // Read per run, as webhook runs do: a model or slot change counts without a restart.
    const loaded = await loadConfig(deps.paths);
    if (!loaded.ok) throw new Error(loaded.error.message);
    const oauth = await loadOAuthView(deps.paths);
    const outcome = await runCuratorReview(
      { paths: deps.paths, env: deps.env, oauth: oauth.view, config: loaded.config, store: deps.store, routing: deps.routing, now: deps.nowMs, usageSource: 'gateway' },
      { days: SCHEDULED_DAYS, apply: false },
    );
    if (!outcome.ok) {
      deps.log.warn({ schedule: deps.schedule, error: outcome.error }, 'curator review failed');
      return;
    }
    deps.log.info(
      { schedule: deps.schedule, deliver: 'log', report_path: outcome.reportPath, proposals: outcome.proposals, answer: outcome.report },
      'curator report',
    );
  };

  const tick = () => {
    if (running || stopped) return;
    running = review()
      .catch((err: unknown) => deps.log.warn({ err: errorMessage(err) }, 'curator review failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, SCHEDULE_CHECK_MS);
  timer.unref();
  tick();

  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      if (!running) return;
      let wait: NodeJS.Timeout | undefined;
      await Promise.race([running, new Promise<void>((resolve) => (wait = setTimeout(resolve, STOP_WAIT_MS)))]);
      clearTimeout(wait);
    },
  };
}
