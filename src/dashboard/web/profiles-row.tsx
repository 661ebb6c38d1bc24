// One profile on the Profiles page: its description (edited inline, or written by Auto-generate
// and marked "generated" until a person edits it), Serve (switches the dashboard to it) and
// Delete, which asks first.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { ProfileList, ProfileRow as Row, ProfilesClient } from './profiles-api.js';
import { whyNotDeletable } from './profiles-view.js';

type Props = {
  readonly row: Row;
  readonly list: ProfileList;
  readonly client: ProfilesClient;
  /** The row's description changed (edit or Auto-generate): the page updates it in place. */
  readonly onDescribed: (name: string, description: string, generated: boolean) => void;
  readonly onDeleted: (name: string) => void;
  readonly onServe: (name: string) => Promise<string | null>;
};

type Busy = null | 'generate' | 'save' | 'delete' | 'serve';

function DescriptionEditor({ initial, busy, onSave, onCancel }: { initial: string; busy: boolean; onSave: (text: string) => void; onCancel: () => void }) {
  const id = useId();
  const [text, setText] = useState(initial);
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => field.current?.focus(), []);
  const keys = (event: KeyboardEvent) => {
    if (event.key === 'Escape') onCancel();
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) onSave(text);
  };
  return (
    <div className="profile-editor">
      <label htmlFor={id}>Description</label>
      <textarea id={id} ref={field} value={text} rows={3} maxLength={2000} onChange={(event) => setText(event.target.value)} onKeyDown={keys} />
      <div className="profile-actions">
        <button type="button" onClick={() => onSave(text)} disabled={busy}>
          {busy ? 'Saving…' : 'Save'}
        </button>
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <span className="hint">Ctrl+Enter saves, Escape cancels. One paragraph; empty removes it.</span>
      </div>
    </div>
  );
}

function DeleteConfirm({ name, busy, onDelete, onCancel }: { name: string; busy: boolean; onDelete: () => void; onCancel: () => void }) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div className="notice profile-confirm" role="group" aria-label={`Delete profile ${name}?`}>
      <p>
        Delete profile <strong>{name}</strong>? Its folder (config.yaml, keys, history) moves to <code>profiles/.trash</code>, where you can still recover it.
      </p>
      <div className="profile-actions">
        <button type="button" className="danger" onClick={onDelete} disabled={busy}>
          {busy ? 'Deleting…' : `Delete ${name}`}
        </button>
        <button type="button" ref={cancel} onClick={onCancel} onKeyDown={(event) => event.key === 'Escape' && onCancel()} disabled={busy}>
          Keep it
        </button>
      </div>
    </div>
  );
}

export function ProfileRow({ row, list, client, onDescribed, onDeleted, onServe }: Props) {
  const [busy, setBusy] = useState<Busy>(null);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const notDeletable = whyNotDeletable(row, list);

  /** Runs one action at a time; a failure shows inline under the row. */
  const run = async (kind: Exclude<Busy, null>, work: () => Promise<string | null>) => {
    setBusy(kind);
    setError(null);
    const failure = await work();
    setBusy(null);
    setError(failure);
    return failure === null;
  };

  const generate = () =>
    run('generate', async () => {
      const result = await client.describe(row.name);
      if (!result.ok) return result.error;
      onDescribed(row.name, result.value.description, result.value.generated);
      return null;
    });

  const save = (text: string) =>
    void run('save', async () => {
      const result = await client.edit(row.name, text);
      if (!result.ok) return result.error;
      onDescribed(row.name, result.value.description, result.value.generated);
      return null;
    }).then((saved) => {
      if (!saved) return;
      setEditing(false);
      editButton.current?.focus();
    });

  const remove = () =>
    void run('delete', async () => {
      const result = await client.remove(row.name);
      if (!result.ok) return result.error;
      onDeleted(row.name);
      return null;
    });

  const badges = [
    row.active ? <span key="served" className="badge current">served here</span> : null,
    row.name === list.stored_default ? <span key="cli" className="badge">default for iris commands</span> : null,
  ];

  return (
    <li className="profile" data-profile={row.name} aria-label={`Profile ${row.name}`}>
      <div className="profile-head">
        <h2>{row.name}</h2>
        {badges}
        <div className="profile-actions profile-head-actions">
          {!row.active && (
            <button type="button" onClick={() => void run('serve', () => onServe(row.name))} disabled={busy !== null} aria-label={`Serve profile ${row.name} in this dashboard`}>
              {busy === 'serve' ? 'Switching…' : 'Serve here'}
            </button>
          )}
          {notDeletable === undefined && !confirming && (
            <button type="button" ref={deleteButton} className="danger" onClick={() => setConfirming(true)} disabled={busy !== null} aria-label={`Delete profile ${row.name}`}>
              Delete
            </button>
          )}
        </div>
      </div>
      {confirming && (
        <DeleteConfirm
          name={row.name}
          busy={busy === 'delete'}
          onDelete={remove}
          onCancel={() => {
            setConfirming(false);
            requestAnimationFrame(() => deleteButton.current?.focus());
          }}
        />
      )}
      {editing ? (
        <DescriptionEditor
          initial={row.description}
          busy={busy === 'save'}
          onSave={save}
          onCancel={() => {
            setEditing(false);
            requestAnimationFrame(() => editButton.current?.focus());
          }}
        />
      ) : (
        <>
          <p className="profile-description">
            {row.description || <span className="muted">No description yet: write one, or let Auto-generate describe this profile from its settings, skills and recent sessions.</span>}
            {row.generated && (
              <span className="badge generated" title="Written by the profile_describer model; editing it makes it yours">
                generated
              </span>
            )}
          </p>
          <div className="profile-actions">
            <button type="button" ref={editButton} onClick={() => setEditing(true)} disabled={busy !== null} aria-label={`Edit the description of ${row.name}`}>
              Edit
            </button>
            <button type="button" onClick={() => void generate()} disabled={busy !== null} aria-label={`Auto-generate a description of ${row.name}`}>
              {busy === 'generate' ? 'Generating…' : 'Auto-generate'}
            </button>
          </div>
        </>
      )}
      {notDeletable !== undefined && row.name !== 'default' && <p className="hint">{notDeletable}</p>}
      {error !== null && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}
