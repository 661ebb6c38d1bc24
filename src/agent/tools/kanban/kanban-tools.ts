// kanban_add, kanban_list, kanban_update: the agent reads and tends the board the CLI shows. They
// write only the board (never the workspace), so webhook runs get them too.
import * as z from 'zod/mini';
import { KANBAN_STATUSES, type KanbanBoard, type KanbanTask } from '../../../store/kanban-types.js';
import { defineTool } from '../define-tool.js';
import type { ToolContext, ToolResult } from '../types.js';

const TITLE_MAX = 200;
const BODY_MAX = 20_000;

const status = z.enum(KANBAN_STATUSES);
const title = z.string().check(z.trim(), z.minLength(1), z.maxLength(TITLE_MAX));
const body = z.string().check(z.maxLength(BODY_MAX));

const noBoard: ToolResult = { ok: false, content: 'the kanban board is not available here (no store)' };

function withBoard(context: ToolContext, work: (board: KanbanBoard) => Promise<ToolResult>): Promise<ToolResult> {
  return context.kanban ? work(context.kanban) : Promise.resolve(noBoard);
}

const line = (task: KanbanTask) => `#${task.id} [${task.status}] ${task.title}${task.parentId === null ? '' : ` (parent #${task.parentId})`}`;
const full = (task: KanbanTask) => (task.body ? `${line(task)}\n\n${task.body}` : line(task));

export const kanbanAddTool = defineTool({
  name: 'kanban_add',
  description: 'Add a task to the kanban board, in triage (or the given status).',
  args: z.strictObject({
    title: title.check(z.describe('A one-line title.')),
    body: z.optional(body.check(z.describe('Details, Markdown.'))),
    status: z.optional(status),
  }),
  readOnly: false,
  run: (args, context) =>
    withBoard(context, async (board) => {
      const task = await board.create({ title: args.title, body: args.body ?? '', status: args.status ?? 'triage' });
      return { ok: true, content: `added ${line(task)}` };
    }),
});

export const kanbanListTool = defineTool({
  name: 'kanban_list',
  description: `List the kanban board's tasks, oldest first; optionally only one status (${KANBAN_STATUSES.join(', ')}).`,
  args: z.strictObject({ status: z.optional(status) }),
  readOnly: true,
  run: (args, context) =>
    withBoard(context, async (board) => {
      const tasks = await board.list(args.status ? { status: args.status } : {});
      if (tasks.length === 0) return { ok: true, content: args.status ? `no tasks in ${args.status}` : 'the board is empty' };
      return { ok: true, content: tasks.map(line).join('\n') };
    }),
});

export const kanbanUpdateTool = defineTool({
  name: 'kanban_update',
  description: `Change a kanban task's status (${KANBAN_STATUSES.join(', ')}), title or body.`,
  args: z.strictObject({
    id: z.int().check(z.positive(), z.describe('The task id, as kanban_list shows it (without #).')),
    status: z.optional(status),
    title: z.optional(title),
    body: z.optional(body),
  }),
  readOnly: false,
  run: ({ id, ...patch }, context) =>
    withBoard(context, async (board) => {
      if (patch.status === undefined && patch.title === undefined && patch.body === undefined) {
        return { ok: false, content: 'kanban_update needs at least one of status, title, body' };
      }
      const task = await board.update(id, patch);
      return task ? { ok: true, content: `updated ${full(task)}` } : { ok: false, content: `no kanban task #${id} (kanban_list shows the tasks)` };
    }),
});

export const kanbanTools = [kanbanAddTool, kanbanListTool, kanbanUpdateTool] as const;
