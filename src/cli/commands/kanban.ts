// `iris kanban add|list|show|move|specify|decompose`: the board in state.db. Parse, call the core
// (store.kanban, kanban/refine.ts), print; a refused slot answer is one line and exit 1.
import { decomposeTask, specifyTask, type RefineFailure } from '../../kanban/refine.js';
import { checkStatus, checkTaskId } from '../../kanban/request-bodies.js';
import { createKanbanAsk, kanbanRouting } from '../../kanban/slot-call.js';
import { taskJson } from '../../kanban/task-json.js';
import { StoreError } from '../../store/errors.js';
import type { KanbanStatus, KanbanTask } from '../../store/kanban-types.js';
import { openStoreAt } from '../../store/open-store.js';
import type { Store } from '../../store/types.js';
import { printData, printError, printJson, printWarning } from '../console.js';
import { cliStoreTarget } from '../store-target.js';
import { openConfig, openEnv, openHome } from '../context.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { withExistingStore } from '../open-store.js';
import { formatTable } from '../table.js';

type JsonOption = { json?: boolean };

export function parseTaskId(text: string): number {
  const id = checkTaskId(text);
  if (!id.ok) throw new CliFailure('usage', id.error);
  return id.value;
}

export function parseStatus(text: string): KanbanStatus {
  const status = checkStatus(text);
  if (!status.ok) throw new CliFailure('usage', status.error);
  return status.value;
}

/** Writes create state.db when it is not there yet. */
async function withBoard<T>(work: (store: Store) => Promise<T>): Promise<T> {
  const paths = await openHome();
  try {
    const store = await openStoreAt(await cliStoreTarget(paths));
    try {
      return await work(store);
    } finally {
      await store.close();
    }
  } catch (err) {
    if (err instanceof StoreError) throw new CliFailure('io_error', err.message);
    throw err;
  }
}

async function requireTask(store: Store, id: number): Promise<KanbanTask> {
  const task = await store.kanban.get(id);
  if (!task) throw new CliFailure('not_found', `no kanban task ${id}`);
  return task;
}

const TABLE_HEADER = ['ID', 'STATUS', 'TITLE', 'PARENT'] as const;
const cells = (task: KanbanTask) => [String(task.id), task.status, task.title, task.parentId === null ? '' : String(task.parentId)];

function taskText(task: KanbanTask): string {
  const lines = [`#${task.id} ${task.title}`, `status: ${task.status}`];
  if (task.parentId !== null) lines.push(`parent: #${task.parentId}`);
  lines.push(`created: ${new Date(task.createdAt).toISOString()}`, `updated: ${new Date(task.updatedAt).toISOString()}`);
  if (task.body) lines.push('', task.body);
  return lines.join('\n');
}

export async function kanbanAdd(title: string, options: JsonOption): Promise<void> {
  if (title.trim() === '') throw new CliFailure('usage', 'a task needs a one-line title');
  const task = await withBoard((store) => store.kanban.create({ title: title.trim() }));
  if (options.json) return printJson(taskJson(task));
  printData(`added #${task.id} to triage: ${task.title}`);
}

export async function kanbanList(options: JsonOption & { status?: string }): Promise<void> {
  const status = options.status === undefined ? undefined : parseStatus(options.status);
  const tasks = await withExistingStore(await openHome(), (store) => store.kanban.list(status ? { status } : {}), () => []);
  if (options.json) return printJson(tasks.map(taskJson));
  if (tasks.length === 0) return printData(status ? `no tasks in ${status}` : 'the board is empty (iris kanban add "<one-liner>")');
  printData(formatTable(TABLE_HEADER, tasks.map(cells)));
}

export async function kanbanShow(idText: string, options: JsonOption): Promise<void> {
  const id = parseTaskId(idText);
  const task = await withExistingStore(await openHome(), (store) => requireTask(store, id), () => {
    throw new CliFailure('not_found', `no kanban task ${id}`);
  });
  if (options.json) return printJson(taskJson(task));
  printData(taskText(task));
}

export async function kanbanMove(idText: string, statusText: string, options: JsonOption): Promise<void> {
  const id = parseTaskId(idText);
  const status = parseStatus(statusText);
  const task = await withBoard(async (store) => {
    await requireTask(store, id);
    return (await store.kanban.move(id, status))!;
  });
  if (options.json) return printJson(taskJson(task));
  printData(`moved #${task.id} to ${task.status}`);
}

/** The board and the kanban slots on the config's routes, as `iris chat` would resolve them. */
async function withSlots<T>(work: (store: Store, ask: ReturnType<typeof createKanbanAsk>) => Promise<T>): Promise<T> {
  const paths = await openHome();
  const env = await openEnv(paths);
  const loaded = await openConfig(paths);
  const { routes, routing, oauthProblem } = await kanbanRouting(paths, env, loaded.config);
  if (oauthProblem) printWarning(oauthProblem);
  return withBoard((store) => work(store, createKanbanAsk(routes, routing, store, 'cli')));
}

/** A refused answer: the reason on stderr, and with --json also as the document on stdout. */
function refused(failure: RefineFailure, options: JsonOption): number {
  if (failure.code === 'not_found') throw new CliFailure('not_found', failure.error);
  printError(failure.error);
  if (options.json) printJson({ ok: false, code: failure.code, error: failure.error });
  return EXIT.failure;
}

export async function kanbanSpecify(idText: string, options: JsonOption): Promise<number> {
  const id = parseTaskId(idText);
  const result = await withSlots((store, ask) => specifyTask(store.kanban, id, ask));
  if (!result.ok) return refused(result, options);
  if (options.json) printJson(taskJson(result.task));
  else printData(`specified #${result.task.id}, now in todo\n\n${taskText(result.task)}`);
  return EXIT.ok;
}

export async function kanbanDecompose(idText: string, options: JsonOption): Promise<number> {
  const id = parseTaskId(idText);
  const result = await withSlots((store, ask) => decomposeTask(store.kanban, id, ask));
  if (!result.ok) return refused(result, options);
  if (options.json) printJson({ parent: taskJson(result.parent), children: result.children.map(taskJson) });
  else printData(`#${result.parent.id} split into ${result.children.length} tasks in todo:\n${formatTable(TABLE_HEADER, result.children.map(cells))}`);
  return EXIT.ok;
}
