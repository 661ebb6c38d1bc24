// The Kanban page's calls (docs/dashboard.md § Kanban), on the one API client: each answer is
// checked against its shape here, and every failure (a slot's refusal too) comes back as a
// message to show inline.
import * as z from 'zod/mini';
import type { DashboardApi } from './api.js';
import type { Column } from './kanban-board.js';

const TaskSchema = z.object({
  id: z.number(),
  title: z.string(),
  body: z.string(),
  status: z.string(),
  parent_id: z.nullable(z.number()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type KanbanTask = z.infer<typeof TaskSchema>;

const BoardTaskSchema = z.object({ ...TaskSchema.shape, children: z.array(z.number()) });
export type BoardTask = z.infer<typeof BoardTaskSchema>;

const BoardSchema = z.object({ statuses: z.array(z.string()), tasks: z.array(BoardTaskSchema) });
export type Board = z.infer<typeof BoardSchema>;

const CardSchema = z.object({ ...TaskSchema.shape, parent: z.nullable(TaskSchema), children: z.array(TaskSchema) });
export type Card = z.infer<typeof CardSchema>;

const DecomposedSchema = z.object({ parent: TaskSchema, children: z.array(TaskSchema) });
export type Decomposed = z.infer<typeof DecomposedSchema>;

const cardPath = (id: number) => `/api/kanban/${id}`;
const jsonInit = (method: string, body: unknown): RequestInit => ({ method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

export function createKanbanApi(api: DashboardApi) {
  return {
    board: () => api.request('/api/kanban', BoardSchema),
    card: (id: number) => api.request(cardPath(id), CardSchema),
    add: (title: string, body: string) => api.request('/api/kanban', TaskSchema, jsonInit('POST', body === '' ? { title } : { title, body })),
    move: (id: number, status: Column) => api.request(cardPath(id), TaskSchema, jsonInit('PATCH', { status })),
    specify: (id: number) => api.request(`${cardPath(id)}/specify`, TaskSchema, { method: 'POST' }),
    decompose: (id: number) => api.request(`${cardPath(id)}/decompose`, DecomposedSchema, { method: 'POST' }),
  };
}

export type KanbanApi = ReturnType<typeof createKanbanApi>;
