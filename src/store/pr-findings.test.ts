// PR review findings on both stores (SQLite and PostgreSQL): recorded and replaced by fingerprint,
// a dismissal that sticks, the lookup by a host's comment or thread id, review plans by event.
import { beforeEach, describe, expect, it } from 'vitest';
import { STORE_BACKENDS, useStores } from '../../test/helpers/store-backends.js';
import type { PrFindingInput } from './pr-finding-types.js';
import type { Store } from './types.js';

const KEY = 'github:octo/widgets#12';
const input = (over: Partial<PrFindingInput> = {}): PrFindingInput => ({
  route: 'reviews',
  prKey: KEY,
  fingerprint: 'f'.repeat(64),
  path: 'src/a.ts',
  line: 12,
  lineText: 'const a = 1;',
  title: 'Off by one',
  severity: 'major',
  state: 'open',
  threadId: 'PRRT_1',
  commentId: '501',
  eventId: 7,
  ...over,
});

describe.each(STORE_BACKENDS)('store.prFindings ($name)', (backend) => {
  const stores = useStores(backend);
  let store: Store;
  let clock = 5_000;
  beforeEach(async () => {
    clock = 5_000;
    store = await stores.open({ now: () => clock });
  });

  it('records a finding and lists the PR’s findings, oldest first', async () => {
    expect(await store.prFindings.list('reviews', KEY)).toEqual([]);
    expect(await store.prFindings.record(input())).toEqual({ ...input(), createdAt: 5_000, updatedAt: 5_000 });
    clock = 6_000;
    await store.prFindings.record(input({ fingerprint: 'a'.repeat(64), line: 3, threadId: null, commentId: null }));
    await store.prFindings.record(input({ prKey: 'github:octo/widgets#13' }));
    expect((await store.prFindings.list('reviews', KEY)).map((f) => [f.fingerprint[0], f.line, f.threadId])).toEqual([
      ['f', 12, 'PRRT_1'],
      ['a', 3, null],
    ]);
  });

  it('records again over the same fingerprint (posted again after it was outdated), keeping createdAt', async () => {
    await store.prFindings.record(input());
    await store.prFindings.setState('reviews', KEY, 'f'.repeat(64), 'outdated');
    clock = 7_000;
    expect(await store.prFindings.record(input({ line: 30, commentId: '777', eventId: 9 }))).toEqual({ ...input({ line: 30, commentId: '777', eventId: 9 }), createdAt: 5_000, updatedAt: 7_000 });
  });

  it('a dismissed finding stays dismissed: neither setState nor record change it', async () => {
    await store.prFindings.record(input());
    clock = 6_000;
    expect(await store.prFindings.setState('reviews', KEY, 'f'.repeat(64), 'dismissed')).toMatchObject({ state: 'dismissed', updatedAt: 6_000 });
    clock = 7_000;
    expect(await store.prFindings.setState('reviews', KEY, 'f'.repeat(64), 'answered')).toMatchObject({ state: 'dismissed', updatedAt: 6_000 });
    expect(await store.prFindings.record(input({ commentId: '999' }))).toMatchObject({ state: 'dismissed', commentId: '501', updatedAt: 6_000 });
    expect(await store.prFindings.setState('reviews', KEY, 'unknown', 'answered')).toBeUndefined();
  });

  it('finds a finding by its comment id or its thread id, on its own PR only', async () => {
    await store.prFindings.record(input());
    expect((await store.prFindings.byHostId('reviews', KEY, '501'))?.fingerprint).toBe('f'.repeat(64));
    expect((await store.prFindings.byHostId('reviews', KEY, 'PRRT_1'))?.fingerprint).toBe('f'.repeat(64));
    expect(await store.prFindings.byHostId('reviews', 'github:octo/widgets#13', '501')).toBeUndefined();
    expect(await store.prFindings.byHostId('other', KEY, '501')).toBeUndefined();
  });

  it('keeps a review plan by event, replaced by a second save, across a reopen', async () => {
    expect(await store.prFindings.plan(7)).toBeUndefined();
    await store.prFindings.savePlan({ eventId: 7, route: 'reviews', prKey: KEY, plan: '{"a":1}' });
    await store.prFindings.savePlan({ eventId: 7, route: 'reviews', prKey: KEY, plan: '{"a":2}' });
    await store.prFindings.record(input());
    await store.close();
    store = await stores.reopen({ now: () => clock });
    expect(await store.prFindings.plan(7)).toEqual({ eventId: 7, route: 'reviews', prKey: KEY, plan: '{"a":2}' });
    expect(await store.prFindings.list('reviews', KEY)).toHaveLength(1);
  });

  it('prune forgets the findings of PRs without a thread and the plans of events gone from the inbox, only before the cut-off', async () => {
    // PR 12 keeps its thread; PR 13 has none (forgotten); PR 14 has none but changed after the cut-off.
    await store.prThreads.update('reviews', KEY, { reviewedSha: 'abc' });
    await store.prFindings.record(input());
    await store.prFindings.record(input({ prKey: 'github:octo/widgets#13' }));
    const kept = await store.webhooks.accept({ route: 'reviews', deliveryId: 'd-1', deduplicate: true, event: 'pull_request', payload: '{}', routeSnapshot: '{}', receivedAt: 5_000 }, 0);
    if (kept.status !== 'accepted') throw new Error('the event was not accepted');
    await store.prFindings.savePlan({ eventId: kept.id, route: 'reviews', prKey: KEY, plan: '{}' });
    await store.prFindings.savePlan({ eventId: kept.id + 1000, route: 'reviews', prKey: KEY, plan: '{}' });
    clock = 9_000;
    await store.prFindings.record(input({ prKey: 'github:octo/widgets#14' }));
    await store.prFindings.savePlan({ eventId: kept.id + 2000, route: 'reviews', prKey: KEY, plan: '{}' });

    expect(await store.prFindings.prune(8_000)).toBe(2);
    expect(await store.prFindings.list('reviews', KEY)).toHaveLength(1);
    expect(await store.prFindings.list('reviews', 'github:octo/widgets#13')).toEqual([]);
    expect(await store.prFindings.list('reviews', 'github:octo/widgets#14')).toHaveLength(1);
    expect(await store.prFindings.plan(kept.id)).toBeDefined();
    expect(await store.prFindings.plan(kept.id + 1000)).toBeUndefined();
    expect(await store.prFindings.plan(kept.id + 2000)).toBeDefined();
    expect(await store.prFindings.prune(8_000)).toBe(0);
  });
});
