// Looks at what GET /health reports: whether the store answers a small read within a deadline,
// and the disk space under the home. One look at a time (requests arriving meanwhile share it), and
// a look is reused for a moment, so a busy health checker costs the store one query a second at
// most, and an unreachable database never makes /health wait past the deadline.
import type { DiskSpace } from '../domain/disk-space.js';
import type { HealthReport } from '../webhook/health.js';

export type HealthProbeDeps = {
  /** A cheap read of the store; it rejects (or never settles) when the store cannot be used. */
  readonly pingStore: () => Promise<unknown>;
  readonly readDisk: () => Promise<DiskSpace | undefined>;
  readonly timeoutMs?: number;
  readonly reuseMs?: number;
  readonly nowMs?: () => number;
};

export const HEALTH_PROBE = Object.freeze({ timeoutMs: 2_000, reuseMs: 1_000 });

function within<T>(work: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
    timer.unref();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export function createHealthProbe(deps: HealthProbeDeps): () => Promise<HealthReport> {
  const timeoutMs = deps.timeoutMs ?? HEALTH_PROBE.timeoutMs;
  const reuseMs = deps.reuseMs ?? HEALTH_PROBE.reuseMs;
  const nowMs = deps.nowMs ?? Date.now;
  let last: { readonly at: number; readonly report: HealthReport } | undefined;
  let looking: Promise<HealthReport> | undefined;

  const look = async (): Promise<HealthReport> => {
    const [store, disk] = await Promise.all([
      within(
        deps.pingStore().then(
          () => 'ok' as const,
          () => 'unreachable' as const,
        ),
        timeoutMs,
      ),
      within(deps.readDisk(), timeoutMs).catch(() => undefined),
    ]);
    const report: HealthReport = { store: store === 'ok' ? 'ok' : 'unreachable', ...(disk && disk !== 'timeout' ? { disk } : {}) };
    last = { at: nowMs(), report };
    return report;
  };

  return () => {
    if (last && nowMs() - last.at < reuseMs) return Promise.resolve(last.report);
    looking ??= look().finally(() => (looking = undefined));
    return looking;
  };
}
