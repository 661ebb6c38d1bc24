// A worker on a shared store (PostgreSQL) delivers what another worker finished running but did
// not deliver before it died, once that worker's lease lapses — not only at its own next start.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { dropSchema, freshSchemaName, PG_TEST_URL } from '../../test/helpers/postgres.js';
import { openPostgresStore } from '../store/pg/pg-store.js';
import type { Store } from '../store/types.js';
import { createWorkerPool } from './worker-pool.js';

let schema: string;
const stores: Store[] = [];
beforeEach(() => {
  schema = freshSchemaName();
});
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  await dropSchema(schema);
});

const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

it("delivers a dead worker's finished run while its own are left alone", async () => {
  const dead = await openPostgresStore(PG_TEST_URL, { schema, worker: 'gone-host:1:1', leaseSeconds: 1, poolSize: 2 });
  const live = await openPostgresStore(PG_TEST_URL, { schema, worker: 'live-host:2:2', leaseSeconds: 30, poolSize: 2 });
  stores.push(dead, live);
  const accepted = await dead.webhooks.accept({ route: 'r', deliveryId: 'd-1', deduplicate: true, event: 'push', payload: '{}', routeSnapshot: '{}', receivedAt: Date.now() }, 0);
  if (accepted.status !== 'accepted') throw new Error('not accepted');
  await dead.webhooks.claimNextRun(3);
  await dead.webhooks.finishRun(accepted.id, 'the answer');
  await dead.close(); // stops renewing: its 1 s lease lapses

  const delivered: Array<{ id: number; output: string | null }> = [];
  const pool = createWorkerPool({
    concurrency: 2,
    inbox: live.webhooks,
    maxRunAttempts: 3,
    log,
    run: () => Promise.reject(new Error('nothing is run: the output is stored')),
    deliver: async (record) => {
      delivered.push({ id: record.id, output: record.output });
      await live.webhooks.markDelivered(record.id, 1);
    },
    adoptDeliveriesEveryMs: 100,
  });
  await pool.start(); // at start the lease still holds: nothing to deliver yet
  expect(delivered).toEqual([]);
  await expect.poll(() => delivered, { timeout: 5_000, interval: 50 }).toEqual([{ id: accepted.id, output: 'the answer' }]);
  expect(await live.webhooks.get(accepted.id)).toMatchObject({ state: 'delivered', runAttempts: 1 });
  await pool.stop(1_000);
});
