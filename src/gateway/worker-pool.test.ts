// The worker pool over a real SQLite inbox: a claim that fails (a busy store) is retried on a
// timer with backoff, so queued events run without waiting for another webhook.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import { openSqliteStore } from '../store/sqlite-store.js';
import type { Store } from '../store/types.js';
import type { WebhookEventRecord, WebhookInbox } from '../store/webhook-types.js';
import { claimRetryDelay, createWorkerPool } from './worker-pool.js';
import { StoreError } from '../store/errors.js';

let dir: string;
let store: Store;
beforeEach(async () => {
  dir = await makeTempDir('iris-pool-');
  store = await openSqliteStore(join(dir, 'state.db'));
});
afterEach(async () => {
  await store.close();
  await removeDir(dir);
});

const quietLog = () => {
  const errors: Array<{ fields: object; message: string }> = [];
  return { errors, log: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: (fields: object, message: string) => errors.push({ fields, message }) } };
};

async function acceptOne(deliveryId: string): Promise<void> {
  await store.webhooks.accept(
    { route: 'r', deliveryId, deduplicate: true, event: 'push', payload: '{}', routeSnapshot: '{}', receivedAt: Date.now() },
    0,
  );
}

/** The real inbox, whose first `failures` claims throw as a busy store does. */
function failingFirst(inbox: WebhookInbox, failures: number): WebhookInbox {
  let left = failures;
  return new Proxy(inbox, {
    get(target, key, receiver) {
      if (key === 'claimNextRun') {
        return async (max: number) => {
          if (left > 0) {
            left--;
            throw new Error('database is locked');
          }
          return target.claimNextRun(max);
        };
      }
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

describe('claimRetryDelay', () => {
  it('doubles from the first wait and stops at the longest', () => {
    const retry = { firstMs: 250, maxMs: 30_000 };
    expect([1, 2, 3, 4, 7, 8, 9, 100].map((n) => claimRetryDelay(n, retry))).toEqual([250, 500, 1000, 2000, 16_000, 30_000, 30_000, 30_000]);
  });
});

describe('the worker pool when the inbox fails', () => {
  it('claims again after a backoff and runs the queued events with no new webhook', async () => {
    await acceptOne('d1');
    await acceptOne('d2');
    const ran: string[] = [];
    const { errors, log } = quietLog();
    let allRan: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (allRan = resolve));
    const pool = createWorkerPool({
      concurrency: 1,
      inbox: failingFirst(store.webhooks, 2),
      maxRunAttempts: 3,
      claimRetry: { firstMs: 20, maxMs: 40 },
      run: async (record: WebhookEventRecord) => {
        ran.push(record.deliveryId);
        if (ran.length === 2) allRan();
        return { kind: 'done', output: `answer ${record.deliveryId}` };
      },
      deliver: async () => undefined,
      log,
    });
    await pool.start();
    expect(ran).toEqual([]);
    await done;
    expect(ran).toEqual(['d1', 'd2']);
    expect(errors.map((e) => [e.message, (e.fields as { retry_in_ms: number }).retry_in_ms])).toEqual([
      ['webhook inbox unavailable; claiming runs again shortly', 20],
      ['webhook inbox unavailable; claiming runs again shortly', 40],
    ]);
    await pool.stop(1000);
    expect((await store.webhooks.list()).map((e) => e.state)).toEqual(['done', 'done']);
  });

  it('stops retrying once stopped', async () => {
    await acceptOne('d1');
    const ran: string[] = [];
    const { errors, log } = quietLog();
    const pool = createWorkerPool({
      concurrency: 1,
      inbox: failingFirst(store.webhooks, 1),
      maxRunAttempts: 3,
      claimRetry: { firstMs: 30, maxMs: 30 },
      run: async (record: WebhookEventRecord) => {
        ran.push(record.deliveryId);
        return { kind: 'done', output: 'x' };
      },
      deliver: async () => undefined,
      log,
    });
    await pool.start();
    await pool.stop(1000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(errors).toHaveLength(1);
    expect(ran).toEqual([]);
    expect((await store.webhooks.list()).map((e) => e.state)).toEqual(['accepted']);
  });
});

describe('the worker pool and a PR lane', () => {
  async function acceptInLane(deliveryId: string, runAfter?: number): Promise<number> {
    const outcome = await store.webhooks.accept(
      { route: 'r', deliveryId, deduplicate: true, event: 'pull_request', payload: '{}', routeSnapshot: '{}', receivedAt: Date.now(), lane: 'r|github:o/r#1', ...(runAfter === undefined ? {} : { runAfter }) },
      0,
    );
    if (outcome.status !== 'accepted') throw new Error('not accepted');
    return outcome.id;
  }

  it('after a restart, the event waiting behind a finished run of its PR runs once that output is delivered', async () => {
    const first = await acceptInLane('a');
    const second = await acceptInLane('b');
    // The last process ran `first` and stopped before delivering it.
    await store.webhooks.claimNextRun(3);
    await store.webhooks.finishRun(first, 'answer');
    const ran: number[] = [];
    const pool = createWorkerPool({
      concurrency: 2,
      inbox: store.webhooks,
      maxRunAttempts: 3,
      log: quietLog().log,
      run: async (record) => {
        ran.push(record.id);
        return { kind: 'done', output: 'x' };
      },
      // A delivery takes a while (a code host's answer): the first claims find the lane blocked.
      deliver: async (record) => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        await store.webhooks.markDelivered(record.id, 1);
      },
    });
    await pool.start();
    const deadline = Date.now() + 2_000;
    while (ran.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await pool.stop(1_000);
    expect(ran).toEqual([second]);
  });

  it('a push waiting out its window is run when the window ends, with no other event to wake the pool', async () => {
    const id = await acceptInLane('p', Date.now() + 300);
    const ran: number[] = [];
    const pool = createWorkerPool({
      concurrency: 1,
      inbox: store.webhooks,
      maxRunAttempts: 3,
      log: quietLog().log,
      run: async (record) => {
        ran.push(record.id);
        return { kind: 'skipped', reason: 'test' };
      },
      deliver: async () => undefined,
    });
    await pool.start();
    expect(ran).toEqual([]);
    const deadline = Date.now() + 3_000;
    while (ran.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await pool.stop(1_000);
    expect(ran).toEqual([id]);
    expect((await store.webhooks.get(id))?.state).toBe('skipped');
  });
});

describe('the worker pool and a run it lost', () => {
  it('does not deliver a run whose recording was refused (another worker took the event over)', async () => {
    await acceptOne('d-lost');
    const { log } = quietLog();
    const warnings: string[] = [];
    const inbox = new Proxy(store.webhooks, {
      get(target, key, receiver) {
        if (key === 'finishRun') return async () => false;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const delivered: string[] = [];
    let ran!: () => void;
    const finished = new Promise<void>((resolve) => (ran = resolve));
    const pool = createWorkerPool({
      concurrency: 1,
      inbox,
      maxRunAttempts: 3,
      run: async () => ({ kind: 'done', output: 'late answer' }),
      deliver: async (record) => void delivered.push(record.deliveryId),
      log: { ...log, warn: (_fields: object, message: string) => (warnings.push(message), ran()) },
    });
    await pool.start();
    await finished;
    await pool.stop(1_000);
    expect(warnings).toEqual(['webhook run finished after another worker took the event over; this answer is dropped']);
    expect(delivered).toEqual([]);
  });
});

/** The real inbox, whose first `failures` calls of `method` throw as a store out of reach does. */
function awayFor(inbox: WebhookInbox, method: keyof WebhookInbox, failures: number): WebhookInbox {
  let left = failures;
  return new Proxy(inbox, {
    get(target, key, receiver) {
      const real = Reflect.get(target, key, receiver) as unknown;
      if (key !== method || typeof real !== 'function') return real;
      return async (...args: unknown[]) => {
        if (left > 0) {
          left--;
          throw new StoreError('io', 'cannot reach PostgreSQL (Connection terminated)');
        }
        return (real as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      };
    },
  });
}

describe('recording outcomes while the store is away', () => {
  it('a finished run whose answer cannot be stored at first is stored once the store is back, and delivered once', async () => {
    await acceptOne('d1');
    const delivered: string[] = [];
    const { log } = quietLog();
    let deliveredOne: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (deliveredOne = resolve));
    const pool = createWorkerPool({
      concurrency: 1,
      inbox: awayFor(store.webhooks, 'finishRun', 3),
      maxRunAttempts: 3,
      writeRetryMs: [5],
      run: async () => ({ kind: 'done', output: 'the answer' }),
      deliver: async (record) => {
        delivered.push(record.output ?? '');
        await store.webhooks.markDelivered(record.id, 1);
        deliveredOne();
      },
      log,
    });
    await pool.start();
    await done;
    await pool.stop(1_000);
    expect(delivered).toEqual(['the answer']);
    expect((await store.webhooks.list())[0]?.state).toBe('delivered');
  });

  it('a run the store fails under is put back and runs again, rather than failed for good', async () => {
    await acceptOne('d1');
    let runs = 0;
    const { log } = quietLog();
    let finished: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (finished = resolve));
    const pool = createWorkerPool({
      concurrency: 1,
      inbox: store.webhooks,
      maxRunAttempts: 3,
      run: async () => {
        runs++;
        if (runs === 1) throw new StoreError('io', 'cannot reach PostgreSQL (ECONNREFUSED)');
        return { kind: 'done', output: 'second time' };
      },
      deliver: async (record) => {
        await store.webhooks.markDelivered(record.id, 1);
        finished();
      },
      log,
      pollMs: 10,
    });
    await pool.start();
    await done;
    await pool.stop(1_000);
    expect(runs).toBe(2);
    expect((await store.webhooks.list())[0]).toMatchObject({ state: 'delivered', output: 'second time' });
  });
});
