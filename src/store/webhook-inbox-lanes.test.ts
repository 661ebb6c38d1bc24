// The inbox's lanes (one PR's events run one at a time, in order), coalesced pushes, skipped events
// and how the answer of a PR route is to be delivered, on every store with a fake clock.
import { beforeEach, describe, expect, it } from 'vitest';
import { INBOX_STORE_VARIANTS } from '../../test/helpers/inbox-store-variants.js';
import { useStores } from '../../test/helpers/store-backends.js';
import type { NewWebhookEvent, WebhookInbox } from './webhook-types.js';

const LANE = 'reviews|github:octo/widgets#12';
const OTHER_LANE = 'reviews|github:octo/widgets#13';

describe.each(INBOX_STORE_VARIANTS)('$name', ({ backend, options }) => {
  const stores = useStores(backend);
  let inbox: WebhookInbox;
  let clock = 1_000_000;
  let delivery = 0;
  beforeEach(async () => {
    clock = 1_000_000;
    delivery = 0;
    inbox = (await stores.open({ now: () => clock, ...options })).webhooks;
  });

  async function accept(overrides: Partial<NewWebhookEvent> = {}): Promise<number> {
    delivery += 1;
    const outcome = await inbox.accept(
      {
        route: 'reviews',
        deliveryId: `d-${delivery}`,
        deduplicate: true,
        event: 'pull_request',
        payload: '{}',
        routeSnapshot: '{}',
        receivedAt: clock,
        ...overrides,
      },
      0,
    );
    expect(outcome.status).toBe('accepted');
    return outcome.status === 'accepted' ? outcome.id : -1;
  }

  const claimedId = async () => (await inbox.claimNextRun(3))?.id;

  describe('one lane', () => {
    it('holds the second event while the first is accepted, running, done or delivering; frees it once delivered', async () => {
      const first = await accept({ lane: LANE });
      const second = await accept({ lane: LANE });
      expect(await inbox.get(second)).toMatchObject({ lane: LANE, runAfter: null, state: 'accepted' });
      expect(await claimedId()).toBe(first);
      // running
      expect(await claimedId()).toBeUndefined();
      await inbox.finishRun(first, 'review', 'summary');
      // done, not delivered
      expect(await claimedId()).toBeUndefined();
      await inbox.markDelivering(first);
      expect(await claimedId()).toBeUndefined();
      await inbox.markDelivered(first, 1);
      expect(await claimedId()).toBe(second);
    });

    it('holds the second event behind an accepted first one that was released', async () => {
      const first = await accept({ lane: LANE });
      const second = await accept({ lane: LANE });
      expect(await claimedId()).toBe(first);
      await inbox.releaseRun(first);
      expect(await claimedId()).toBe(first);
      await inbox.fail(first, 'broken');
      // A failed event no longer holds its lane.
      expect(await claimedId()).toBe(second);
    });

    it('frees the lane when the first event is skipped', async () => {
      const first = await accept({ lane: LANE });
      const second = await accept({ lane: LANE });
      expect(await claimedId()).toBe(first);
      await inbox.skip(first, 'paused');
      expect(await claimedId()).toBe(second);
    });

    it('runs events of different lanes, and events without a lane, side by side', async () => {
      const a1 = await accept({ lane: LANE });
      const b1 = await accept({ lane: OTHER_LANE });
      const a2 = await accept({ lane: LANE });
      const plain = await accept();
      const b2 = await accept({ lane: OTHER_LANE });
      expect(await claimedId()).toBe(a1);
      expect(await claimedId()).toBe(b1);
      expect(await claimedId()).toBe(plain);
      expect(await claimedId()).toBeUndefined();
      await inbox.finishRun(b1, 'x');
      await inbox.markDelivered(b1, 1);
      expect(await claimedId()).toBe(b2);
      expect((await inbox.get(a2))?.state).toBe('accepted');
    });
  });

  describe('runAfter and coalesced pushes', () => {
    it('a push waits until its runAfter; nextRunAfter names it', async () => {
      const push = await accept({ lane: LANE, runAfter: clock + 30_000 });
      expect(await claimedId()).toBeUndefined();
      expect(await inbox.nextRunAfter(clock)).toBe(1_030_000);
      expect(await inbox.nextRunAfter(1_030_000)).toBeUndefined();
      clock += 29_999;
      expect(await claimedId()).toBeUndefined();
      clock += 1;
      expect(await claimedId()).toBe(push);
      expect(await inbox.nextRunAfter(0)).toBeUndefined();
    });

    it('nextRunAfter returns the earliest wait still ahead', async () => {
      await accept({ lane: LANE, runAfter: clock + 50_000 });
      await accept({ lane: OTHER_LANE, runAfter: clock + 20_000 });
      expect(await inbox.nextRunAfter(clock)).toBe(1_020_000);
      expect(await inbox.nextRunAfter(1_020_000)).toBe(1_050_000);
    });

    it('a waiting push holds the events behind it in its lane, not other lanes', async () => {
      await accept({ lane: LANE, runAfter: clock + 30_000 });
      await accept({ lane: LANE, event: 'issue_comment' });
      const other = await accept({ lane: OTHER_LANE });
      expect(await claimedId()).toBe(other);
      expect(await claimedId()).toBeUndefined();
    });

    it('three pushes: only the newest runs, the older two are skipped as superseded', async () => {
      const p1 = await accept({ lane: LANE, runAfter: clock + 30_000 });
      clock += 5_000;
      const p2 = await accept({ lane: LANE, runAfter: clock + 30_000 });
      clock += 5_000;
      const p3 = await accept({ lane: LANE, runAfter: clock + 30_000 });
      clock += 30_000;
      expect(await claimedId()).toBe(p3);
      expect(await inbox.get(p1)).toMatchObject({ state: 'skipped', skipReason: `superseded by a newer push (event ${p3})`, output: null });
      expect(await inbox.get(p2)).toMatchObject({ state: 'skipped', skipReason: `superseded by a newer push (event ${p3})` });
      expect(await inbox.get(p3)).toMatchObject({ state: 'running', skipReason: null, runAttempts: 1 });
    });

    it('a push whose wait is over is skipped as soon as a newer push is waiting', async () => {
      const p1 = await accept({ lane: LANE, runAfter: clock + 30_000 });
      clock += 20_000;
      const p2 = await accept({ lane: LANE, runAfter: clock + 30_000 });
      clock += 10_000;
      expect(await claimedId()).toBeUndefined();
      expect(await inbox.get(p1)).toMatchObject({ state: 'skipped', skipReason: `superseded by a newer push (event ${p2})` });
      expect(await inbox.nextRunAfter(clock)).toBe(1_050_000);
      clock = 1_050_000;
      expect(await claimedId()).toBe(p2);
    });

    it('a comment between pushes keeps its place: it runs before the newest push', async () => {
      const p1 = await accept({ lane: LANE, runAfter: clock + 30_000 });
      const comment = await accept({ lane: LANE, event: 'issue_comment' });
      const p3 = await accept({ lane: LANE, runAfter: clock + 30_000 });
      // The comment waits behind the push's window.
      expect(await claimedId()).toBeUndefined();
      clock += 30_000;
      expect(await claimedId()).toBe(comment);
      expect(await inbox.get(p1)).toMatchObject({ state: 'skipped', skipReason: `superseded by a newer push (event ${p3})` });
      expect(await claimedId()).toBeUndefined();
      await inbox.finishRun(comment, 'answer', 'reply');
      await inbox.markDelivered(comment, 1);
      expect(await claimedId()).toBe(p3);
    });

    it('a push in another lane does not supersede', async () => {
      const p1 = await accept({ lane: LANE, runAfter: clock + 1 });
      const p2 = await accept({ lane: OTHER_LANE, runAfter: clock + 1 });
      clock += 1;
      expect(await claimedId()).toBe(p1);
      expect(await claimedId()).toBe(p2);
    });
  });

  describe('skip, deliverAs and pruning', () => {
    it('skip() ends an event as skipped with its reason; pruneFinished deletes it', async () => {
      const id = await accept({ lane: LANE });
      await inbox.claimNextRun(3);
      clock += 10;
      await inbox.skip(id, 'automatic reviews are paused');
      expect(await inbox.get(id)).toMatchObject({ state: 'skipped', skipReason: 'automatic reviews are paused', output: null, updatedAt: 1_000_010 });
      expect(await inbox.pendingDeliveries()).toEqual([]);
      expect(await inbox.depth()).toEqual({ accepted: 0, running: 0, done: 0, delivering: 0 });
      expect(await inbox.pruneFinished(1_000_010)).toBe(0);
      expect(await inbox.pruneFinished(1_000_011)).toBe(1);
      expect(await inbox.get(id)).toBeUndefined();
    });

    it('skip() leaves a finished event alone', async () => {
      const id = await accept();
      await inbox.claimNextRun(3);
      await inbox.finishRun(id, 'out');
      await inbox.skip(id, 'late');
      expect(await inbox.get(id)).toMatchObject({ state: 'done', skipReason: null, output: 'out' });
    });

    it('finishRun stores deliverAs, and null without it', async () => {
      const a = await accept({ lane: LANE });
      const b = await accept({ lane: OTHER_LANE });
      const c = await accept();
      for (let i = 0; i < 3; i++) await inbox.claimNextRun(3);
      await inbox.finishRun(a, 'review', 'summary');
      await inbox.finishRun(b, 'answer', 'reply');
      await inbox.finishRun(c, 'plain');
      expect((await inbox.pendingDeliveries()).map((e) => [e.id, e.output, e.deliverAs])).toEqual([
        [a, 'review', 'summary'],
        [b, 'answer', 'reply'],
        [c, 'plain', null],
      ]);
    });

    it('events without a lane keep their old behaviour: no lane, no wait, claimed in order', async () => {
      const a = await accept();
      const b = await accept();
      expect(await inbox.get(a)).toMatchObject({ lane: null, runAfter: null, skipReason: null, deliverAs: null });
      expect(await claimedId()).toBe(a);
      expect(await claimedId()).toBe(b);
      expect(await inbox.nextRunAfter(0)).toBeUndefined();
    });
  });
});
