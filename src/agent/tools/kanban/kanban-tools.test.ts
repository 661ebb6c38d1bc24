// The kanban tools against a real board (SQLite in a temporary folder).
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../store/sqlite-store.js';
import type { Store } from '../../../store/types.js';
import { makeContext, makeTempDirs, type TempDirs } from '../test-support.js';
import type { ToolContext } from '../types.js';
import { kanbanAddTool, kanbanListTool, kanbanUpdateTool } from './kanban-tools.js';

let dirs: TempDirs;
let store: Store;
let context: ToolContext;
beforeEach(async () => {
  dirs = await makeTempDirs();
  store = await openSqliteStore(join(dirs.base, 'state.db'));
  context = { ...makeContext(dirs), kanban: store.kanban };
});
afterEach(async () => {
  await store.close();
  await dirs.cleanup();
});

describe('kanban tools', () => {
  it('add puts a task in triage; list shows it; update changes status, title and body', async () => {
    expect(await kanbanAddTool.run({ title: 'write docs' }, context)).toEqual({ ok: true, content: 'added #1 [triage] write docs' });
    expect(await kanbanListTool.run({}, context)).toEqual({ ok: true, content: '#1 [triage] write docs' });
    expect(await kanbanUpdateTool.run({ id: 1, status: 'doing', title: 'write the docs', body: 'all of them' }, context)).toEqual({
      ok: true,
      content: 'updated #1 [doing] write the docs\n\nall of them',
    });
    expect(await kanbanListTool.run({ status: 'triage' }, context)).toEqual({ ok: true, content: 'no tasks in triage' });
    expect(await store.kanban.get(1)).toMatchObject({ status: 'doing', title: 'write the docs', body: 'all of them' });
  });

  it('refuse an unknown status, an empty title, an empty update and a missing task, changing nothing', async () => {
    await kanbanAddTool.run({ title: 'a' }, context);
    const before = await store.kanban.list();
    const status = await kanbanUpdateTool.run({ id: 1, status: 'later' }, context);
    expect(status.ok).toBe(false);
    expect(status.content).toMatch(/^invalid arguments for kanban_update: status/);
    expect((await kanbanAddTool.run({ title: '   ' }, context)).content).toBe('invalid arguments for kanban_add: title must not be empty');
    expect(await kanbanUpdateTool.run({ id: 1 }, context)).toEqual({ ok: false, content: 'kanban_update needs at least one of status, title, body' });
    expect(await kanbanUpdateTool.run({ id: 9, status: 'done' }, context)).toEqual({ ok: false, content: 'no kanban task #9 (kanban_list shows the tasks)' });
    expect(await store.kanban.list()).toEqual(before);
  });

  it('say so when there is no board', async () => {
    expect(await kanbanListTool.run({}, makeContext(dirs))).toEqual({ ok: false, content: 'the kanban board is not available here (no store)' });
  });
});
