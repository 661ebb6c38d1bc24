// The operator's Redeliver and Re-run on both stores (webhook-types.ts requeueDelivery, rerun),
// the list's state filter, and the count of recent failures (the health strip).
import { beforeEach, describe, expect, it } from 'vitest';
import { STORE_BACKENDS, useStores } from '../../test/helpers/store-backends.js';
import type { Store } from './types.js';
import type { NewWebhookEvent } from './webhook-types.js';

describe.each(STORE_BACKENDS)('the webhook inbox for an operator ($name)', (backend) => {
  const stores = useStores(backend);
  let clock: number;
  let store: Store;
  beforeEach(async () => {
    clock = 1_000_000;
    store = await stores.open({ now: () => clock });
  });

  const event = (deliveryId: string, overrides: Partial<NewWebhookEvent> = {}): NewWebhookEvent => ({
    route: 'review',
    deliveryId,
    deduplicate: true,
    event: 'pull_request',
    payload: '{"number":7}',
    routeSnapshot: '{"name":"review","deliver":"log"}',
    receivedAt: clock,
    ...overrides,
  });

  async function accepted(deliveryId: string, overrides: Partial<NewWebhookEvent> = {}): Promise<number> {
    const outcome = await store.webhooks.accept(event(deliveryId, overrides), 0);
    if (outcome.status !== 'accepted') throw new Error('not accepted');
    return outcome.id;
  }

  /** An event run to its answer (done), then delivered when asked. */
  async function answered(deliveryId: string, then: 'done' | 'delivered' | 'delivery_failed' = 'delivered'): Promise<number> {
    const id = await accepted(deliveryId);
    const claimed = await store.webhooks.claimNextRun(3);
    expect(claimed?.id).toBe(id);
    await store.webhooks.finishRun(id, 'the answer');
    if (then === 'delivered') await store.webhooks.markDelivered(id, 1);
    if (then === 'delivery_failed') await store.webhooks.markDeliveryFailed(id, 4, 'gh said no');
    return id;
  }

  it('puts a delivered event back to done with its answer, and a pending-delivery look finds it', async () => {
    const id = await answered('d1');
    clock += 5_000;
    const outcome = await store.webhooks.requeueDelivery(id);
    expect(outcome.ok).toBe(true);
    const record = await store.webhooks.get(id);
    expect(record).toMatchObject({ state: 'done', output: 'the answer', deliveryAttempts: 1, runAttempts: 1, error: null, updatedAt: 1_005_000, deliveryPid: null });
    expect((await store.webhooks.pendingDeliveries()).map((r) => r.id)).toEqual([id]);
    await store.webhooks.markDelivered(id, 1);
    expect((await store.webhooks.get(id))?.state).toBe('delivered');
  });

  it('puts back an event whose delivery failed, clearing the failure', async () => {
    const id = await answered('d1', 'delivery_failed');
    expect((await store.webhooks.get(id))?.state).toBe('failed');
    expect(await store.webhooks.requeueDelivery(id)).toMatchObject({ ok: true, record: { id, state: 'done', error: null, deliveryAttempts: 4 } });
  });

  it('refuses to redeliver an unknown event, one still on its way, or one with no answer', async () => {
    expect(await store.webhooks.requeueDelivery(999)).toEqual({ ok: false, reason: 'not_found' });
    const waiting = await accepted('waiting');
    expect(await store.webhooks.requeueDelivery(waiting)).toEqual({ ok: false, reason: 'not_finished' });
    await store.webhooks.claimNextRun(3);
    expect(await store.webhooks.requeueDelivery(waiting)).toEqual({ ok: false, reason: 'not_finished' });
    await store.webhooks.finishRun(waiting, 'answer');
    expect(await store.webhooks.requeueDelivery(waiting)).toEqual({ ok: false, reason: 'not_finished' });
    await store.webhooks.markDelivering(waiting);
    expect(await store.webhooks.requeueDelivery(waiting)).toEqual({ ok: false, reason: 'not_finished' });

    const failedRun = await accepted('failed-run');
    await store.webhooks.claimNextRun(3);
    await store.webhooks.fail(failedRun, 'the model is away');
    expect(await store.webhooks.requeueDelivery(failedRun)).toEqual({ ok: false, reason: 'no_answer' });
    const skipped = await accepted('skipped');
    await store.webhooks.skip(skipped, 'not a command');
    expect(await store.webhooks.requeueDelivery(skipped)).toEqual({ ok: false, reason: 'no_answer' });
    expect((await store.webhooks.get(failedRun))?.state).toBe('failed');
    expect((await store.webhooks.get(skipped))?.state).toBe('skipped');
  });

  it('re-runs a finished event as a new accepted event with its payload, snapshot and lane, never deduplicated', async () => {
    const id = await answered('d1');
    clock += 7_000;
    const first = await store.webhooks.rerun(id, `rerun-${id}-a`);
    const second = await store.webhooks.rerun(id, `rerun-${id}-a`);
    expect(first.ok && second.ok).toBe(true);
    const firstId = first.ok ? first.id : 0;
    const secondId = second.ok ? second.id : 0;
    expect(firstId).toBeGreaterThan(id);
    expect(secondId).toBe(firstId + 1);
    expect(await store.webhooks.get(firstId)).toMatchObject({
      route: 'review',
      deliveryId: `rerun-${id}-a`,
      event: 'pull_request',
      payload: '{"number":7}',
      routeSnapshot: '{"name":"review","deliver":"log"}',
      state: 'accepted',
      runAttempts: 0,
      deliveryAttempts: 0,
      output: null,
      sessionId: null,
      receivedAt: 1_007_000,
      runAfter: null,
    });
    expect((await store.webhooks.claimNextRun(3))?.id).toBe(firstId);
    // The original is left as it was.
    expect(await store.webhooks.get(id)).toMatchObject({ state: 'delivered', output: 'the answer' });
  });

  it('keeps the lane of a re-run event, so it waits behind its PR', async () => {
    const id = await accepted('d1', { lane: 'review#7' });
    await store.webhooks.claimNextRun(3);
    await store.webhooks.skip(id, 'not a command');
    const rerun = await store.webhooks.rerun(id, 'rerun-x');
    expect(rerun.ok).toBe(true);
    expect((await store.webhooks.get(rerun.ok ? rerun.id : 0))?.lane).toBe('review#7');
  });

  it('refuses to re-run an unknown event or one still on its way', async () => {
    expect(await store.webhooks.rerun(42, 'rerun-42')).toEqual({ ok: false, reason: 'not_found' });
    const id = await answered('d1', 'done');
    expect(await store.webhooks.rerun(id, `rerun-${id}`)).toEqual({ ok: false, reason: 'not_finished' });
    expect((await store.webhooks.list()).length).toBe(1);
  });

  it('lists events in one state, by route, newest first', async () => {
    const delivered = await answered('a');
    const done = await answered('b', 'done');
    const delivering = await answered('c', 'done');
    await store.webhooks.markDelivering(delivering);
    const skipped = await accepted('d', { route: 'other' });
    await store.webhooks.skip(skipped, 'nothing to do');
    const waiting = await accepted('e');
    const ids = async (options: Parameters<Store['webhooks']['list']>[0]) => (await store.webhooks.list(options)).map((r) => r.id);
    expect(await ids({ state: 'delivered' })).toEqual([delivered]);
    expect(await ids({ state: 'done' })).toEqual([done]);
    expect(await ids({ state: 'delivering' })).toEqual([delivering]);
    expect(await ids({ state: 'skipped' })).toEqual([skipped]);
    expect(await ids({ state: 'accepted' })).toEqual([waiting]);
    expect(await ids({ state: 'failed' })).toEqual([]);
    expect(await ids({ state: 'skipped', route: 'review' })).toEqual([]);
    expect(await ids({ route: 'review', limit: 2 })).toEqual([waiting, delivering]);
    expect(await ids({})).toEqual([waiting, skipped, delivering, done, delivered]);
  });

  it('failedSince counts the events that failed at or after the instant, whether the run or the delivery failed', async () => {
    await answered('d1', 'delivery_failed'); // failed at 1,000,000
    clock = 2_000_000;
    await answered('d2', 'delivery_failed');
    await answered('d3', 'delivered');
    const run = await accepted('d4');
    expect((await store.webhooks.claimNextRun(3))?.id).toBe(run);
    await store.webhooks.fail(run, 'the model refused');
    expect(await store.webhooks.failedSince(2_000_000)).toBe(2);
    expect(await store.webhooks.failedSince(1_000_000)).toBe(3);
    expect(await store.webhooks.failedSince(2_000_001)).toBe(0);
  });
});

