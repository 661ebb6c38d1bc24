// GET /health's answer, from what the gateway found when it looked: whether the store answers and
// how much room the disk under the home has. Pure; the looking is the gateway's (health-probe.ts).
// A store out of reach is 503 (a load balancer sends the code host elsewhere, and the listener
// would refuse every event anyway); low disk space is a warning in the body, still 200.
import type { DiskSpace } from '../domain/disk-space.js';

export type HealthReport = { readonly store: 'ok' | 'unreachable'; readonly disk?: DiskSpace };

export type HealthAnswer = { readonly status: 200 | 503; readonly body: Readonly<Record<string, unknown>> };

/** Seconds a sender should wait before trying again after a 503 of the listener. */
export const RETRY_AFTER_SECONDS = 5;

export function healthAnswer(report: HealthReport | undefined): HealthAnswer {
  if (report === undefined) return { status: 200, body: { status: 'ok', platform: 'webhook' } };
  const up = report.store === 'ok';
  const disk = report.disk && { free_bytes: report.disk.freeBytes, total_bytes: report.disk.totalBytes, low: report.disk.low };
  return {
    status: up ? 200 : 503,
    body: { status: up ? 'ok' : 'unavailable', platform: 'webhook', store: report.store, ...(disk ? { disk } : {}) },
  };
}
