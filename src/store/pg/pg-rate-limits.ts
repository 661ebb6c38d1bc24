// The rate limit every listener shares (store.rateLimits), kept in PostgreSQL: one call of
// iris_rate_take (migration 8) per request, which takes the key's advisory lock, drops the buckets
// that left the window, and counts the request if it fits, all in one round trip.
import type { SharedRateLimiter } from '../types.js';
import type { PgContext } from './pg-context.js';

export function createPgRateLimits(ctx: PgContext): SharedRateLimiter {
  return {
    take: (key, limit, windowMs) =>
      ctx.guarded(async () => {
        const result = await ctx.pool.query<{ wait: number }>('SELECT iris_rate_take($1, $2, $3, $4) AS wait', [key, limit, windowMs, ctx.now()]);
        const wait = result.rows[0]?.wait ?? 0;
        return wait === 0 ? { ok: true } : { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
      }),
    refund: (key) =>
      ctx.guarded(async () => {
        await ctx.pool.query(
          `UPDATE rate_limit_buckets SET hits = hits - 1
           WHERE key = $1 AND bucket = (SELECT max(bucket) FROM rate_limit_buckets WHERE key = $1 AND hits > 0) AND hits > 0`,
          [key],
        );
      }),
  };
}
