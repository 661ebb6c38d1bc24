// Skill loads and their usage summary, on both stores (SQLite and PostgreSQL).
import { beforeEach, describe, expect, it } from 'vitest';
import { STORE_BACKENDS, useStores } from '../../test/helpers/store-backends.js';
import type { Store } from './types.js';

describe.each(STORE_BACKENDS)('$name', (backend) => {
const stores = useStores(backend);
let store: Store;
beforeEach(async () => {
  store = await stores.open();
});

describe('skill loads', () => {
  it('sum up per skill since a time: count and last load, most loaded first, then by name', async () => {
    const session = await store.createSession({ source: 'cli', provider: 'p', model: 'm' });
    await store.skillLoads.record('deploy', session.id, 1_000);
    await store.skillLoads.record('deploy', session.id, 5_000);
    await store.skillLoads.record('deploy', null, 3_000);
    await store.skillLoads.record('review', null, 4_000);
    await store.skillLoads.record('audit', null, 4_500);
    await store.skillLoads.record('old', null, 500);
    expect(await store.skillLoads.usageSince(1_000)).toEqual([
      { skill: 'deploy', loads: 3, lastLoadAt: 5_000 },
      { skill: 'audit', loads: 1, lastLoadAt: 4_500 },
      { skill: 'review', loads: 1, lastLoadAt: 4_000 },
    ]);
    expect(await store.skillLoads.usageSince(4_200)).toEqual([
      { skill: 'audit', loads: 1, lastLoadAt: 4_500 },
      { skill: 'deploy', loads: 1, lastLoadAt: 5_000 },
    ]);
    expect(await store.skillLoads.usageSince(10_000)).toEqual([]);
  });

  it('survive the deletion of their session', async () => {
    const session = await store.createSession({ source: 'cli', provider: 'p', model: 'm' });
    await store.skillLoads.record('deploy', session.id, 1_000);
    expect(await store.deleteSessions([session.id])).toEqual([session.id]);
    expect(await store.skillLoads.usageSince(0)).toEqual([{ skill: 'deploy', loads: 1, lastLoadAt: 1_000 }]);
  });

  it('refuse an empty name or a time that is not epoch milliseconds', async () => {
    await expect(store.skillLoads.record('', null, 1)).rejects.toMatchObject({ code: 'invalid' });
    await expect(store.skillLoads.record('deploy', null, 1.5)).rejects.toMatchObject({ code: 'invalid' });
  });
});
});
