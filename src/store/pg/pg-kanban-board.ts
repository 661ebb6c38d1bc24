// SCAFFOLD (replaced by the real module before this branch is merged).
import type { KanbanBoard } from '../kanban-types.js';
import type { PgContext } from './pg-context.js';

export function createPgKanbanBoard(_ctx: PgContext): KanbanBoard {
  return new Proxy({} as KanbanBoard, { get: (_t, name) => () => Promise.reject(new Error(`createPgKanbanBoard.${String(name)}: not built yet`)) });
}
