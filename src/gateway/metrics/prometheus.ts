// The gateway's metrics on prom-client, in a registry of their own (never the library's global
// one, so two gateways in one test process stay apart). Loaded with a dynamic import only when
// `platforms.webhook.extra.metrics` is on: a gateway without metrics, and the CLI, never load it.
//
// The request path pays for one Map lookup and an increment: label children are bound once per
// (route, status) and kept; label values are bounded (known routes, HTTP codes, slots, states).
import type { UsageRecord } from '../../store/types.js';
import { WEBHOOK_PENDING_STATES, type WebhookPendingState } from '../../store/webhook-types.js';
import { retriesOf } from './observe.js';
import { logLinesDropped } from '../../log/drop-on-error.js';
import { RUN_STATES, type GatewayMetrics, type RunState } from './types.js';

export type MetricsSources = {
  /** The inbox depth by state, read on each scrape; a failure leaves the gauge empty for that scrape. */
  readonly inboxDepth: () => Promise<Readonly<Record<WebhookPendingState, number>>>;
};

/** Seconds; a routed call spans a first token in well under a second to a long tool-less answer. */
const MODEL_CALL_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
/** Seconds; a run is several model calls and tools, up to many minutes. */
const RUN_BUCKETS = [1, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];

export async function createPrometheusMetrics(sources: MetricsSources): Promise<GatewayMetrics> {
  const loaded = await import('prom-client');
  // A CommonJS package: in the esbuild bundle its exports are only `default` (module.exports).
  const prom = (loaded as unknown as { default?: typeof loaded }).default ?? loaded;
  const registry = new prom.Registry();
  const registers = [registry];

  const requests = new prom.Counter({ name: 'iris_webhook_requests_total', help: 'Webhook requests answered, by route (_unknown for a name that is no route) and HTTP status.', labelNames: ['route', 'status'] as const, registers });
  const runs = new prom.Counter({ name: 'iris_webhook_runs_total', help: 'Agent runs of webhook events that ended, by how they ended.', labelNames: ['state'] as const, registers });
  const runSeconds = new prom.Histogram({ name: 'iris_webhook_run_duration_seconds', help: 'Duration of agent runs of webhook events.', buckets: RUN_BUCKETS, registers });
  const callSeconds = new prom.Histogram({ name: 'iris_model_call_duration_seconds', help: 'Duration of routed model calls (retries and fallbacks included), by slot.', labelNames: ['slot'] as const, buckets: MODEL_CALL_BUCKETS, registers });
  const inputTokens = new prom.Counter({ name: 'iris_input_tokens_total', help: 'Input tokens of model calls, by slot.', labelNames: ['slot'] as const, registers });
  const outputTokens = new prom.Counter({ name: 'iris_output_tokens_total', help: 'Output tokens of model calls, by slot.', labelNames: ['slot'] as const, registers });
  const cost = new prom.Counter({ name: 'iris_cost_usd_total', help: 'Cost in USD of model calls with a known price, by slot.', labelNames: ['slot'] as const, registers });
  const retries = new prom.Counter({ name: 'iris_delivery_retries_total', help: 'Delivery attempts after the first (PR comments tried again).', registers });
  const failures = new prom.Counter({ name: 'iris_delivery_failures_total', help: 'Deliveries that failed for good.', registers });
  const outbox = new prom.Counter({ name: 'iris_outbox_sends_total', help: 'Sends from the chat platforms\' outbox, by platform and outcome (sent, retry: tried again later, failed: for good).', labelNames: ['platform', 'state'] as const, registers });
  const platforms = new prom.Gauge({ name: 'iris_platform_connected', help: '1 while a platform is connected (webhook: the listener is up), else 0.', labelNames: ['platform'] as const, registers });
  const depth = new prom.Gauge({
    name: 'iris_inbox_depth',
    help: 'Webhook events still on their way, by state.',
    labelNames: ['state'] as const,
    registers,
    async collect() {
      try {
        const counts = await sources.inboxDepth();
        for (const state of WEBHOOK_PENDING_STATES) this.set({ state }, counts[state]);
      } catch {
        // An unreadable store shows as missing samples, never as stale numbers.
        this.reset();
      }
    },
  });
  void depth;
  const dropped = new prom.Counter({
    name: 'iris_log_lines_dropped_total',
    help: 'Log lines that could not be written (a full disk) and were dropped.',
    registers,
    collect() {
      // The loggers count on their own (drop-on-error.ts); a counter only grows, so set = its total.
      this.reset();
      this.inc(logLinesDropped());
    },
  });
  void dropped;
  // Every run state from the start, so rate() sees the first failure as an increase.
  for (const state of RUN_STATES) runs.labels(state).inc(0);
  prom.collectDefaultMetrics({ register: registry, prefix: 'iris_' });

  const requestChildren = new Map<string, Map<number, { inc(): void }>>();
  const requestChild = (route: string, status: number) => {
    let byStatus = requestChildren.get(route);
    if (!byStatus) requestChildren.set(route, (byStatus = new Map<number, { inc(): void }>()));
    let child = byStatus.get(status);
    if (!child) byStatus.set(status, (child = requests.labels(route, String(status))));
    return child;
  };

  return {
    contentType: registry.contentType,
    render: () => registry.metrics(),
    answered: (route, status) => requestChild(route, status).inc(),
    runFinished: (state: RunState, seconds: number) => {
      runs.labels(state).inc();
      runSeconds.observe(seconds);
    },
    modelCall: (slot, seconds) => callSeconds.labels(slot).observe(seconds),
    usage: (record: UsageRecord) => {
      inputTokens.labels(record.task).inc(record.inputTokens);
      outputTokens.labels(record.task).inc(record.outputTokens);
      if (record.costUsd !== null) cost.labels(record.task).inc(record.costUsd);
    },
    deliveryFinished: (attempts, ok) => {
      const retried = retriesOf(attempts);
      if (retried > 0) retries.inc(retried);
      if (!ok) failures.inc();
    },
    platformConnected: (platform, connected) => platforms.labels(platform).set(connected ? 1 : 0),
    outboxSend: (platform, outcome) => outbox.labels(platform, outcome).inc(),
  };
}
