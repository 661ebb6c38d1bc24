// `specify` and `decompose`: a task goes to its slot, the answer is parsed strictly (one fix
// retry), and only a parsed answer touches the board: in one update for a spec, in one
// transaction for the children. Anything else is refused and the board is left as it was.
import type { Message } from '../domain/messages.js';
import { askStrict, type SlotText } from '../routing/strict-answer.js';
import type { KanbanBoard, KanbanTask } from '../store/kanban-types.js';
import {
  buildDecomposeFix,
  buildDecomposePrompt,
  buildSpecifyFix,
  buildSpecifyPrompt,
  DECOMPOSE_SYSTEM,
  parseDecomposition,
  parseTaskSpec,
  specToMarkdown,
  SPECIFY_SYSTEM,
} from './slot-answers.js';

export type KanbanSlot = 'triage_specifier' | 'kanban_decomposer';

/** One call to a kanban slot. */
export type AskKanbanSlot = (slot: KanbanSlot, system: string, messages: readonly Message[]) => Promise<SlotText>;

export type RefineFailure = { readonly ok: false; readonly code: 'not_found' | 'slot_failed' | 'malformed'; readonly error: string };

export type Specified = { readonly ok: true; readonly task: KanbanTask } | RefineFailure;
export type Decomposed = { readonly ok: true; readonly parent: KanbanTask; readonly children: readonly KanbanTask[] } | RefineFailure;

const notFound = (id: number): RefineFailure => ({ ok: false, code: 'not_found', error: `no kanban task ${id}` });

function refusal(slot: KanbanSlot, answer: { kind: 'slot_failed' | 'malformed'; error: string }): RefineFailure {
  return answer.kind === 'slot_failed'
    ? { ok: false, code: 'slot_failed', error: `the ${slot} slot failed: ${answer.error}` }
    : { ok: false, code: 'malformed', error: `the ${slot} slot's answer was malformed twice (${answer.error}); nothing was changed` };
}

export async function specifyTask(board: KanbanBoard, id: number, ask: AskKanbanSlot): Promise<Specified> {
  const task = await board.get(id);
  if (!task) return notFound(id);
  const answer = await askStrict({
    ask: (messages) => ask('triage_specifier', SPECIFY_SYSTEM, messages),
    prompt: buildSpecifyPrompt(task),
    parse: parseTaskSpec,
    fix: buildSpecifyFix,
  });
  if (!answer.ok) return refusal('triage_specifier', answer);
  const updated = await board.update(id, { title: answer.value.title, body: specToMarkdown(answer.value), status: 'todo' });
  return updated ? { ok: true, task: updated } : notFound(id);
}

export async function decomposeTask(board: KanbanBoard, id: number, ask: AskKanbanSlot): Promise<Decomposed> {
  const task = await board.get(id);
  if (!task) return notFound(id);
  const answer = await askStrict({
    ask: (messages) => ask('kanban_decomposer', DECOMPOSE_SYSTEM, messages),
    prompt: buildDecomposePrompt(task),
    parse: parseDecomposition,
    fix: buildDecomposeFix,
  });
  if (!answer.ok) return refusal('kanban_decomposer', answer);
  const children = await board.createChildren(id, answer.value);
  return { ok: true, parent: task, children };
}
