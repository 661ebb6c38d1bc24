// What the two kanban slots are asked, and how their answers are read. Both answers are JSON,
// parsed strictly where it matters (every required key, non-empty strings, no prose or code fence
// around it): a half-right answer would put a half-right task on the board. Keys the model adds
// beyond those are ignored (DECISIONS § Side-job features: models add them). Pure: the slot call
// is the caller's.
import type { Parsed } from '../routing/strict-answer.js';
import type { KanbanChild, KanbanTask } from '../store/kanban-types.js';

export type TaskSpec = {
  readonly title: string;
  readonly goal: string;
  readonly context: string;
  readonly acceptanceCriteria: readonly string[];
};

export const MIN_CHILDREN = 2;
export const MAX_CHILDREN = 8;

export const SPECIFY_SYSTEM =
  'You turn a rough one-line task into a short specification. Answer with one JSON object ' +
  '{"title","goal","context","acceptance_criteria":[…]} and nothing else: no prose, no code fence.';

export const DECOMPOSE_SYSTEM =
  `You split a task into ${MIN_CHILDREN} to ${MAX_CHILDREN} smaller tasks that together complete it. Answer with one JSON ` +
  'object {"tasks":[{"title","body"}]} and nothing else: no prose, no code fence.';

export function buildSpecifyPrompt(task: Pick<KanbanTask, 'title' | 'body'>): string {
  return [
    'Expand this task into a specification: a short title, the goal, the context a developer needs, and testable acceptance criteria.',
    '',
    `Task: ${task.title}`,
    ...(task.body.trim() ? ['', 'Notes:', task.body] : []),
  ].join('\n');
}

export function buildDecomposePrompt(task: Pick<KanbanTask, 'title' | 'body'>): string {
  return [
    `Split this task into ${MIN_CHILDREN} to ${MAX_CHILDREN} child tasks, each with a title and a body (Markdown) saying what done means.`,
    '',
    `Task: ${task.title}`,
    ...(task.body.trim() ? ['', task.body] : []),
  ].join('\n');
}

export function buildSpecifyFix(error: string): string {
  return `That answer could not be used: ${error}. Answer again with only the JSON object {"title","goal","context","acceptance_criteria":[…]}.`;
}

export function buildDecomposeFix(error: string): string {
  return `That answer could not be used: ${error}. Answer again with only the JSON object {"tasks":[{"title","body"}]}, ${MIN_CHILDREN} to ${MAX_CHILDREN} tasks.`;
}

type JsonObject = Record<string, unknown>;

function parseObject(text: string, keys: readonly string[], what: string): Parsed<JsonObject> {
  let value: unknown;
  try {
    value = JSON.parse(text.trim());
  } catch {
    return { ok: false, error: `${what} is not JSON` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: `${what} is not a JSON object` };
  const object = value as JsonObject;
  const missing = keys.filter((key) => !Object.hasOwn(object, key));
  if (missing.length > 0) return { ok: false, error: `${what} lacks ${missing.map((k) => `"${k}"`).join(', ')}` };
  return { ok: true, value: object };
}

const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

export function parseTaskSpec(text: string): Parsed<TaskSpec> {
  const object = parseObject(text, ['title', 'goal', 'context', 'acceptance_criteria'], 'the answer');
  if (!object.ok) return object;
  const { title, goal, context, acceptance_criteria: criteria } = object.value;
  for (const [key, value] of [['title', title], ['goal', goal], ['context', context]] as const) {
    if (!isText(value)) return { ok: false, error: `"${key}" must be a non-empty string` };
  }
  if (!Array.isArray(criteria) || criteria.length === 0) return { ok: false, error: '"acceptance_criteria" must be a non-empty array' };
  if (!criteria.every(isText)) return { ok: false, error: 'every acceptance criterion must be a non-empty string' };
  return { ok: true, value: { title: (title as string).trim(), goal: (goal as string).trim(), context: (context as string).trim(), acceptanceCriteria: criteria.map((c) => c.trim()) } };
}

export function parseDecomposition(text: string): Parsed<readonly KanbanChild[]> {
  const object = parseObject(text, ['tasks'], 'the answer');
  if (!object.ok) return object;
  const tasks = object.value.tasks;
  if (!Array.isArray(tasks)) return { ok: false, error: '"tasks" must be an array' };
  if (tasks.length < MIN_CHILDREN || tasks.length > MAX_CHILDREN) {
    return { ok: false, error: `${tasks.length} task${tasks.length === 1 ? '' : 's'}; there must be ${MIN_CHILDREN} to ${MAX_CHILDREN}` };
  }
  const children: KanbanChild[] = [];
  for (const [index, task] of tasks.entries()) {
    const parsed = parseObject(JSON.stringify(task), ['title', 'body'], `task ${index + 1}`);
    if (!parsed.ok) return parsed;
    const { title, body } = parsed.value;
    if (!isText(title) || !isText(body)) return { ok: false, error: `task ${index + 1}'s "title" and "body" must be non-empty strings` };
    children.push({ title: title.trim(), body: body.trim() });
  }
  return { ok: true, value: children };
}

/** The task's body after `specify`. */
export function specToMarkdown(spec: TaskSpec): string {
  return [
    '## Goal',
    '',
    spec.goal,
    '',
    '## Context',
    '',
    spec.context,
    '',
    '## Acceptance criteria',
    '',
    ...spec.acceptanceCriteria.map((criterion) => `- [ ] ${criterion}`),
  ].join('\n');
}
