import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { backoffDelay, retryWithBackoff } from './retry.js';
import { sleep as realSleep } from '../runtime/sleep.js';

type Outcome = { ok: boolean; retry: boolean };

function scripted(outcomes: Outcome[]) {
  const calls: number[] = [];
  const run = async (attempt: number): Promise<Outcome> => {
    calls.push(attempt);
    return outcomes[attempt - 1] ?? { ok: true, retry: false };
  };
  return { run, calls };
}

function recordingSleep() {
  const slept: number[] = [];
  return { slept, sleep: async (ms: number) => void slept.push(ms) };
}

const FAIL: Outcome = { ok: false, retry: true };
const FATAL: Outcome = { ok: false, retry: false };
const OK: Outcome = { ok: true, retry: false };

describe('backoffDelay', () => {
  it('walks the schedule, repeats its last entry, and is 0 for an empty one', () => {
    const schedule = [1_000, 4_000, 15_000];
    expect([2, 3, 4, 5, 6].map((attempt) => backoffDelay(schedule, attempt))).toEqual([1_000, 4_000, 15_000, 15_000, 15_000]);
    expect(backoffDelay([], 2)).toBe(0);
  });
});

describe('retryWithBackoff', () => {
  it('stops at the first outcome not worth retrying, sleeping the schedule between tries', async () => {
    const { run, calls } = scripted([FAIL, FAIL, OK]);
    const { slept, sleep } = recordingSleep();
    const result = await retryWithBackoff(run, (o) => o.retry, { attempts: 4, backoffMs: [10, 20, 30], sleep });
    expect(calls).toEqual([1, 2, 3]);
    expect(slept).toEqual([10, 20]);
    expect(result).toEqual({ final: OK, outcomes: [FAIL, FAIL, OK] });
  });

  it('gives up after `attempts` tries and returns the last outcome', async () => {
    const { run, calls } = scripted([FAIL, FAIL, FAIL, FAIL, FAIL]);
    const { slept, sleep } = recordingSleep();
    const result = await retryWithBackoff(run, (o) => o.retry, { attempts: 4, backoffMs: [10, 20], sleep });
    expect(calls).toEqual([1, 2, 3, 4]);
    expect(slept).toEqual([10, 20, 20]);
    expect(result.final).toBe(FAIL);
    expect(result.outcomes).toHaveLength(4);
  });

  it('does not retry an outcome the caller calls final', async () => {
    const { run, calls } = scripted([FATAL, OK]);
    const { slept, sleep } = recordingSleep();
    const result = await retryWithBackoff(run, (o) => o.retry, { attempts: 4, backoffMs: [10], sleep });
    expect(calls).toEqual([1]);
    expect(slept).toEqual([]);
    expect(result.final).toBe(FATAL);
  });

  it('tries at least once, whatever `attempts` says', async () => {
    const { run, calls } = scripted([FAIL]);
    await retryWithBackoff(run, () => true, { attempts: 0, backoffMs: [], sleep: async () => undefined });
    expect(calls).toEqual([1]);
  });

  it('stops when the signal aborts during a pause, keeping the outcomes so far', async () => {
    const controller = new AbortController();
    const { run, calls } = scripted([FAIL, FAIL, OK]);
    const sleep = async () => controller.abort();
    const result = await retryWithBackoff(run, (o) => o.retry, {
      attempts: 4,
      backoffMs: [10],
      sleep,
      signal: controller.signal,
    });
    expect(calls).toEqual([1]);
    expect(result).toEqual({ final: FAIL, outcomes: [FAIL] });
  });
});

describe('realSleep', () => {
  it('waits, and returns early without throwing when aborted', async () => {
    const started = Date.now();
    await realSleep(30);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);

    const controller = new AbortController();
    const pending = realSleep(60_000, controller.signal);
    controller.abort();
    await expect(pending).resolves.toBeUndefined();
  });
});

describe('retryWithBackoff on a long-lived signal', () => {
  it('leaves no abort listener behind after 1,000 retries', async () => {
    const signal = new AbortController().signal;
    const result = await retryWithBackoff(async (attempt) => attempt, () => true, { attempts: 1000, backoffMs: [0], signal });
    expect(result.outcomes).toHaveLength(1000);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });
});
