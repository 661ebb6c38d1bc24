// A sliding-window rate limiter per key (DECISIONS.md step 11: per route, 60 s). Each key keeps at
// most `limit` timestamps in a ring, and the map holds at most `maxKeys` keys (least recently used
// evicted), so memory stays flat whatever arrives. The clock is injectable for tests.

export type RateLimitDecision = { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };

export type SlidingWindowLimiter = {
  /**
   * Records a request for `key` if it fits, else says when to retry (nothing recorded). `limit`
   * overrides the limiter's for this call, so one limiter serves routes with their own limits.
   */
  take(key: string, limit?: number): RateLimitDecision;
  /** Gives back the newest request recorded for `key` (it turned out to cost nothing: a duplicate). */
  refund(key: string): void;
  /** Keys held. */
  size(): number;
};

export type SlidingWindowOptions = {
  readonly limit: number;
  readonly windowMs?: number;
  readonly maxKeys?: number;
  readonly nowMs?: () => number;
};

export const RATE_LIMIT_DEFAULTS = Object.freeze({ windowMs: 60_000, maxKeys: 10_000 });

/**
 * The timestamps of a key's latest requests, oldest at `start`. The ring grows (doubling) as
 * requests arrive, up to the limit: memory follows the traffic in the window, not the limit, so
 * a huge `rate_limit` (set to get the limiter out of the way) costs nothing up front.
 */
type Ring = { times: number[]; start: number; count: number };

const INITIAL_CAPACITY = 16;

function requirePositiveInt(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  }
}

/** A ring of another capacity, keeping the newest timestamps that fit. */
function resize(ring: Ring, capacity: number): Ring {
  const keep = Math.min(ring.count, capacity);
  const times = new Array<number>(capacity).fill(0);
  for (let i = 0; i < keep; i++) times[i] = ring.times[(ring.start + ring.count - keep + i) % ring.times.length]!;
  return { times, start: 0, count: keep };
}

export function createSlidingWindowLimiter(options: SlidingWindowOptions): SlidingWindowLimiter {
  const { limit: defaultLimit, windowMs = RATE_LIMIT_DEFAULTS.windowMs } = options;
  const { maxKeys = RATE_LIMIT_DEFAULTS.maxKeys, nowMs = Date.now } = options;
  requirePositiveInt('limit', defaultLimit);
  requirePositiveInt('windowMs', windowMs);
  requirePositiveInt('maxKeys', maxKeys);
  // Map order is recency order: a key is re-inserted on every use, the first key is the oldest.
  const rings = new Map<string, Ring>();

  function ringFor(key: string, limit: number): Ring {
    let ring = rings.get(key);
    if (ring === undefined) {
      if (rings.size >= maxKeys) rings.delete(rings.keys().next().value!);
      const capacity = Math.min(limit, INITIAL_CAPACITY);
      ring = { times: new Array<number>(capacity).fill(0), start: 0, count: 0 };
    } else {
      rings.delete(key);
      // A lower limit than before: keep only the newest timestamps that the new limit allows.
      if (ring.times.length > limit) ring = resize(ring, limit);
    }
    rings.set(key, ring);
    return ring;
  }

  return {
    take(key, limit = defaultLimit) {
      requirePositiveInt('limit', limit);
      const now = nowMs();
      const ring = ringFor(key, limit);
      // Drop what has left the window, and what lies in the future: the clock was set back, and
      // keeping those would block the key for as long as it was set back.
      let current = ring;
      while (current.count > 0) {
        const oldest = current.times[current.start]!;
        if (now - oldest < windowMs && oldest <= now) break;
        current.start = (current.start + 1) % current.times.length;
        current.count--;
      }
      if (current.count >= limit) {
        const waitMs = current.times[current.start]! + windowMs - now;
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
      }
      if (current.count === current.times.length) {
        current = resize(current, Math.min(limit, current.times.length * 2));
        rings.set(key, current);
      }
      current.times[(current.start + current.count) % current.times.length] = now;
      current.count++;
      return { ok: true };
    },
    refund(key) {
      const ring = rings.get(key);
      if (ring && ring.count > 0) ring.count--;
    },
    size: () => rings.size,
  };
}
