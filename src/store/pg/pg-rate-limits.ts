// The rate limit every listener shares (store.rateLimits), kept in PostgreSQL by iris_rate_take
// (migration 8): it takes the key's advisory lock, drops the buckets that left the window, and
// counts what fits, in one round trip.
//
// Under load a listener's requests of one moment go together: the takes for a key that arrive
// while that key's last call is in flight wait for it to finish and then go as one call for all of
// them, the first `admitted` in arrival order let in, the rest told when to retry. Alone, a take
// waits for nothing but its own call. So the database does one locked update per batch instead of
// one per request, and listeners contend for a key's lock once per batch.
import type { SharedRateDecision, SharedRateLimiter } from '../types.js';
import type { PgContext } from './pg-context.js';

type Waiting = { readonly limit: number; readonly windowMs: number; readonly resolve: (decision: SharedRateDecision) => void; readonly reject: (err: unknown) => void };

type KeyQueue = { waiting: Waiting[]; inFlight: boolean };

export function createPgRateLimits(ctx: PgContext): SharedRateLimiter {
  const queues = new Map<string, KeyQueue>();

  const flush = (key: string, queue: KeyQueue): void => {
    if (queue.inFlight || queue.waiting.length === 0) {
      if (!queue.inFlight && queues.get(key) === queue) queues.delete(key);
      return;
    }
    // Requests carrying another limit (the config changed in between) wait for the next call.
    const { limit, windowMs } = queue.waiting[0]!;
    const batch = queue.waiting.filter((w) => w.limit === limit && w.windowMs === windowMs);
    queue.waiting = queue.waiting.filter((w) => !(w.limit === limit && w.windowMs === windowMs));
    queue.inFlight = true;
    ctx
      .guarded(async () => {
        const result = await ctx.pool.query<{ admitted: number; wait_ms: number }>({
          name: 'iris_rate_take',
          text: 'SELECT admitted, wait_ms FROM iris_rate_take($1, $2, $3, $4, $5)',
          values: [key, batch.length, limit, windowMs, ctx.now()],
        });
        return result.rows[0] ?? { admitted: 0, wait_ms: windowMs };
      })
      .then(
        ({ admitted, wait_ms }) => {
          const retryAfterSeconds = Math.max(1, Math.ceil(wait_ms / 1000));
          batch.forEach((w, i) => w.resolve(i < admitted ? { ok: true } : { ok: false, retryAfterSeconds }));
        },
        (err: unknown) => {
          for (const w of batch) w.reject(err);
        },
      )
      .finally(() => {
        queue.inFlight = false;
        flush(key, queue);
      });
  };

  return {
    take: (key, limit, windowMs) =>
      new Promise<SharedRateDecision>((resolve, reject) => {
        let queue = queues.get(key);
        if (!queue) queues.set(key, (queue = { waiting: [], inFlight: false }));
        queue.waiting.push({ limit, windowMs, resolve, reject });
        // The first of a moment schedules the call; the others of the same turn join it.
        if (queue.waiting.length === 1 && !queue.inFlight) {
          const scheduled = queue;
          setImmediate(() => flush(key, scheduled));
        }
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
