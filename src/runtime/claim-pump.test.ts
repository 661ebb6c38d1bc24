import { describe, expect, it, vi } from 'vitest';
import { claimRetryDelay, createClaimPump } from './claim-pump.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('createClaimPump', () => {
  it('runs at most `concurrency` at once and claims more as slots free', async () => {
    const queue = [1, 2, 3, 4, 5];
    const running = new Set<number>();
    let most = 0;
    const done: number[] = [];
    const release = new Map<number, () => void>();
    const pump = createClaimPump<number>({
      concurrency: 2,
      claim: () => Promise.resolve(queue.shift()),
      run: async (item) => {
        running.add(item);
        most = Math.max(most, running.size);
        await new Promise<void>((resolve) => release.set(item, resolve));
        running.delete(item);
        done.push(item);
      },
      onClaimError: () => {},
    });
    await pump.claimNow();
    expect([...running]).toEqual([1, 2]);
    release.get(1)!();
    await tick();
    expect([...running]).toEqual([2, 3]);
    for (const item of [2, 3, 4, 5]) {
      await tick();
      release.get(item)?.();
    }
    await tick();
    release.get(5)?.();
    await tick();
    expect(done).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });

  it('tries a failed claim again on a timer, and reports it', async () => {
    const errors: Array<[string, number]> = [];
    let calls = 0;
    const ran: string[] = [];
    const pump = createClaimPump<string>({
      concurrency: 1,
      claim: () => {
        calls++;
        if (calls === 1) return Promise.reject(new Error('database is locked'));
        return Promise.resolve(calls === 2 ? 'job' : undefined);
      },
      run: (item) => {
        ran.push(item);
        return Promise.resolve();
      },
      onClaimError: (err, retryInMs) => errors.push([err, retryInMs]),
      claimRetry: { firstMs: 10, maxMs: 40 },
    });
    pump.wake();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(errors).toEqual([['database is locked', 10]]);
    expect(ran).toEqual(['job']);
    await pump.stop(100);
  });

  it('stop aborts the work in flight and reports whether it settled in time', async () => {
    let seen: AbortSignal | undefined;
    const pump = createClaimPump<number>({
      concurrency: 1,
      claim: (() => {
        let given = false;
        return () => Promise.resolve(given ? undefined : ((given = true), 1));
      })(),
      run: (_item, signal) => {
        seen = signal;
        return new Promise<void>(() => {});
      },
      onClaimError: () => {},
    });
    await pump.claimNow();
    expect(await pump.stop(20)).toEqual({ settled: false });
    expect(seen?.aborted).toBe(true);
  });

  it('claim retries double and stop at the cap', () => {
    expect([1, 2, 3, 8, 50].map((n) => claimRetryDelay(n, { firstMs: 100, maxMs: 1_000 }))).toEqual([100, 200, 400, 1_000, 1_000]);
  });

  it('poll: claims on its own every interval once asked to (work another process added), never before, and no more after stop', async () => {
    vi.useFakeTimers();
    try {
      const queue: number[] = [];
      const done: number[] = [];
      const pump = createClaimPump<number>({ concurrency: 1, claim: () => Promise.resolve(queue.shift()), run: (item) => Promise.resolve(void done.push(item)), onClaimError: () => {} });
      queue.push(1);
      await vi.advanceTimersByTimeAsync(5_000);
      expect(done).toEqual([]); // not polling yet: nothing claims without a wake
      pump.poll(1_000);
      await vi.advanceTimersByTimeAsync(999);
      expect(done).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(done).toEqual([1]);
      queue.push(2);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(done).toEqual([1, 2]);
      await pump.stop(10);
      queue.push(3);
      await vi.advanceTimersByTimeAsync(5_000);
      expect(done).toEqual([1, 2]);
    } finally {
      vi.useRealTimers();
    }
  });
});
