// The Kanban page's decisions, with no DOM: the board grouped into its columns, where a keyboard
// move goes, whether a drop moves a card, and what the live region says. Pure.

export const COLUMNS = ['triage', 'todo', 'doing', 'done', 'blocked'] as const;
export type Column = (typeof COLUMNS)[number];

export const COLUMN_LABELS: Readonly<Record<Column, string>> = {
  triage: 'Triage',
  todo: 'To do',
  doing: 'Doing',
  done: 'Done',
  blocked: 'Blocked',
};

export function isColumn(value: string): value is Column {
  return (COLUMNS as readonly string[]).includes(value);
}

/** What a card needs to be placed: its id and column. */
export type Placed = { readonly id: number; readonly status: string };

/**
 * The cards of each column in board order (oldest first); a card whose status this page does not
 * know (a newer server) is left out rather than put in the wrong column.
 */
export function groupBoard<T extends Placed>(tasks: readonly T[]): Record<Column, T[]> {
  const columns = Object.fromEntries(COLUMNS.map((column) => [column, [] as T[]])) as Record<Column, T[]>;
  for (const task of [...tasks].sort((a, b) => a.id - b.id)) if (isColumn(task.status)) columns[task.status].push(task);
  return columns;
}

/** Alt+ArrowLeft / Alt+ArrowRight on a focused card: the column next to its own, if there is one. */
export function keyboardTarget(status: string, key: { readonly key: string; readonly altKey: boolean }): Column | undefined {
  if (!key.altKey || !isColumn(status)) return undefined;
  const step = key.key === 'ArrowLeft' ? -1 : key.key === 'ArrowRight' ? 1 : 0;
  if (step === 0) return undefined;
  return COLUMNS[COLUMNS.indexOf(status) + step];
}

/** The drag payload's type: only our own cards are accepted as drops. */
export const CARD_DRAG_TYPE = 'application/x-iris-kanban-card';

export function dragPayload(id: number): string {
  return String(id);
}

export type DropDecision = { readonly move: true; readonly id: number; readonly to: Column } | { readonly move: false };

/** A drop of `payload` on column `to`: a move when it names a card of this board that is in another column. */
export function dropDecision(payload: string, to: string, tasks: readonly Placed[]): DropDecision {
  if (!/^\d{1,15}$/.test(payload) || !isColumn(to)) return { move: false };
  const id = Number(payload);
  const task = tasks.find((candidate) => candidate.id === id);
  if (!task || task.status === to) return { move: false };
  return { move: true, id, to };
}

/** What the live region says after a move. */
export function moveAnnouncement(task: { readonly id: number; readonly title: string }, to: Column): string {
  return `Moved #${task.id} “${task.title}” to ${COLUMN_LABELS[to]}.`;
}

/** An ISO 8601 UTC time as the drawer shows it: `2026-11-20 10:00 UTC` (anything else as given). */
export function timeText(iso: string): string {
  const match = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
}
