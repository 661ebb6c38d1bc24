import { describe, expect, it } from 'vitest';
import { backoffMs, pauseAfterFailure, type Backoff } from './backoff.js';

const BACKOFF: Backoff = { firstMs: 1000, maxMs: 30_000 };

describe('backoffMs', () => {
  it('doubles from the first pause and stops at the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => backoffMs(BACKOFF, n))).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('counts no failure (or a negative count) as the first', () => {
    expect([0, -3].map((n) => backoffMs(BACKOFF, n))).toEqual([1000, 1000]);
  });

  it('keeps a cap that is not a power of two of the first pause, and a zero first pause', () => {
    expect([1, 2, 3].map((n) => backoffMs({ firstMs: 10, maxMs: 25 }, n))).toEqual([10, 20, 25]);
    expect(backoffMs({ firstMs: 0, maxMs: 25 }, 5)).toBe(0);
  });

  it('never overflows into Infinity after a very long outage', () => {
    expect(backoffMs(BACKOFF, 10_000)).toBe(30_000);
  });
});

describe('pauseAfterFailure', () => {
  it('is the schedule when the server named no wait, whatever the rule', () => {
    expect(pauseAfterFailure(BACKOFF, 3, undefined, 'as-told')).toBe(4000);
    expect(pauseAfterFailure(BACKOFF, 3, undefined, 'at-least-schedule')).toBe(4000);
  });

  it('as-told: the server\'s wait, shorter or longer than the schedule', () => {
    expect(pauseAfterFailure(BACKOFF, 4, 500, 'as-told')).toBe(500);
    expect(pauseAfterFailure(BACKOFF, 1, 7000, 'as-told')).toBe(7000);
  });

  it('at-least-schedule: the longer of the server\'s wait and the schedule', () => {
    expect(pauseAfterFailure(BACKOFF, 4, 500, 'at-least-schedule')).toBe(8000);
    expect(pauseAfterFailure(BACKOFF, 1, 7000, 'at-least-schedule')).toBe(7000);
  });
});
