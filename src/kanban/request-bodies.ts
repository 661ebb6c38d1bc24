// What a caller may ask of the board, checked before the store sees it: a card id, a status, a
// new card and an edit. Each answer is a value (the message says what is wrong); pure.
import { isKanbanStatus, KANBAN_STATUSES, type KanbanPatch, type KanbanStatus, type NewKanbanTask } from '../store/kanban-types.js';

/** A title is a one-liner a person reads on a card. */
export const MAX_TITLE_CHARS = 200;
/** A spec's Markdown; far above what the slots write, yet bounded. */
export const MAX_BODY_CHARS = 50_000;

export type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

const refuse = (error: string): { ok: false; error: string } => ({ ok: false, error });

export function checkTaskId(text: string): Checked<number> {
  const id = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(id) || id < 1) return refuse(`a task id is a positive whole number (got "${text}")`);
  return { ok: true, value: id };
}

export function checkStatus(text: string): Checked<KanbanStatus> {
  if (!isKanbanStatus(text)) return refuse(`unknown status "${text}" (allowed: ${KANBAN_STATUSES.join(', ')})`);
  return { ok: true, value: text };
}

function checkTitle(value: unknown): Checked<string> {
  if (typeof value !== 'string') return refuse('title must be a string');
  const title = value.trim();
  if (title === '') return refuse('a task needs a one-line title');
  if (/[\r\n]/.test(title)) return refuse('a title is one line (put the details in the body)');
  if (title.length > MAX_TITLE_CHARS) return refuse(`title is ${title.length} characters; the limit is ${MAX_TITLE_CHARS}`);
  return { ok: true, value: title };
}

function checkBody(value: unknown): Checked<string> {
  if (typeof value !== 'string') return refuse('body must be a string');
  if (value.length > MAX_BODY_CHARS) return refuse(`body is ${value.length} characters; the limit is ${MAX_BODY_CHARS}`);
  return { ok: true, value };
}

/** A status from a body; the text is echoed back only when short (a body is anyone's). */
function statusField(value: unknown): Checked<KanbanStatus> {
  if (typeof value !== 'string' || value.length > 40) return refuse(`status must be one of ${KANBAN_STATUSES.join(', ')}`);
  return checkStatus(value);
}

function objectWith(body: unknown, allowed: readonly string[], shape: string): Checked<Record<string, unknown>> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return refuse(`the body must be a JSON object ${shape}`);
  const unknownKey = Object.keys(body).find((key) => !allowed.includes(key));
  if (unknownKey !== undefined) return refuse(`unknown field "${unknownKey.slice(0, 40)}" (known: ${allowed.join(', ')})`);
  return { ok: true, value: body as Record<string, unknown> };
}

/** `{title, body?, status?}`: a new card (in triage unless a status is given). */
export function parseNewTask(body: unknown): Checked<NewKanbanTask> {
  const object = objectWith(body, ['title', 'body', 'status'], '{"title": "...", "body"?: "...", "status"?: "triage"}');
  if (!object.ok) return object;
  const { title, body: text, status } = object.value;
  const checkedTitle = checkTitle(title);
  if (!checkedTitle.ok) return checkedTitle;
  const checkedBody = text === undefined ? undefined : checkBody(text);
  if (checkedBody && !checkedBody.ok) return checkedBody;
  const checkedStatus = status === undefined ? undefined : statusField(status);
  if (checkedStatus && !checkedStatus.ok) return checkedStatus;
  return {
    ok: true,
    value: { title: checkedTitle.value, ...(checkedBody ? { body: checkedBody.value } : {}), ...(checkedStatus ? { status: checkedStatus.value } : {}) },
  };
}

/** `{status?, title?, body?}`, at least one: a move, an edit, or both. */
export function parseTaskPatch(body: unknown): Checked<KanbanPatch> {
  const object = objectWith(body, ['status', 'title', 'body'], '{"status"?: "doing", "title"?: "...", "body"?: "..."}');
  if (!object.ok) return object;
  const { status, title, body: text } = object.value;
  if (status === undefined && title === undefined && text === undefined) return refuse('nothing to change: give status, title or body');
  const patch: { status?: KanbanStatus; title?: string; body?: string } = {};
  if (status !== undefined) {
    const checked = statusField(status);
    if (!checked.ok) return checked;
    patch.status = checked.value;
  }
  if (title !== undefined) {
    const checked = checkTitle(title);
    if (!checked.ok) return checked;
    patch.title = checked.value;
  }
  if (text !== undefined) {
    const checked = checkBody(text);
    if (!checked.ok) return checked;
    patch.body = checked.value;
  }
  return { ok: true, value: patch };
}
