import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { dropOnError, logLinesDropped } from '../../log/drop-on-error.js';
import { createPrometheusMetrics } from './prometheus.js';

const DEPTH = { accepted: 3, running: 1, done: 0, delivering: 2 };

describe('createPrometheusMetrics', () => {
  it('renders every metric with its labels in the Prometheus text format', async () => {
    const metrics = await createPrometheusMetrics({ inboxDepth: async () => DEPTH });
    metrics.answered('github-pr', 202);
    metrics.answered('github-pr', 202);
    metrics.answered('_unknown', 404);
    metrics.runFinished('done', 12);
    metrics.modelCall('main', 0.3);
    metrics.modelCall('title_generation', 0.05);
    metrics.usage({ sessionId: 's', at: 1, provider: 'openai', model: 'm', task: 'main', inputTokens: 100, outputTokens: 20, cachedTokens: 0, cacheWriteTokens: 0, source: 'cli', costUsd: 0.5 });
    metrics.usage({ sessionId: 's', at: 1, provider: 'x', model: 'free', task: 'compression', inputTokens: 7, outputTokens: 1, cachedTokens: 0, cacheWriteTokens: 0, source: 'cli', costUsd: null });
    metrics.deliveryFinished(3, true);
    metrics.deliveryFinished(1, false);
    metrics.platformConnected('webhook', true);
    const lines = (await metrics.render()).split('\n');
    expect(metrics.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(lines).toEqual(
      expect.arrayContaining([
        'iris_webhook_requests_total{route="github-pr",status="202"} 2',
        'iris_webhook_requests_total{route="_unknown",status="404"} 1',
        'iris_webhook_runs_total{state="done"} 1',
        'iris_webhook_runs_total{state="failed"} 0',
        'iris_webhook_runs_total{state="interrupted"} 0',
        'iris_webhook_run_duration_seconds_bucket{le="30"} 1',
        'iris_webhook_run_duration_seconds_sum 12',
        'iris_webhook_run_duration_seconds_count 1',
        'iris_model_call_duration_seconds_bucket{le="0.5",slot="main"} 1',
        'iris_model_call_duration_seconds_count{slot="title_generation"} 1',
        'iris_input_tokens_total{slot="main"} 100',
        'iris_output_tokens_total{slot="main"} 20',
        'iris_input_tokens_total{slot="compression"} 7',
        'iris_cost_usd_total{slot="main"} 0.5',
        'iris_delivery_retries_total 2',
        'iris_delivery_failures_total 1',
        'iris_inbox_depth{state="accepted"} 3',
        'iris_inbox_depth{state="running"} 1',
        'iris_inbox_depth{state="done"} 0',
        'iris_inbox_depth{state="delivering"} 2',
        'iris_platform_connected{platform="webhook"} 1',
      ]),
    );
    // An unknown price adds nothing rather than a made-up zero.
    expect(lines.filter((line) => line.startsWith('iris_cost_usd_total{slot="compression"}'))).toEqual([]);
    expect(lines.some((line) => line.startsWith('iris_process_cpu_seconds_total '))).toBe(true);
  });

  it('counts the log lines dropped by the loggers of this process (a full disk)', async () => {
    const metrics = await createPrometheusMetrics({ inboxDepth: async () => DEPTH });
    const destination = pino.destination({ dest: '/dev/full', sync: true });
    dropOnError(destination);
    const before = logLinesDropped();
    pino({}, destination).info('lost');
    const lines = (await metrics.render()).split('\n');
    expect(lines).toContain('# TYPE iris_log_lines_dropped_total counter');
    expect(lines).toContain(`iris_log_lines_dropped_total ${before + 1}`);
  });

  it('keeps two gateways apart (own registries) and shows no depth when the store cannot be read', async () => {
    const a = await createPrometheusMetrics({ inboxDepth: async () => DEPTH });
    const b = await createPrometheusMetrics({
      inboxDepth: async () => {
        throw new Error('store down');
      },
    });
    a.answered('r', 200);
    const textB = await b.render();
    expect(textB).not.toContain('iris_webhook_requests_total{');
    expect(textB.split('\n').filter((line) => line.startsWith('iris_inbox_depth{'))).toEqual([]);
    expect(await a.render()).toContain('iris_webhook_requests_total{route="r",status="200"} 1');
  });
});