describe('a Redeliver on a shared store (PostgreSQL)', () => {
  const stores = useStores(STORE_BACKENDS.find((backend) => backend.name === 'postgres')!);

  it('is held by no worker, so a running worker adopts it at its next look for deliveries left by others', async () => {
    let clock = 1_000_000;
    const worker = await stores.open({ now: () => clock, worker: 'host-a:10:1' });
    const dashboard = await stores.reopen({ now: () => clock, worker: 'host-b:20:2' });
    const accepted = await worker.webhooks.accept({ route: 'r', deliveryId: 'd1', deduplicate: true, event: 'push', payload: '{}', routeSnapshot: '{}', receivedAt: clock }, 0);
    expect(accepted.status).toBe('accepted');
    const claimed = await worker.webhooks.claimNextRun(3);
    expect(await worker.webhooks.finishRun(claimed!.id, 'answer')).toBe(true);
    // While the worker delivers it, the look for others' deliveries leaves it alone.
    expect(await worker.webhooks.pendingDeliveries({ othersOnly: true })).toEqual([]);
    await worker.webhooks.markDelivered(claimed!.id, 1);
    clock += 1_000;
    expect((await dashboard.webhooks.requeueDelivery(claimed!.id)).ok).toBe(true);
    expect((await worker.webhooks.pendingDeliveries({ othersOnly: true })).map((r) => [r.id, r.state, r.output])).toEqual([[claimed!.id, 'done', 'answer']]);
    // Now claimed for that worker: the other process does not take it too.
    expect(await dashboard.webhooks.pendingDeliveries({ othersOnly: true })).toEqual([]);
  });

});
