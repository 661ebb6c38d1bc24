// A kanban task as every JSON answer gives it (`iris kanban … --json` and the dashboard's
// /api/kanban): snake_case keys, times in ISO 8601 UTC (docs/cli.md). Pure.
import { KANBAN_STATUSES, type KanbanTask } from '../store/kanban-types.js';

export type TaskJson = ReturnType<typeof taskJson>;

export function taskJson(task: KanbanTask) {
  return {
    id: task.id,
    title: task.title,
    body: task.body,
    status: task.status,
    parent_id: task.parentId,
    created_at: new Date(task.createdAt).toISOString(),
    updated_at: new Date(task.updatedAt).toISOString(),
  };
}

/** The children's ids of every task that has any, oldest child first. */
function childIds(tasks: readonly KanbanTask[]): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const task of [...tasks].sort((a, b) => a.id - b.id)) {
    if (task.parentId === null) continue;
    const list = children.get(task.parentId) ?? [];
    list.push(task.id);
    children.set(task.parentId, list);
  }
  return children;
}

/**
 * The whole board, flat and oldest first; each task also lists its children's ids, so a page can
 * draw the tree without asking per card. `statuses` is the column order.
 */
export function boardJson(tasks: readonly KanbanTask[]) {
  const children = childIds(tasks);
  return {
    statuses: [...KANBAN_STATUSES],
    tasks: [...tasks].sort((a, b) => a.id - b.id).map((task) => ({ ...taskJson(task), children: children.get(task.id) ?? [] })),
  };
}

/** One card as `iris kanban show --json` gives it, with its parent and children in full. */
export function cardJson(task: KanbanTask, parent: KanbanTask | undefined, children: readonly KanbanTask[]) {
  return {
    ...taskJson(task),
    parent: parent ? taskJson(parent) : null,
    children: children.map(taskJson),
  };
}
