// What the gateway tells its metrics, as plain calls: the recorder is built only when
// `platforms.webhook.extra.metrics` is on, and everything here is free of prom-client so the rest
// of the gateway (and its tests) never loads it.
import type { UsageRecord } from '../../store/types.js';

/** The outcomes a run ends in (run-event.ts's RunOutcome kinds), the `state` of iris_webhook_runs_total. */
export const RUN_STATES = ['done', 'failed', 'interrupted', 'skipped'] as const;
export type RunState = (typeof RUN_STATES)[number];

export type MetricsRecorder = {
  /** A webhook request was answered; `route` is already a bounded label (see routeLabel). */
  readonly answered: (route: string, status: number) => void;
  readonly runFinished: (state: RunState, seconds: number) => void;
  /** One routed model call (retries and fallbacks included) of a slot: `main` or an aux task id. */
  readonly modelCall: (slot: string, seconds: number) => void;
  /** A model call's usage as the store records it: tokens and cost by slot. */
  readonly usage: (record: UsageRecord) => void;
  /** A delivery ended after `attempts` tries; every try after the first is a retry. */
  readonly deliveryFinished: (attempts: number, ok: boolean) => void;
  readonly platformConnected: (platform: string, connected: boolean) => void;
  /** One send from the chat platforms' outbox: sent, to be retried, or failed for good. */
  readonly outboxSend: (platform: string, outcome: 'sent' | 'retry' | 'failed') => void;
};

export type GatewayMetrics = MetricsRecorder & {
  readonly contentType: string;
  /** The Prometheus text, with the inbox depth read from the store now. */
  readonly render: () => Promise<string>;
};
