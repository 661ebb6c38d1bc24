import { describe, expect, it } from 'vitest';
import { StoreError } from './errors.js';
import { isTransientStoreFailure, retryStoreWrite } from './write-retry.js';

const instant = async () => {};

/** A write that fails with each of `failures` in turn, then succeeds. */
function flaky(failures: readonly Error[]) {
  let calls = 0;
  return {
    calls: () => calls,
    write: async () => {
      const failure = failures[calls++];
      if (failure !== undefined) throw failure;
      return 'written';
    },
  };
}

const down = new StoreError('io', 'cannot reach PostgreSQL');
const refused = new StoreError('invalid', 'a value the store will not take');

describe('retryStoreWrite', () => {
  it('writes once when the store answers', async () => {
    const w = flaky([]);
    expect(await retryStoreWrite(w.write, { sleep: instant })).toEqual({ ok: true, value: 'written' });
    expect(w.calls()).toBe(1);
  });

  it('waits out a store that is away for long, with growing pauses capped at the last', async () => {
    const w = flaky(Array.from({ length: 12 }, () => down));
    const pauses: number[] = [];
    expect(await retryStoreWrite(w.write, { sleep: instant, onRetry: (_err, _attempt, ms) => pauses.push(ms) })).toEqual({ ok: true, value: 'written' });
    expect(pauses).toEqual([250, 500, 1_000, 2_000, 4_000, 8_000, 15_000, 30_000, 30_000, 30_000, 30_000, 30_000]);
  });

  it('gives a refusal back after a few tries, for the caller to record as a failure', async () => {
    const w = flaky([refused, refused, refused, refused]);
    expect(await retryStoreWrite(w.write, { sleep: instant })).toEqual({ ok: false, reason: 'a value the store will not take' });
    expect(w.calls()).toBe(3);
  });

  it('stops when the process stops', async () => {
    const stop = new AbortController();
    const w = flaky([down, down, down]);
    const outcome = await retryStoreWrite(w.write, {
      signal: stop.signal,
      sleep: async () => {
        stop.abort();
      },
    });
    expect(outcome).toEqual({ ok: false, reason: 'cannot reach PostgreSQL' });
    expect(w.calls()).toBe(1);
  });

  it.each([
    { err: new StoreError('io', 'x'), transient: true },
    { err: new StoreError('busy', 'x'), transient: true },
    { err: new StoreError('readonly', 'x'), transient: true },
    { err: new StoreError('invalid', 'x'), transient: false },
    { err: new StoreError('not_found', 'x'), transient: false },
    { err: new TypeError('a bug'), transient: false },
  ])('$err.code $err.name is transient: $transient', ({ err, transient }) => {
    expect(isTransientStoreFailure(err)).toBe(transient);
  });
});
