// A running pool on a store of one worker (SQLite) delivers what another process put back for
// delivery (the dashboard's Redeliver) at its next poll, once, and never an answer it is already
// delivering.
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import { openSqliteStore } from '../store/sqlite-store.js';
import type { Store } from '../store/types.js';
import type { WebhookEventRecord } from '../store/webhook-types.js';
import { createWorkerPool } from './worker-pool.js';

let dir: string;
let store: Store;
let other: Store;
beforeEach(async () => {
  dir = await makeTempDir('iris-pool-requeue-');
  store = await openSqliteStore(join(dir, 'state.db'));
  other = await openSqliteStore(join(dir, 'state.db'));
});
afterEach(async () => {
  await other.close();
  await store.close();
  await removeDir(dir);
});

const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('delivers a requeued event again from its stored answer, without running it, and only once', async () => {
  const accepted = await store.webhooks.accept({ route: 'r', deliveryId: 'd1', deduplicate: true, event: 'push', payload: '{}', routeSnapshot: '{}', receivedAt: Date.now() }, 0);
  expect(accepted.status).toBe('accepted');
  const runs: number[] = [];
  const deliveries: Array<{ id: number; output: string | null; state: string }> = [];
  let release: () => void = () => undefined;
  const pool = createWorkerPool({
    concurrency: 1,
    inbox: store.webhooks,
    maxRunAttempts: 3,
    pollMs: 10,
    run: async (record: WebhookEventRecord) => {
      runs.push(record.id);
      return { kind: 'done', output: 'the answer' };
    },
    deliver: async (record) => {
      deliveries.push({ id: record.id, output: record.output, state: record.state });
      // The second delivery is slow: polls meanwhile must not take it again.
      if (deliveries.length === 2) await new Promise<void>((resolve) => (release = resolve));
      await store.webhooks.markDelivered(record.id, 1);
    },
    log,
  });
  await pool.start();
  for (let i = 0; i < 100 && deliveries.length < 1; i++) await sleep(10);
  await sleep(50);
  expect(deliveries).toEqual([{ id: 1, output: 'the answer', state: 'done' }]);

  const requeued = await other.webhooks.requeueDelivery(1);
  expect(requeued.ok).toBe(true);
  for (let i = 0; i < 100 && deliveries.length < 2; i++) await sleep(10);
  await sleep(100);
  expect(deliveries.length).toBe(2);
  release();
  for (let i = 0; i < 100 && (await store.webhooks.get(1))?.state !== 'delivered'; i++) await sleep(10);
  await sleep(50);
  await pool.stop(1_000);
  expect(runs).toEqual([1]);
  expect(deliveries).toEqual([
    { id: 1, output: 'the answer', state: 'done' },
    { id: 1, output: 'the answer', state: 'done' },
  ]);
  expect(await store.webhooks.get(1)).toMatchObject({ state: 'delivered' });
});
