import { describe, expect, it } from 'vitest';
import type { KanbanTask } from '../store/kanban-types.js';
import { boardJson, cardJson, taskJson } from './task-json.js';

const AT = Date.parse('2026-11-20T10:00:00.000Z');
const task = (id: number, parentId: number | null, status: KanbanTask['status'] = 'todo'): KanbanTask => ({
  id,
  title: `t${id}`,
  body: '',
  status,
  parentId,
  createdAt: AT + id,
  updatedAt: AT + id * 10,
});

describe('taskJson', () => {
  it('snake_case keys and ISO times, as `iris kanban show --json`', () => {
    expect(taskJson(task(2, 1))).toEqual({
      id: 2,
      title: 't2',
      body: '',
      status: 'todo',
      parent_id: 1,
      created_at: '2026-11-20T10:00:00.002Z',
      updated_at: '2026-11-20T10:00:00.020Z',
    });
  });
});

describe('boardJson', () => {
  it('flat and oldest first, each task with its children ids; the column order', () => {
    const board = boardJson([task(3, 1), task(1, null, 'doing'), task(4, 3), task(2, 1)]);
    expect(board.statuses).toEqual(['triage', 'todo', 'doing', 'done', 'blocked']);
    expect(board.tasks.map((t) => [t.id, t.parent_id, t.children])).toEqual([
      [1, null, [2, 3]],
      [2, 1, []],
      [3, 1, [4]],
      [4, 3, []],
    ]);
  });
  it('an empty board', () => {
    expect(boardJson([])).toEqual({ statuses: ['triage', 'todo', 'doing', 'done', 'blocked'], tasks: [] });
  });
});

describe('cardJson', () => {
  it('the task with its parent and children in full', () => {
    expect(cardJson(task(2, 1), task(1, null), [task(5, 2)])).toEqual({ ...taskJson(task(2, 1)), parent: taskJson(task(1, null)), children: [taskJson(task(5, 2))] });
    expect(cardJson(task(1, null), undefined, [])).toMatchObject({ parent: null, children: [] });
  });
});
