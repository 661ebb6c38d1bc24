// The kanban board on SQLite. Every write is one statement or one IMMEDIATE transaction, so a
// decomposition is either wholly on the board or not at all.
import type BetterSqlite3 from 'better-sqlite3';
import { StoreError } from './errors.js';
import type { KanbanBoard, KanbanChild, KanbanPatch, KanbanStatus, KanbanTask, NewKanbanTask } from './kanban-types.js';

type Db = BetterSqlite3.Database;

/** A row of kanban_tasks (shared with pg/pg-kanban-board.ts). */
export type TaskRow = {
  id: number;
  title: string;
  body: string;
  status: string;
  parent_id: number | null;
  created_at: number;
  updated_at: number;
};

export function toTask(row: TaskRow): KanbanTask {
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    // The column's CHECK allows only the five statuses.
    status: row.status as KanbanStatus,
    parentId: row.parent_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function createSqliteKanbanBoard(db: Db, now: () => number, guarded: <T>(work: () => T) => Promise<T>, path: string): KanbanBoard {
  const statements = {
    insert: db.prepare<[string, string, string, number | null, number, number]>(
      'INSERT INTO kanban_tasks (title, body, status, parent_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    get: db.prepare<[number], TaskRow>('SELECT * FROM kanban_tasks WHERE id = ?'),
    all: db.prepare<[], TaskRow>('SELECT * FROM kanban_tasks ORDER BY id'),
    byStatus: db.prepare<[string], TaskRow>('SELECT * FROM kanban_tasks WHERE status = ? ORDER BY id'),
    byParent: db.prepare<[number], TaskRow>('SELECT * FROM kanban_tasks WHERE parent_id = ? ORDER BY id'),
  };

  const requireTitle = (title: string): void => {
    if (title.trim() === '') throw new StoreError('invalid', `${path}: a kanban task needs a title`);
  };

  const insertOne = (task: NewKanbanTask, at: number): TaskRow => {
    requireTitle(task.title);
    const parentId = task.parentId ?? null;
    if (parentId !== null && !statements.get.get(parentId)) throw new StoreError('not_found', `${path}: no kanban task ${parentId}`);
    const info = statements.insert.run(task.title, task.body ?? '', task.status ?? 'triage', parentId, at, at);
    return statements.get.get(Number(info.lastInsertRowid))!;
  };

  const update = db.transaction((id: number, patch: KanbanPatch): TaskRow | undefined => {
    const columns = { title: 'title', body: 'body', status: 'status' } as const;
    const keys = (Object.keys(columns) as (keyof typeof columns)[]).filter((key) => patch[key] !== undefined);
    if (patch.title !== undefined) requireTitle(patch.title);
    if (keys.length > 0) {
      const assignments = keys.map((key) => `${columns[key]} = @${key}`).join(', ');
      const values = Object.fromEntries(keys.map((key) => [key, patch[key]]));
      db.prepare(`UPDATE kanban_tasks SET ${assignments}, updated_at = @updatedAt WHERE id = @id`).run({ ...values, updatedAt: now(), id });
    }
    return statements.get.get(id);
  });

  const createChildren = db.transaction((parentId: number, children: readonly KanbanChild[]): TaskRow[] => {
    if (!statements.get.get(parentId)) throw new StoreError('not_found', `${path}: no kanban task ${parentId}`);
    const at = now();
    return children.map((child) => insertOne({ title: child.title, body: child.body, status: 'todo', parentId }, at));
  });

  const create = db.transaction((task: NewKanbanTask): TaskRow => insertOne(task, now()));

  return {
    create: (task) => guarded(() => toTask(create.immediate(task))),
    get: (id) =>
      guarded(() => {
        const row = statements.get.get(id);
        return row && toTask(row);
      }),
    list: (query = {}) =>
      guarded(() => {
        const rows =
          query.parentId !== undefined ? statements.byParent.all(query.parentId) : query.status !== undefined ? statements.byStatus.all(query.status) : statements.all.all();
        return rows.filter((row) => query.status === undefined || row.status === query.status).map(toTask);
      }),
    move: (id, status) =>
      guarded(() => {
        const row = update.immediate(id, { status });
        return row && toTask(row);
      }),
    update: (id, patch) =>
      guarded(() => {
        const row = update.immediate(id, patch);
        return row && toTask(row);
      }),
    createChildren: (parentId, children) => guarded(() => createChildren.immediate(parentId, children).map(toTask)),
  };
}
