// The webhook inbox on every store (SQLite in both accept modes, PostgreSQL): acceptance with
// dedup, the run and delivery states, crash recovery, and the bounded dedup table.
import { beforeEach, describe, expect, it } from 'vitest';
import { INBOX_STORE_VARIANTS } from '../../test/helpers/inbox-store-variants.js';
import { useStores } from '../../test/helpers/store-backends.js';
import type { Store } from './types.js';
import type { NewWebhookEvent } from './webhook-types.js';

describe.each(INBOX_STORE_VARIANTS)('$name', ({ backend, options }) => {
  const stores = useStores(backend);
  let store: Store;
  let clock = 1_000_000;
  beforeEach(async () => {
    clock = 1_000_000;
    store = await stores.open({ now: () => clock, ...options });
  });

  const HOUR = 3_600_000;

  function event(overrides: Partial<NewWebhookEvent> = {}): NewWebhookEvent {
    return {
      route: 'github-pr',
      deliveryId: 'd-1',
      deduplicate: true,
      event: 'pull_request',
      payload: '{"action":"opened"}',
      routeSnapshot: '{"deliver":"log"}',
      receivedAt: clock,
      ...overrides,
    };
  }

  describe('accept and dedup', () => {
    it('accepts an event once per (route, delivery id) within the window', async () => {
      const inbox = store.webhooks;
      expect(await inbox.accept(event(), clock - HOUR)).toEqual({ status: 'accepted', id: 1 });
      expect(await inbox.isDuplicate('github-pr', 'd-1', clock - HOUR)).toBe(true);
      expect(await inbox.accept(event(), clock - HOUR)).toEqual({ status: 'duplicate' });
      // The same delivery on another route is a different event (one code-host event fans out).
      expect(await inbox.accept(event({ route: 'other' }), clock - HOUR)).toEqual({ status: 'accepted', id: 2 });
      expect((await inbox.list()).map((e) => [e.id, e.route, e.state])).toEqual([
        [2, 'other', 'accepted'],
        [1, 'github-pr', 'accepted'],
      ]);
    });

    it('accepts the same delivery id again once the window has passed, and refreshes the record', async () => {
      const inbox = store.webhooks;
      await inbox.accept(event(), clock - HOUR);
      clock += HOUR + 1;
      expect(await inbox.isDuplicate('github-pr', 'd-1', clock - HOUR)).toBe(false);
      expect(await inbox.accept(event({ receivedAt: clock }), clock - HOUR)).toEqual({ status: 'accepted', id: 2 });
      expect(await inbox.isDuplicate('github-pr', 'd-1', clock - HOUR)).toBe(true);
    });

    it('accepts issued in one tick commit together, and a delivery repeated inside that batch is a duplicate', async () => {
      const inbox = store.webhooks;
      const outcomes = await Promise.all([inbox.accept(event({ deliveryId: 'x' }), 0), inbox.accept(event({ deliveryId: 'y' }), 0), inbox.accept(event({ deliveryId: 'x' }), 0)]);
      expect(outcomes).toEqual([{ status: 'accepted', id: 1 }, { status: 'accepted', id: 2 }, { status: 'duplicate' }]);
    });

    it('a batch that cannot be written rejects every caller with a StoreError', async () => {
      await store.close();
      const results = await Promise.allSettled([store.webhooks.accept(event({ deliveryId: 'a' }), 0), store.webhooks.accept(event({ deliveryId: 'b' }), 0)]);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      expect(results.map((r) => ((r as PromiseRejectedResult).reason as Error).name)).toEqual(['StoreError', 'StoreError']);
      store = await stores.reopen({ now: () => clock, ...options });
    });

    it('never deduplicates timestamp ids', async () => {
      const inbox = store.webhooks;
      await inbox.accept(event({ deliveryId: '123', deduplicate: false }), clock - HOUR);
      expect(await inbox.isDuplicate('github-pr', '123', clock - HOUR)).toBe(false);
      expect(await inbox.accept(event({ deliveryId: '123', deduplicate: false }), clock - HOUR)).toEqual({ status: 'accepted', id: 2 });
    });

    it('prunes dedup records older than the cut-off and keeps newer ones', async () => {
      const inbox = store.webhooks;
      await inbox.accept(event({ deliveryId: 'old' }), clock - HOUR);
      clock += 10;
      await inbox.accept(event({ deliveryId: 'new', receivedAt: clock }), clock - HOUR);
      expect(await inbox.pruneDedup(clock)).toBe(1);
      expect(await inbox.isDuplicate('github-pr', 'old', 0)).toBe(false);
      expect(await inbox.isDuplicate('github-pr', 'new', 0)).toBe(true);
      // Pruning never touches the events themselves.
      expect(await inbox.list()).toHaveLength(2);
    });
  });

  describe('runs and deliveries', () => {
    it('walks accepted → running → done → delivered, keeping the output', async () => {
      const inbox = store.webhooks;
      await inbox.accept(event(), 0);
      const claimed = await inbox.claimNextRun(3);
      expect(claimed).toMatchObject({ id: 1, state: 'running', runAttempts: 1 });
      expect(await inbox.claimNextRun(3)).toBeUndefined();
      await inbox.setSession(1, 'sess-1');
      await inbox.finishRun(1, 'LGTM');
      expect(await inbox.pendingDeliveries()).toMatchObject([{ id: 1, state: 'done', output: 'LGTM', sessionId: 'sess-1' }]);
      await inbox.markDelivered(1, 2);
      expect(await inbox.get(1)).toMatchObject({ state: 'delivered', deliveryAttempts: 2, output: 'LGTM', error: null });
      expect(await inbox.pendingDeliveries()).toEqual([]);
    });

    it('hands out the oldest accepted event first', async () => {
      const inbox = store.webhooks;
      await inbox.accept(event({ deliveryId: 'a' }), 0);
      await inbox.accept(event({ deliveryId: 'b' }), 0);
      expect((await inbox.claimNextRun(3))?.deliveryId).toBe('a');
      expect((await inbox.claimNextRun(3))?.deliveryId).toBe('b');
    });

    it('puts interrupted runs back, counts the attempts, and fails a poison event', async () => {
      const inbox = store.webhooks;
      await inbox.accept(event(), 0);
      for (let attempt = 1; attempt <= 2; attempt++) {
        expect((await inbox.claimNextRun(2))?.runAttempts).toBe(attempt);
        expect(await inbox.recoverInterrupted()).toBe(1);
      }
      expect(await inbox.claimNextRun(2)).toBeUndefined();
      expect(await inbox.get(1)).toMatchObject({ state: 'failed', error: 'gave up after 2 interrupted runs' });
    });

    it('releases a run on shutdown without counting it', async () => {
      const inbox = store.webhooks;
      await inbox.accept(event(), 0);
      await inbox.claimNextRun(3);
      await inbox.releaseRun(1);
      expect(await inbox.get(1)).toMatchObject({ state: 'accepted', runAttempts: 0 });
    });

    it('records a failed run and a failed delivery with their reasons', async () => {
      const inbox = store.webhooks;
      await inbox.accept(event({ deliveryId: 'a' }), 0);
      await inbox.accept(event({ deliveryId: 'b' }), 0);
      await inbox.claimNextRun(3);
      await inbox.fail(1, 'no main model is configured');
      await inbox.claimNextRun(3);
      await inbox.finishRun(2, 'answer');
      await inbox.markDeliveryFailed(2, 4, 'gh is not authenticated');
      expect(await inbox.get(1)).toMatchObject({ state: 'failed', error: 'no main model is configured', output: null });
      expect(await inbox.get(2)).toMatchObject({ state: 'failed', error: 'gh is not authenticated', output: 'answer', deliveryAttempts: 4 });
    });

    it('prunes delivered and failed events older than the cut-off, never unfinished ones', async () => {
      const inbox = store.webhooks;
      for (const id of ['delivered', 'failed', 'waiting', 'recent']) await inbox.accept(event({ deliveryId: id }), 0);
      await inbox.claimNextRun(3);
      await inbox.finishRun(1, 'ok');
      await inbox.markDelivered(1, 1);
      await inbox.fail(2, 'broken');
      clock += 1000;
      await inbox.fail(4, 'later');
      expect(await inbox.pruneFinished(clock - 500)).toBe(2);
      expect((await inbox.list()).map((e) => e.deliveryId)).toEqual(['recent', 'waiting']);
    });

    it('counts the events still on their way by state (the metrics inbox depth), delivering apart from done', async () => {
      const inbox = store.webhooks;
      expect(await inbox.depth()).toEqual({ accepted: 0, running: 0, done: 0, delivering: 0 });
      for (const id of ['1', '2', '3', '4', '5', '6']) await inbox.accept(event({ deliveryId: id }), 0);
      for (let i = 0; i < 5; i++) await inbox.claimNextRun(3);
      await inbox.finishRun(1, 'out');
      await inbox.finishRun(2, 'out');
      await inbox.finishRun(3, 'out');
      await inbox.markDelivering(2);
      await inbox.markDelivering(3);
      await inbox.markDelivered(3, 1);
      await inbox.fail(4, 'broken');
      expect(await inbox.depth()).toEqual({ accepted: 1, running: 1, done: 1, delivering: 1 });
    });

    it('lists by route, newest first, with a limit', async () => {
      const inbox = store.webhooks;
      for (const [route, id] of [['a', '1'], ['b', '2'], ['a', '3']] as const) await inbox.accept(event({ route, deliveryId: id }), 0);
      expect((await inbox.list({ route: 'a' })).map((e) => e.deliveryId)).toEqual(['3', '1']);
      expect((await inbox.list({ limit: 1 })).map((e) => e.deliveryId)).toEqual(['3']);
    });

    it('keeps accepted events across a reopen (the store is the inbox)', async () => {
      await store.webhooks.accept(event(), 0);
      await store.close();
      store = await stores.reopen();
      expect(await store.webhooks.claimNextRun(3)).toMatchObject({ id: 1, payload: '{"action":"opened"}' });
    });
  });
});
