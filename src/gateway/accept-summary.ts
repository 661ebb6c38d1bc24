// Accepted events are logged one by one at debug only; at info, as a count a minute by route,
// with the webhook refusals the sampler did not log (a line per request would cost a write on the
// request path, and a flood of refusals would fill the disk).
import { REFUSAL_SAMPLING, type RefusalSampler } from '../webhook/refusal-log.js';
import type { ListenerLog } from '../webhook/listener.js';

const ACCEPT_SUMMARY_EVERY_MS = 60_000;

export type AcceptSummary = {
  /** One more event accepted on `route`. */
  count(route: string): void;
  /** Stops the timer and logs what is left. */
  stop(): void;
};

export function startAcceptSummary(refusals: RefusalSampler, log: ListenerLog): AcceptSummary {
  const accepted = new Map<string, number>();
  const flush = () => {
    const dropped = refusals.drainDropped();
    if (dropped.total > 0) {
      log.warn({ dropped: dropped.total, by_route: dropped.byRoute, top_remotes: dropped.topRemotes }, `webhook refusals not logged: ${dropped.total} (at most ${REFUSAL_SAMPLING.perKey} a minute per route and address are)`);
    }
    if (accepted.size === 0) return;
    const byRoute = Object.fromEntries(accepted);
    const total = [...accepted.values()].reduce((sum, n) => sum + n, 0);
    accepted.clear();
    log.info({ accepted: total, by_route: byRoute }, `webhook events accepted: ${total}`);
  };
  const timer = setInterval(flush, ACCEPT_SUMMARY_EVERY_MS);
  timer.unref();
  return {
    count: (route) => accepted.set(route, (accepted.get(route) ?? 0) + 1),
    stop: () => {
      clearInterval(timer);
      flush();
    },
  };
}
