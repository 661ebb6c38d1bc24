// Renewing this process's leases. A row a worker claims (a running webhook event, a running chat
// message, an outbox row being sent) carries the worker's id and a lease; while the process lives
// the store renews them all every third of the lease, in one statement per table. A process that
// dies (kill -9, a lost host) stops renewing, its leases lapse, and another worker claims the rows.
import type { PgContext } from './pg-context.js';

const RENEWALS = [
  // A run's worker keeps its event through the delivery (done, delivering) too.
  "UPDATE webhook_events SET lease_until = $1 WHERE worker = $2 AND state IN ('running', 'done')",
  "UPDATE platform_inbound SET lease_until = $1 WHERE worker = $2 AND state = 'running'",
  "UPDATE platform_outbox SET lease_until = $1 WHERE worker = $2 AND state = 'sending'",
] as const;

/** Extends every lease this worker holds to now + the lease; returns how many rows. */
export async function renewLeases(ctx: PgContext): Promise<number> {
  const until = ctx.now() + ctx.leaseMs;
  let renewed = 0;
  for (const sql of RENEWALS) renewed += (await ctx.pool.query(sql, [until, ctx.worker])).rowCount ?? 0;
  return renewed;
}

export type LeaseRenewer = { stop(): void };

/** Renews on a timer (unref'd: it never keeps the process alive); a failed round is retried at the next tick. */
export function startLeaseRenewer(ctx: PgContext, onError: (err: unknown) => void): LeaseRenewer {
  const timer = setInterval(() => {
    renewLeases(ctx).catch(onError);
  }, Math.max(100, Math.floor(ctx.leaseMs / 3)));
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
