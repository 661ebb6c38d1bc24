// The seams through which the gateway's parts report to the metrics without knowing about them:
// decorators over the store and the inbox (the usage records and delivery outcomes they already
// receive), a timer around a run, and the bounded route label. No prom-client here.
import type { Store } from '../../store/types.js';
import type { WebhookInbox } from '../../store/webhook-types.js';
import type { MetricsRecorder, RunState } from './types.js';

/** The `route` label of a request to an unknown route: any name a client sends must not become a label value. */
export const UNKNOWN_ROUTE = '_unknown';

/** A known route's name, else UNKNOWN_ROUTE, so the label values are bounded by the route table. */
export function routeLabel(name: string | undefined, known: ReadonlyMap<string, unknown>): string {
  return name !== undefined && known.has(name) ? name : UNKNOWN_ROUTE;
}

/** Retries of a delivery that took `attempts` tries (0 when it was never tried). */
export function retriesOf(attempts: number): number {
  return Math.max(0, attempts - 1);
}

/** The store, with every usage record also counted (after it is stored: a refused record counts nothing). */
export function meteredStore(store: Store, metrics: Pick<MetricsRecorder, 'usage'>): Store {
  return {
    ...store,
    recordUsage: async (record) => {
      await store.recordUsage(record);
      metrics.usage(record);
    },
  };
}

/** The inbox, with the end of every delivery (delivered or failed, and its attempts) also counted. */
export function meteredDeliveries(inbox: WebhookInbox, metrics: Pick<MetricsRecorder, 'deliveryFinished'>): WebhookInbox {
  return {
    ...inbox,
    markDelivered: async (id, attempts) => {
      await inbox.markDelivered(id, attempts);
      metrics.deliveryFinished(attempts, true);
    },
    markDeliveryFailed: async (id, attempts, reason) => {
      await inbox.markDeliveryFailed(id, attempts, reason);
      metrics.deliveryFinished(attempts, false);
    },
  };
}

/** A run, timed and counted by how it ended; a run that throws is a failed one (the pool records it so). */
export function timedRun<A extends unknown[], R extends { readonly kind: RunState }>(
  run: (...args: A) => Promise<R>,
  metrics: Pick<MetricsRecorder, 'runFinished'>,
  nowMs: () => number,
): (...args: A) => Promise<R> {
  return async (...args) => {
    const started = nowMs();
    let state: RunState = 'failed';
    try {
      const outcome = await run(...args);
      state = outcome.kind;
      return outcome;
    } finally {
      metrics.runFinished(state, (nowMs() - started) / 1000);
    }
  };
}
