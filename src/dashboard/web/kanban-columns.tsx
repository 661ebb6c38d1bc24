// The board's five columns of cards. A card moves by native HTML5 drag and drop onto another
// column, or from the keyboard (Alt+ArrowLeft / Alt+ArrowRight on a focused card); the page
// makes the call and announces it. Opening a card goes to `#/kanban/<id>` (the drawer).
import { useState, type DragEvent, type KeyboardEvent } from 'react';
import type { BoardTask } from './kanban-api.js';
import { CARD_DRAG_TYPE, COLUMN_LABELS, COLUMNS, dragPayload, dropDecision, groupBoard, keyboardTarget, type Column } from './kanban-board.js';
import { hrefOf } from './nav.js';

export type MoveRequest = (id: number, to: Column, how: 'drag' | 'keyboard') => void;

/** The DOM id of a card, so focus can follow it to its new column. */
export const cardDomId = (id: number) => `kanban-card-${id}`;

function KanbanCard({ task, selected, busy, onMove }: { task: BoardTask; selected: boolean; busy: boolean; onMove: MoveRequest }) {
  const onDragStart = (event: DragEvent) => {
    event.dataTransfer.setData(CARD_DRAG_TYPE, dragPayload(task.id));
    event.dataTransfer.effectAllowed = 'move';
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const to = keyboardTarget(task.status, event);
    if (!to) return;
    event.preventDefault();
    if (!busy) onMove(task.id, to, 'keyboard');
  };
  return (
    <li
      id={cardDomId(task.id)}
      className={`kanban-card${selected ? ' kanban-card-selected' : ''}${busy ? ' kanban-card-busy' : ''}`}
      draggable={!busy}
      tabIndex={0}
      data-id={task.id}
      aria-describedby="kanban-move-hint"
      aria-busy={busy}
      onDragStart={onDragStart}
      onKeyDown={onKeyDown}
    >
      <a className="kanban-card-title" href={hrefOf({ page: 'kanban', id: String(task.id) })} draggable={false}>
        <span className="kanban-card-id">#{task.id}</span> {task.title}
      </a>
      <span className="kanban-card-meta">
        {task.parent_id !== null && <span>under #{task.parent_id}</span>}
        {task.children.length > 0 && <span>{task.children.length === 1 ? '1 subtask' : `${task.children.length} subtasks`}</span>}
        {task.body === '' && task.status === 'triage' && <span>not specified yet</span>}
      </span>
    </li>
  );
}

function KanbanColumn({ column, tasks, all, selectedId, movingId, onMove }: {
  column: Column;
  tasks: readonly BoardTask[];
  all: readonly BoardTask[];
  selectedId: number | undefined;
  movingId: number | undefined;
  onMove: MoveRequest;
}) {
  const [over, setOver] = useState(false);
  const accepts = (event: DragEvent) => event.dataTransfer.types.includes(CARD_DRAG_TYPE);
  const onDragOver = (event: DragEvent) => {
    if (!accepts(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    setOver(true);
  };
  const onDrop = (event: DragEvent) => {
    setOver(false);
    if (!accepts(event)) return;
    event.preventDefault();
    const decision = dropDecision(event.dataTransfer.getData(CARD_DRAG_TYPE), column, all);
    if (decision.move) onMove(decision.id, decision.to, 'drag');
  };
  const headingId = `kanban-column-${column}`;
  return (
    <section
      className={`kanban-column${over ? ' kanban-column-over' : ''}`}
      aria-labelledby={headingId}
      data-column={column}
      onDragOver={onDragOver}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <h2 id={headingId} className="kanban-column-head">
        {COLUMN_LABELS[column]} <span className="kanban-count">{tasks.length}</span>
      </h2>
      {tasks.length === 0 ? (
        <p className="kanban-empty">No cards. Drop one here.</p>
      ) : (
        <ul className="kanban-cards" aria-labelledby={headingId}>
          {tasks.map((task) => (
            <KanbanCard key={task.id} task={task} selected={task.id === selectedId} busy={task.id === movingId} onMove={onMove} />
          ))}
        </ul>
      )}
    </section>
  );
}

export function KanbanColumns({ tasks, selectedId, movingId, onMove }: { tasks: readonly BoardTask[]; selectedId: number | undefined; movingId: number | undefined; onMove: MoveRequest }) {
  const columns = groupBoard(tasks);
  return (
    <>
      <p className="hint" id="kanban-move-hint">
        Drag a card to another column, or focus it and press Alt+← / Alt+→. Open a card for its details and the Move to… list.
      </p>
      <div className="kanban-board">
        {COLUMNS.map((column) => (
          <KanbanColumn key={column} column={column} tasks={columns[column]} all={tasks} selectedId={selectedId} movingId={movingId} onMove={onMove} />
        ))}
      </div>
    </>
  );
}
