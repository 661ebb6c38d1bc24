// PR threads on both stores (SQLite and PostgreSQL): created on the first patch with defaults,
// patched field by field, booleans and nulls round-tripped, the time from the store's clock.
import { beforeEach, describe, expect, it } from 'vitest';
import { STORE_BACKENDS, useStores } from '../../test/helpers/store-backends.js';
import type { Store } from './types.js';

const KEY = 'github:octo/widgets#12';

describe.each(STORE_BACKENDS)('store.prThreads ($name)', (backend) => {
  const stores = useStores(backend);
  let store: Store;
  let clock = 5_000;
  beforeEach(async () => {
    clock = 5_000;
    store = await stores.open({ now: () => clock });
  });

  it('get of a missing thread is undefined', async () => {
    expect(await store.prThreads.get('reviews', KEY)).toBeUndefined();
  });

  it('update creates the thread with defaults and the given fields', async () => {
    const created = await store.prThreads.update('reviews', KEY, { sessionId: 'sess-1' });
    const expected = { route: 'reviews', prKey: KEY, sessionId: 'sess-1', reviewedSha: null, summaryCommentId: null, paused: false, refusalSent: false, updatedAt: 5_000 };
    expect(created).toEqual(expected);
    expect(await store.prThreads.get('reviews', KEY)).toEqual(expected);
  });

  it('an empty patch creates the row with defaults only', async () => {
    expect(await store.prThreads.update('reviews', KEY, {})).toEqual({
      route: 'reviews',
      prKey: KEY,
      sessionId: null,
      reviewedSha: null,
      summaryCommentId: null,
      paused: false,
      refusalSent: false,
      updatedAt: 5_000,
    });
  });

  it('a partial patch keeps the other fields and moves updatedAt', async () => {
    await store.prThreads.update('reviews', KEY, { sessionId: 'sess-1', reviewedSha: 'abc', summaryCommentId: '99', paused: true, refusalSent: true });
    clock = 6_000;
    expect(await store.prThreads.update('reviews', KEY, { reviewedSha: 'def' })).toEqual({
      route: 'reviews',
      prKey: KEY,
      sessionId: 'sess-1',
      reviewedSha: 'def',
      summaryCommentId: '99',
      paused: true,
      refusalSent: true,
      updatedAt: 6_000,
    });
  });

  it('booleans round-trip both ways', async () => {
    expect((await store.prThreads.update('reviews', KEY, { paused: true })).paused).toBe(true);
    expect((await store.prThreads.get('reviews', KEY))?.paused).toBe(true);
    expect((await store.prThreads.update('reviews', KEY, { paused: false })).paused).toBe(false);
    expect((await store.prThreads.get('reviews', KEY))?.paused).toBe(false);
    expect((await store.prThreads.update('reviews', KEY, { refusalSent: true })).refusalSent).toBe(true);
    expect((await store.prThreads.update('reviews', KEY, { refusalSent: false })).refusalSent).toBe(false);
  });

  it('null clears a field, undefined leaves it', async () => {
    await store.prThreads.update('reviews', KEY, { summaryCommentId: '99', reviewedSha: 'abc' });
    expect(await store.prThreads.update('reviews', KEY, { summaryCommentId: null, reviewedSha: undefined })).toMatchObject({ summaryCommentId: null, reviewedSha: 'abc' });
  });

  it('threads of other routes and PRs are apart', async () => {
    await store.prThreads.update('reviews', KEY, { paused: true });
    await store.prThreads.update('other', KEY, { sessionId: 'o' });
    await store.prThreads.update('reviews', 'github:octo/widgets#13', { sessionId: 'p' });
    expect(await store.prThreads.get('reviews', KEY)).toMatchObject({ paused: true, sessionId: null });
    expect(await store.prThreads.get('other', KEY)).toMatchObject({ paused: false, sessionId: 'o' });
    expect(await store.prThreads.get('reviews', 'github:octo/widgets#13')).toMatchObject({ paused: false, sessionId: 'p' });
  });

  it('survives a reopen', async () => {
    await store.prThreads.update('reviews', KEY, { reviewedSha: 'abc', paused: true });
    await store.close();
    store = await stores.reopen({ now: () => clock });
    expect(await store.prThreads.get('reviews', KEY)).toMatchObject({ reviewedSha: 'abc', paused: true, updatedAt: 5_000 });
  });

  it('prune forgets threads untouched since the cut-off, except paused ones', async () => {
    await store.prThreads.update('reviews', 'github:o/r#1', { sessionId: 's1' });
    await store.prThreads.update('reviews', 'github:o/r#2', { paused: true });
    clock = 9_000;
    await store.prThreads.update('reviews', 'github:o/r#3', { sessionId: 's3' });
    expect(await store.prThreads.prune(8_000)).toBe(1);
    expect(await store.prThreads.get('reviews', 'github:o/r#1')).toBeUndefined();
    expect((await store.prThreads.get('reviews', 'github:o/r#2'))?.paused).toBe(true);
    expect((await store.prThreads.get('reviews', 'github:o/r#3'))?.sessionId).toBe('s3');
    expect(await store.prThreads.prune(8_000)).toBe(0);
  });
});
