import { describe, expect, it } from 'vitest';
import { createHealthProbe } from './health-probe.js';

const disk = { freeBytes: 1, totalBytes: 2, low: true };

describe('createHealthProbe', () => {
  it('reports a store that answers, and the disk', async () => {
    const probe = createHealthProbe({ pingStore: async () => 1, readDisk: async () => disk });
    expect(await probe()).toEqual({ store: 'ok', disk });
  });

  it('reports a store that fails as unreachable', async () => {
    const probe = createHealthProbe({ pingStore: () => Promise.reject(new Error('ECONNREFUSED')), readDisk: async () => undefined });
    expect(await probe()).toEqual({ store: 'unreachable' });
  });

  it('answers by the deadline when the store never does', async () => {
    const probe = createHealthProbe({ pingStore: () => new Promise(() => {}), readDisk: async () => disk, timeoutMs: 50 });
    const started = Date.now();
    expect(await probe()).toEqual({ store: 'unreachable', disk });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('shares one look between requests and reuses it for a moment', async () => {
    let clock = 0;
    let pings = 0;
    const probe = createHealthProbe({ pingStore: async () => pings++, readDisk: async () => undefined, reuseMs: 1_000, nowMs: () => clock });
    await Promise.all([probe(), probe(), probe()]);
    await probe();
    expect(pings).toBe(1);
    clock = 1_000;
    await probe();
    expect(pings).toBe(2);
  });
});
