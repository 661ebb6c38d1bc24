// The Kanban page (issue 39): the board at `#/kanban`, and a card's drawer at `#/kanban/<id>`.
// The page owns the board and the moves (drag, keyboard, Move to…), announces each in a live
// region, and reads the board again after any change.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { DashboardApi } from '../api.js';
import { KanbanAdd } from '../kanban-add.js';
import { createKanbanApi, type BoardTask } from '../kanban-api.js';
import { moveAnnouncement, type Column } from '../kanban-board.js';
import { cardDomId, KanbanColumns, type MoveRequest } from '../kanban-columns.js';
import { KanbanDrawer } from '../kanban-drawer.js';

function openCardId(id: string | undefined): number | undefined {
  return id !== undefined && /^\d{1,15}$/.test(id) ? Number(id) : undefined;
}

export function KanbanPage({ api, id }: { api: DashboardApi; id?: string }) {
  const client = useMemo(() => createKanbanApi(api), [api]);
  const [tasks, setTasks] = useState<BoardTask[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [moveError, setMoveError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [movingId, setMovingId] = useState<number | undefined>(undefined);
  const [version, setVersion] = useState(0);
  /** The card a keyboard move is waiting to focus once it is drawn in its new column. */
  const [focusId, setFocusId] = useState<number | undefined>(undefined);
  const openId = openCardId(id);

  const reload = useCallback(async () => {
    const result = await client.board();
    if (!result.ok) return setLoadError(result.error);
    setLoadError(null);
    setTasks(result.value.tasks);
    setVersion((v) => v + 1);
  }, [client]);

  useEffect(() => {
    void reload();
  }, [reload]);

  useEffect(() => {
    if (focusId === undefined) return;
    document.getElementById(cardDomId(focusId))?.focus();
    setFocusId(undefined);
  }, [tasks, focusId]);

  const move: MoveRequest = (taskId, to: Column, how) => {
    const task = tasks?.find((candidate) => candidate.id === taskId);
    if (!task) return;
    setMovingId(taskId);
    setMoveError(null);
    void client.move(taskId, to).then(async (result) => {
      setMovingId(undefined);
      if (!result.ok) return setMoveError(`Could not move #${taskId}: ${result.error}`);
      setAnnouncement(moveAnnouncement(result.value, to));
      await reload();
      // A keyboard move on the board keeps the focus on the card, drawn anew in its column.
      if (how === 'keyboard' && openId === undefined) setFocusId(taskId);
    });
  };

  return (
    <main className="page kanban-page">
      <div className="page-head">
        <h1>Kanban</h1>
        <p className="lede">The task board (<code>iris kanban</code>). New cards land in triage; Specify turns a one-liner into a spec, Decompose splits a card into subtasks.</p>
      </div>
      <p className="status kanban-announce" role="status" aria-live="polite">
        {announcement}
      </p>
      {moveError !== null && (
        <p className="error" role="alert">
          {moveError}
        </p>
      )}
      {loadError !== null && (
        <div className="error load-error" role="alert">
          <p>{loadError}</p>
          <button type="button" onClick={() => void reload()}>
            Try again
          </button>
        </div>
      )}
      <div className={`kanban-layout${openId === undefined ? '' : ' kanban-layout-open'}`}>
        <div className="kanban-main">
          <KanbanAdd client={client} onAdded={(task) => {
            setAnnouncement(`Added #${task.id} “${task.title}” to Triage.`);
            void reload();
          }} />
          {tasks === null && loadError === null && <p className="loading">Loading the board…</p>}
          {tasks !== null && tasks.length === 0 && <p className="hint kanban-board-empty">The board is empty: add a card above (or run <code>iris kanban add "&lt;one-liner&gt;"</code>).</p>}
          {tasks !== null && <KanbanColumns tasks={tasks} selectedId={openId} movingId={movingId} onMove={move} />}
        </div>
        {openId !== undefined && <KanbanDrawer client={client} id={openId} version={version} moving={movingId === openId} onMove={move} onChanged={() => void reload()} />}
        {id !== undefined && openId === undefined && (
          <p className="error" role="alert">
            “{id.slice(0, 40)}” is not a card id: card ids are whole numbers.
          </p>
        )}
      </div>
    </main>
  );
}
