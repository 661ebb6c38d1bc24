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

/** The timestamps of a key's latest requests, oldest at `start`; the ring's length is the limit. */
type Ring = { times: number[]; start: number; count: number };

function requirePositiveInt(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  }
}

/** A ring of another size, keeping the newest timestamps that fit. */
function resize(ring: Ring, size: number): Ring {
  const keep = Math.min(ring.count, size);
  const times = new Array<number>(size).fill(0);
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
      ring = { times: new Array<number>(limit).fill(0), start: 0, count: 0 };
    } else {
      rings.delete(key);
      if (ring.times.length !== limit) ring = resize(ring, limit);
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
      while (ring.count > 0) {
        const oldest = ring.times[ring.start]!;
        if (now - oldest < windowMs && oldest <= now) break;
        ring.start = (ring.start + 1) % limit;
        ring.count--;
      }
      if (ring.count === limit) {
        const waitMs = ring.times[ring.start]! + windowMs - now;
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
      }
      ring.times[(ring.start + ring.count) % limit] = now;
      ring.count++;
      return { ok: true };
    },
    size: () => rings.size,
  };
}
