// The dedup memory: answers only inside the window it is complete for, and says "ask the table"
// everywhere else.
import { describe, expect, it } from 'vitest';
import { createRecentDeliveries } from './recent-deliveries.js';

describe('createRecentDeliveries', () => {
  it('knows nothing until primed, then answers for windows that start at or after the prime', () => {
    const recent = createRecentDeliveries(10);
    expect(recent.seen('r', 'a', 0)).toBeUndefined();
    recent.prime([{ route: 'r', delivery_id: 'a', seen_at: 150 }], 100, true);
    expect(recent.seen('r', 'a', 100)).toBe(true);
    expect(recent.seen('r', 'b', 100)).toBe(false);
    expect(recent.seen('other', 'a', 100)).toBe(false);
    expect(recent.seen('r', 'a', 151)).toBe(false); // seen before the window
    expect(recent.seen('r', 'a', 99)).toBeUndefined(); // older than what was loaded
  });

  it('an incomplete prime (more rows than fit) never answers', () => {
    const recent = createRecentDeliveries(10);
    recent.prime([], 100, false);
    expect(recent.seen('r', 'a', 200)).toBeUndefined();
  });

  it('evicting the oldest moves the horizon: windows reaching back past it go to the table', () => {
    const recent = createRecentDeliveries(2);
    recent.prime([], 0, true);
    recent.remember('r', 'a', 10);
    recent.remember('r', 'b', 20);
    recent.remember('r', 'c', 30); // evicts a (seen at 10)
    expect(recent.seen('r', 'a', 5)).toBeUndefined();
    expect(recent.seen('r', 'b', 11)).toBe(true);
    expect(recent.seen('r', 'a', 11)).toBe(false);
    expect(recent.size()).toBe(2);
  });

  it('forgets what the table pruned', () => {
    const recent = createRecentDeliveries(10);
    recent.prime([], 0, true);
    recent.remember('r', 'old', 10);
    recent.remember('r', 'new', 50);
    recent.forget(20);
    expect(recent.size()).toBe(1);
    expect(recent.seen('r', 'old', 0)).toBeUndefined();
    expect(recent.seen('r', 'new', 20)).toBe(true);
  });
});
