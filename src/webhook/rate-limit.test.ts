import { describe, expect, it } from 'vitest';
import { createSlidingWindowLimiter, RATE_LIMIT_DEFAULTS } from './rate-limit.js';

function clock(start = 1_000_000) {
  let now = start;
  return { nowMs: () => now, set: (ms: number) => void (now = ms), advance: (ms: number) => void (now += ms) };
}

describe('createSlidingWindowLimiter', () => {
  it('lets exactly `limit` requests through in a window, then says when to retry', () => {
    const c = clock();
    const limiter = createSlidingWindowLimiter({ limit: 3, nowMs: c.nowMs });
    expect(limiter.take('r')).toEqual({ ok: true });
    c.advance(10_000);
    expect(limiter.take('r')).toEqual({ ok: true });
    c.advance(10_000);
    expect(limiter.take('r')).toEqual({ ok: true });
    c.advance(5_000);
    // The first request (25 s ago) leaves the window in 35 s.
    expect(limiter.take('r')).toEqual({ ok: false, retryAfterSeconds: 35 });
  });

  it('slides: a request passes again as soon as the oldest leaves the window', () => {
    const c = clock();
    const limiter = createSlidingWindowLimiter({ limit: 2, nowMs: c.nowMs });
    limiter.take('r'); // t = 0
    c.advance(30_000);
    limiter.take('r'); // t = 30 s
    c.advance(29_999);
    expect(limiter.take('r')).toEqual({ ok: false, retryAfterSeconds: 1 });
    c.advance(1); // t = 60 s: the first request is out
    expect(limiter.take('r')).toEqual({ ok: true });
    // Now t = 30 s and t = 60 s are in the window: the next slot frees at 90 s.
    expect(limiter.take('r')).toEqual({ ok: false, retryAfterSeconds: 30 });
    c.advance(30_000);
    expect(limiter.take('r')).toEqual({ ok: true });
  });

  it('does not record a rejected request, so retrying costs no quota', () => {
    const c = clock();
    const limiter = createSlidingWindowLimiter({ limit: 1, nowMs: c.nowMs });
    expect(limiter.take('r')).toEqual({ ok: true });
    for (let i = 0; i < 5; i++) {
      c.advance(10_000);
      expect(limiter.take('r')).toEqual({ ok: false, retryAfterSeconds: 60 - 10 * (i + 1) });
    }
    c.advance(10_000);
    expect(limiter.take('r')).toEqual({ ok: true });
  });

  it('rounds Retry-After up to whole seconds, and never below 1', () => {
    const c = clock();
    const limiter = createSlidingWindowLimiter({ limit: 1, nowMs: c.nowMs });
    limiter.take('r');
    c.advance(500);
    expect(limiter.take('r')).toEqual({ ok: false, retryAfterSeconds: 60 });
    c.advance(58_600);
    expect(limiter.take('r')).toEqual({ ok: false, retryAfterSeconds: 1 });
    c.advance(899);
    expect(limiter.take('r')).toEqual({ ok: false, retryAfterSeconds: 1 });
  });

  it('counts each key on its own', () => {
    const c = clock();
    const limiter = createSlidingWindowLimiter({ limit: 1, nowMs: c.nowMs });
    expect(limiter.take('a')).toEqual({ ok: true });
    expect(limiter.take('b')).toEqual({ ok: true });
    expect(limiter.take('a')).toMatchObject({ ok: false });
    expect(limiter.size()).toBe(2);
  });

  it('honours a per-call limit, keeping the newest requests when it shrinks', () => {
    const c = clock();
    const limiter = createSlidingWindowLimiter({ limit: 30, nowMs: c.nowMs });
    for (let i = 0; i < 5; i++) {
      expect(limiter.take('big', 5)).toEqual({ ok: true });
      c.advance(1_000);
    }
    expect(limiter.take('big', 5)).toEqual({ ok: false, retryAfterSeconds: 55 });
    // Down to 2: the two newest (t = 3 s, 4 s) are kept, so the next slot frees at 63 s.
    expect(limiter.take('big', 2)).toEqual({ ok: false, retryAfterSeconds: 58 });
    // Up to 10: room again, and the kept requests still count.
    for (let i = 0; i < 8; i++) expect(limiter.take('big', 10)).toEqual({ ok: true });
    expect(limiter.take('big', 10)).toEqual({ ok: false, retryAfterSeconds: 58 });
    expect(limiter.take('default')).toEqual({ ok: true });
  });

  it('uses a custom window', () => {
    const c = clock();
    const limiter = createSlidingWindowLimiter({ limit: 1, windowMs: 5_000, nowMs: c.nowMs });
    limiter.take('r');
    expect(limiter.take('r')).toEqual({ ok: false, retryAfterSeconds: 5 });
    c.advance(5_000);
    expect(limiter.take('r')).toEqual({ ok: true });
  });

  it('evicts the least recently used key at maxKeys', () => {
    const c = clock();
    const limiter = createSlidingWindowLimiter({ limit: 1, maxKeys: 2, nowMs: c.nowMs });
    limiter.take('a');
    limiter.take('b');
    expect(limiter.take('a')).toMatchObject({ ok: false }); // a is now the most recent
    limiter.take('c'); // evicts b
    expect(limiter.size()).toBe(2);
    expect(limiter.take('a')).toMatchObject({ ok: false }); // a survived
    expect(limiter.take('b')).toEqual({ ok: true }); // b was forgotten; evicts c
    expect(limiter.take('c')).toEqual({ ok: true }); // c was forgotten too
    expect(limiter.size()).toBe(2);
  });

  it('stays at maxKeys however many keys arrive', () => {
    const c = clock();
    const limiter = createSlidingWindowLimiter({ limit: 3, maxKeys: 100, nowMs: c.nowMs });
    for (let i = 0; i < 10_000; i++) limiter.take(`k${i}`);
    expect(limiter.size()).toBe(100);
  });

  it('forgets requests from the future when the clock is set back', () => {
    const c = clock(10_000_000);
    const limiter = createSlidingWindowLimiter({ limit: 1, nowMs: c.nowMs });
    limiter.take('r');
    c.set(10_000_000 - 3_600_000);
    expect(limiter.take('r')).toEqual({ ok: true });
    expect(limiter.take('r')).toEqual({ ok: false, retryAfterSeconds: 60 });
  });

  it('defaults to a 60 s window, 10,000 keys and the real clock', () => {
    expect(RATE_LIMIT_DEFAULTS).toEqual({ windowMs: 60_000, maxKeys: 10_000 });
    const limiter = createSlidingWindowLimiter({ limit: 1 });
    expect(limiter.take('r')).toEqual({ ok: true });
    expect(limiter.take('r')).toEqual({ ok: false, retryAfterSeconds: 60 });
  });

  it.each([
    [{ limit: 0 }, 'limit must be a positive integer, got 0'],
    [{ limit: 1.5 }, 'limit must be a positive integer, got 1.5'],
    [{ limit: 1, windowMs: 0 }, 'windowMs must be a positive integer, got 0'],
    [{ limit: 1, maxKeys: -1 }, 'maxKeys must be a positive integer, got -1'],
  ])('refuses bad options %j', (options, message) => {
    expect(() => createSlidingWindowLimiter(options)).toThrow(new RangeError(message));
  });

  it('refuses a bad per-call limit without touching any state', () => {
    const limiter = createSlidingWindowLimiter({ limit: 1 });
    expect(() => limiter.take('r', 0)).toThrow(new RangeError('limit must be a positive integer, got 0'));
    expect(limiter.size()).toBe(0);
  });

  it('grows with the traffic, not the limit: a limit of a billion costs nothing up front, and 100 fits exactly 100', () => {
    let now = 0;
    const huge = createSlidingWindowLimiter({ limit: 1_000_000_000, nowMs: () => now });
    const started = process.cpuUsage();
    for (let i = 0; i < 1000; i++) expect(huge.take('r').ok).toBe(true);
    const used = process.cpuUsage(started);
    // Allocating for the limit (a billion slots) took seconds and gigabytes; growing rings take ~1 ms. CPU time, generous.
    expect((used.user + used.system) / 1000).toBeLessThan(2_000);
    const hundred = createSlidingWindowLimiter({ limit: 100, nowMs: () => now });
    for (let i = 0; i < 100; i++) {
      now = i;
      expect(hundred.take('r').ok).toBe(true);
    }
    expect(hundred.take('r')).toEqual({ ok: false, retryAfterSeconds: 60 });
    now = 60_000; // the first left the window
    expect(hundred.take('r').ok).toBe(true);
    expect(hundred.take('r').ok).toBe(false);
  });

  it('refund gives back the newest slot of a key, and nothing for an unknown key', () => {
    const limiter = createSlidingWindowLimiter({ limit: 2, nowMs: () => 0 });
    limiter.take('r');
    limiter.take('r');
    expect(limiter.take('r').ok).toBe(false);
    limiter.refund('r');
    expect(limiter.take('r').ok).toBe(true);
    limiter.refund('other');
    expect(limiter.size()).toBe(1);
  });
});
