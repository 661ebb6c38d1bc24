// The Kanban page's API (docs/dashboard.md § Kanban): the board, add, move / edit, one card with
// its parent and children, and Specify / Decompose through their slots. Each calls the library
// code `iris kanban add|list|show|move|specify|decompose` calls; every write is in audit.log.
import { decomposeTask, specifyTask, type RefineFailure } from '../../kanban/refine.js';
import { checkTaskId, parseNewTask, parseTaskPatch } from '../../kanban/request-bodies.js';
import { createKanbanAsk, kanbanRouting } from '../../kanban/slot-call.js';
import { boardJson, cardJson, taskJson } from '../../kanban/task-json.js';
import { redactText } from '../../log/redact.js';
import type { KanbanTask } from '../../store/kanban-types.js';
import type { Store } from '../../store/types.js';
import { HttpError } from '../http-error.js';
import { noBody } from './no-body.js';
import type { DashboardContext, RouteArea, RouteRequest } from './route.js';

/** The usage ledger's source for the slot calls this page makes. */
const USAGE_SOURCE = 'dashboard';

/** The `:id` of the path as a task id; 400 otherwise (a long one is not echoed back whole). */
function taskIdOf(request: RouteRequest): number {
  const text = request.params.id ?? '';
  const id = checkTaskId(text.length > 40 ? `${text.slice(0, 40)}…` : text);
  if (!id.ok) throw new HttpError(400, id.error);
  return id.value;
}

const notFound = (id: number) => new HttpError(404, `no kanban task ${id}`);

async function requireTask(store: Store | undefined, id: number): Promise<{ store: Store; task: KanbanTask }> {
  const task = await store?.kanban.get(id);
  if (!store || !task) throw notFound(id);
  return { store, task };
}

/** A refused slot answer: 404 for a task gone meanwhile, else 502 with the slot's own words. */
function refusal(failure: RefineFailure): HttpError {
  return failure.code === 'not_found' ? new HttpError(404, failure.error) : new HttpError(502, redactText(failure.error));
}

/** A body read inside the audit: a bad one is refused and still recorded. */
async function bodyOf(context: DashboardContext, request: RouteRequest): Promise<{ ok: true; data: unknown } | { ok: false; error: unknown }> {
  try {
    return { ok: true, data: await context.readJson(request.req) };
  } catch (error) {
    return { ok: false, error };
  }
}

export const kanbanRoutes: RouteArea = (context) => {
  /** The store and the slots as the config resolves them now, the usage under `dashboard`. */
  async function slotsFor(store: Store) {
    const [config, env] = await Promise.all([context.currentConfig(), context.currentEnv()]);
    const { routes, routing } = await kanbanRouting(context.paths, env, config);
    return createKanbanAsk(routes, routing, store, USAGE_SOURCE);
  }

  return [
    {
      method: 'GET',
      path: '/api/kanban',
      run: async () => {
        const store = await context.existingStore();
        return boardJson(store ? await store.kanban.list() : []);
      },
    },
    {
      method: 'POST',
      path: '/api/kanban',
      run: (request) => {
        let target = '';
        return context.audited(request, 'kanban.add', () => target, async () => {
          const body = await context.readJson(request.req);
          const task = parseNewTask(body);
          if (!task.ok) throw new HttpError(400, task.error);
          target = task.value.title;
          const created = await (await context.store()).kanban.create(task.value);
          target = `#${created.id} ${created.title}`;
          return { status: 201, body: taskJson(created) };
        });
      },
    },
    {
      method: 'GET',
      path: '/api/kanban/:id',
      run: async (request) => {
        const id = taskIdOf(request);
        const { store, task } = await requireTask(await context.existingStore(), id);
        const [parent, children] = await Promise.all([task.parentId === null ? undefined : store.kanban.get(task.parentId), store.kanban.list({ parentId: id })]);
        return cardJson(task, parent, children);
      },
    },
    {
      method: 'PATCH',
      path: '/api/kanban/:id',
      run: async (request) => {
        let target = `#${request.params.id ?? ''}`;
        const body = await bodyOf(context, request);
        const patch = body.ok ? parseTaskPatch(body.data) : undefined;
        // A status change is a move (as `iris kanban move`); a title or body alone is an edit.
        const action = patch?.ok && patch.value.status === undefined ? 'kanban.edit' : 'kanban.move';
        return context.audited(request, action, () => target, async () => {
          if (!body.ok) throw body.error;
          const id = taskIdOf(request);
          if (!patch!.ok) throw new HttpError(400, patch!.error);
          const store = await context.existingStore();
          await requireTask(store, id);
          const updated = await store!.kanban.update(id, patch!.value);
          if (!updated) throw notFound(id);
          target = patch!.value.status === undefined ? `#${id}` : `#${id} → ${updated.status}`;
          return taskJson(updated);
        });
      },
    },
    {
      method: 'POST',
      path: '/api/kanban/:id/specify',
      run: (request) =>
        context.audited(request, 'kanban.specify', () => `#${request.params.id ?? ''}`, async () => {
          const id = taskIdOf(request);
          await noBody(context, request);
          const { store } = await requireTask(await context.existingStore(), id);
          const result = await specifyTask(store.kanban, id, await slotsFor(store));
          if (!result.ok) throw refusal(result);
          return taskJson(result.task);
        }),
    },
    {
      method: 'POST',
      path: '/api/kanban/:id/decompose',
      run: (request) =>
        context.audited(request, 'kanban.decompose', () => `#${request.params.id ?? ''}`, async () => {
          const id = taskIdOf(request);
          await noBody(context, request);
          const { store } = await requireTask(await context.existingStore(), id);
          const result = await decomposeTask(store.kanban, id, await slotsFor(store));
          if (!result.ok) throw refusal(result);
          return { parent: taskJson(result.parent), children: result.children.map(taskJson) };
        }),
    },
  ];
};
