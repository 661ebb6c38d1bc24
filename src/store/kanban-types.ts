// The kanban board's records and its sub-store (`store.kanban`). Ids are small integers so a
// person can type them (`iris kanban show 12`).

export const KANBAN_STATUSES = ['triage', 'todo', 'doing', 'done', 'blocked'] as const;
export type KanbanStatus = (typeof KANBAN_STATUSES)[number];

export function isKanbanStatus(value: string): value is KanbanStatus {
  return (KANBAN_STATUSES as readonly string[]).includes(value);
}

export type KanbanTask = {
  readonly id: number;
  readonly title: string;
  /** Markdown; empty until the task is specified. */
  readonly body: string;
  readonly status: KanbanStatus;
  readonly parentId: number | null;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  readonly updatedAt: number;
};

export type NewKanbanTask = {
  readonly title: string;
  readonly body?: string;
  readonly status?: KanbanStatus;
  readonly parentId?: number | null;
};

export type KanbanPatch = Partial<Pick<KanbanTask, 'title' | 'body' | 'status'>>;

export type KanbanChild = { readonly title: string; readonly body: string };

export interface KanbanBoard {
  create(task: NewKanbanTask): Promise<KanbanTask>;
  get(id: number): Promise<KanbanTask | undefined>;
  /** Oldest first; only this status when given. */
  list(query?: { readonly status?: KanbanStatus; readonly parentId?: number }): Promise<KanbanTask[]>;
  /** The task after the move; undefined when there is no such task. */
  move(id: number, status: KanbanStatus): Promise<KanbanTask | undefined>;
  update(id: number, patch: KanbanPatch): Promise<KanbanTask | undefined>;
  /**
   * Creates every child in `todo` under `parentId`, in one transaction: all of them or none (a
   * missing parent, or any child that cannot be stored, leaves the board as it was).
   */
  createChildren(parentId: number, children: readonly KanbanChild[]): Promise<KanbanTask[]>;
}
