// The kanban board on both stores (SQLite and PostgreSQL): create/get/list/move/update, and
// createChildren as one transaction (all children or none).
import { beforeEach, describe, expect, it } from 'vitest';
import { STORE_BACKENDS, useStores } from '../../test/helpers/store-backends.js';
import type { Store } from './types.js';

describe.each(STORE_BACKENDS)('$name', (backend) => {
const stores = useStores(backend);
let store: Store;
let clock = 1_000;
beforeEach(async () => {
  clock = 1_000;
  store = await stores.open({ now: () => clock });
});

describe('store.kanban', () => {
  it('creates a task in triage with an empty body, and reads it back', async () => {
    const task = await store.kanban.create({ title: 'add dark mode' });
    expect(task).toEqual({ id: 1, title: 'add dark mode', body: '', status: 'triage', parentId: null, createdAt: 1_000, updatedAt: 1_000 });
    expect(await store.kanban.get(1)).toEqual(task);
    expect(await store.kanban.get(2)).toBeUndefined();
  });

  it('refuses an empty title', async () => {
    await expect(store.kanban.create({ title: '  ' })).rejects.toMatchObject({ code: 'invalid' });
    expect(await store.kanban.list()).toEqual([]);
  });

  it('lists oldest first, narrowed by status', async () => {
    await store.kanban.create({ title: 'a' });
    await store.kanban.create({ title: 'b', status: 'todo' });
    await store.kanban.create({ title: 'c' });
    expect((await store.kanban.list()).map((t) => t.title)).toEqual(['a', 'b', 'c']);
    expect((await store.kanban.list({ status: 'triage' })).map((t) => t.title)).toEqual(['a', 'c']);
    expect((await store.kanban.list({ status: 'done' }))).toEqual([]);
  });

  it('moves and updates, stamping updatedAt; a missing task is undefined', async () => {
    await store.kanban.create({ title: 'a' });
    clock = 2_000;
    expect(await store.kanban.move(1, 'doing')).toMatchObject({ status: 'doing', updatedAt: 2_000, createdAt: 1_000 });
    clock = 3_000;
    expect(await store.kanban.update(1, { title: 'b', body: '# b' })).toMatchObject({ title: 'b', body: '# b', status: 'doing', updatedAt: 3_000 });
    expect(await store.kanban.move(9, 'done')).toBeUndefined();
    await expect(store.kanban.update(1, { title: '' })).rejects.toMatchObject({ code: 'invalid' });
  });

  it('refuses a status outside the five at the database too', async () => {
    await store.kanban.create({ title: 'a' });
    await expect(store.kanban.move(1, 'later' as never)).rejects.toThrow();
    expect((await store.kanban.get(1))?.status).toBe('triage');
  });

  it('creates children in todo under their parent', async () => {
    const parent = await store.kanban.create({ title: 'parent' });
    const children = await store.kanban.createChildren(parent.id, [
      { title: 'one', body: 'first' },
      { title: 'two', body: 'second' },
    ]);
    expect(children.map((c) => [c.title, c.body, c.status, c.parentId])).toEqual([
      ['one', 'first', 'todo', parent.id],
      ['two', 'second', 'todo', parent.id],
    ]);
    expect((await store.kanban.list({ parentId: parent.id })).map((c) => c.id)).toEqual(children.map((c) => c.id));
  });

  it('creates no child at all when one of them cannot be stored', async () => {
    const parent = await store.kanban.create({ title: 'parent' });
    await expect(store.kanban.createChildren(parent.id, [{ title: 'one', body: '' }, { title: '', body: '' }])).rejects.toMatchObject({ code: 'invalid' });
    expect(await store.kanban.list()).toEqual([parent]);
  });

  it('creates nothing under a missing parent', async () => {
    await expect(store.kanban.createChildren(7, [{ title: 'one', body: '' }])).rejects.toMatchObject({ code: 'not_found' });
    expect(await store.kanban.list()).toEqual([]);
  });
});
});
