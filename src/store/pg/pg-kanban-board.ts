// The kanban board on PostgreSQL, with the rules of kanban-board.ts: every write is one statement
// or one transaction, so a decomposition is either wholly on the board or not at all.
import { StoreError } from '../errors.js';
import { toTask, type TaskRow } from '../kanban-board.js';
import type { KanbanBoard, KanbanPatch, NewKanbanTask } from '../kanban-types.js';
import type { PgContext } from './pg-context.js';
import { named } from './pg-named.js';
import { inTransaction, type Queryable } from './pg-pool.js';

const GET = 'SELECT * FROM kanban_tasks WHERE id = $1';

/** Patchable field → column: the one list the UPDATE is built from. */
const COLUMNS = { title: 'title', body: 'body', status: 'status' } as const satisfies Record<keyof KanbanPatch, string>;

export function createPgKanbanBoard(ctx: PgContext): KanbanBoard {
  const { pool, guarded, now, where } = ctx;

  const requireTitle = (title: string): void => {
    if (title.trim() === '') throw new StoreError('invalid', `${where}: a kanban task needs a title`);
  };
  const requireParent = async (db: Queryable, parentId: number): Promise<void> => {
    if ((await db.query(GET, [parentId])).rows.length === 0) throw new StoreError('not_found', `${where}: no kanban task ${parentId}`);
  };
  const insertOne = async (db: Queryable, task: NewKanbanTask, at: number): Promise<TaskRow> => {
    const result = await db.query<TaskRow>(
      'INSERT INTO kanban_tasks (title, body, status, parent_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5) RETURNING *',
      [task.title, task.body ?? '', task.status ?? 'triage', task.parentId ?? null, at],
    );
    return result.rows[0]!;
  };

  const update = (id: number, patch: KanbanPatch) =>
    guarded(async () => {
      if (patch.title !== undefined) requireTitle(patch.title);
      const keys = (Object.keys(COLUMNS) as (keyof typeof COLUMNS)[]).filter((key) => patch[key] !== undefined);
      if (keys.length === 0) {
        const row = (await pool.query<TaskRow>(GET, [id])).rows[0];
        return row && toTask(row);
      }
      const assignments = keys.map((key) => `${COLUMNS[key]} = @${key}`).join(', ');
      const values = Object.fromEntries(keys.map((key) => [key, patch[key]]));
      const query = named(`UPDATE kanban_tasks SET ${assignments}, updated_at = @updatedAt WHERE id = @id RETURNING *`, { ...values, updatedAt: now(), id });
      const row = (await pool.query<TaskRow>(query.text, query.values)).rows[0];
      return row && toTask(row);
    });

  return {
    create: (task) =>
      guarded(async () => {
        requireTitle(task.title);
        const parentId = task.parentId ?? null;
        if (parentId === null) return toTask(await insertOne(pool, task, now()));
        return toTask(
          await inTransaction(pool, async (client) => {
            // The parent cannot be deleted meanwhile (ON DELETE RESTRICT), but must exist.
            await requireParent(client, parentId);
            return insertOne(client, task, now());
          }),
        );
      }),
    get: (id) =>
      guarded(async () => {
        const row = (await pool.query<TaskRow>(GET, [id])).rows[0];
        return row && toTask(row);
      }),
    list: (query = {}) =>
      guarded(async () => {
        const result =
          query.parentId !== undefined
            ? await pool.query<TaskRow>('SELECT * FROM kanban_tasks WHERE parent_id = $1 ORDER BY id', [query.parentId])
            : query.status !== undefined
              ? await pool.query<TaskRow>('SELECT * FROM kanban_tasks WHERE status = $1 ORDER BY id', [query.status])
              : await pool.query<TaskRow>('SELECT * FROM kanban_tasks ORDER BY id');
        return result.rows.filter((row) => query.status === undefined || row.status === query.status).map(toTask);
      }),
    move: (id, status) => update(id, { status }),
    update,
    createChildren: (parentId, children) =>
      guarded(async () => {
        // Every title is checked before any row is written, so a refused decomposition takes no ids.
        for (const child of children) requireTitle(child.title);
        const rows = await inTransaction(pool, async (client) => {
          await requireParent(client, parentId);
          const at = now();
          const created: TaskRow[] = [];
          for (const child of children) created.push(await insertOne(client, { title: child.title, body: child.body, status: 'todo', parentId }, at));
          return created;
        });
        return rows.map(toTask);
      }),
  };
}
