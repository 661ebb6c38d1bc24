// The Kanban page's Add card form: a one-line title and an optional body; the card lands in
// triage (what `iris kanban add` does), ready for Specify.
import { useId, useState, type FormEvent } from 'react';
import type { KanbanApi, KanbanTask } from './kanban-api.js';

export function KanbanAdd({ client, onAdded }: { client: KanbanApi; onAdded: (task: KanbanTask) => void }) {
  const id = useId();
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (title.trim() === '') return setError('Give the card a one-line title.');
    setBusy(true);
    setError(null);
    const result = await client.add(title.trim(), body);
    setBusy(false);
    if (!result.ok) return setError(result.error);
    setTitle('');
    setBody('');
    onAdded(result.value);
  };

  return (
    <form className="panel kanban-add" onSubmit={(event) => void submit(event)} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Add card</h2>
      <label htmlFor={`${id}-title`}>
        Title
        <input id={`${id}-title`} type="text" value={title} maxLength={200} onChange={(event) => setTitle(event.target.value)} autoComplete="off" placeholder="e.g. dark mode for the dashboard" />
      </label>
      <label htmlFor={`${id}-body`}>
        Details (optional)
        <textarea id={`${id}-body`} value={body} rows={2} onChange={(event) => setBody(event.target.value)} />
      </label>
      <button type="submit" disabled={busy}>
        {busy ? 'Adding…' : 'Add to triage'}
      </button>
      {error !== null && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
