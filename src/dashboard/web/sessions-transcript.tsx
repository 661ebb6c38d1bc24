// One session read back (`#/sessions/<id>`): its messages turn by turn, tool calls as short lines
// that expand to their result, the model, tokens and cost of each turn and in total; and what can
// be done with it: rename (inline), export (Markdown, JSON), delete (asks first), resume in Chat.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { hrefOf } from './nav.js';
import type { SessionsApi, ToolCallView, Transcript, TranscriptMessage, Turn } from './sessions-api.js';
import { tokensText, turnModels } from './sessions-view.js';

export function SessionTranscript({ sessions, id }: { sessions: SessionsApi; id: string }) {
  const [transcript, setTranscript] = useState<Transcript | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [status, setStatus] = useState('');

  useEffect(() => {
    let current = true;
    setTranscript(null);
    setLoadError(null);
    void sessions.transcript(id).then((result) => {
      if (!current) return;
      if (result.ok) setTranscript(result.value);
      else setLoadError(result.error);
    });
    return () => {
      current = false;
    };
  }, [sessions, id]);

  // Opening a session moves the focus to its title, so a keyboard or screen-reader user starts there.
  const loaded = transcript !== null;
  useEffect(() => {
    if (loaded) document.getElementById('transcript-title')?.focus();
  }, [loaded]);

  if (loadError !== null) {
    return (
      <div className="load-error">
        <p className="error" role="alert">
          {loadError}
        </p>
        <a href={hrefOf({ page: 'sessions' })}>Back to the sessions</a>
      </div>
    );
  }
  if (transcript === null) return <p className="loading">Loading the session…</p>;
  const session = transcript.session;

  async function download(format: 'md' | 'json') {
    const result = await sessions.exportFile(session.id, format);
    if (!result.ok) return setActionError(result.error);
    setActionError(null);
    const url = URL.createObjectURL(result.value.blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = result.value.filename;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    setStatus(`Saved ${result.value.filename}.`);
  }

  return (
    <article className="transcript" aria-labelledby="transcript-title">
      <a className="transcript-back" href={hrefOf({ page: 'sessions' })}>
        ← All sessions
      </a>
      <TitleEditor
        title={session.title}
        onRename={async (title) => {
          const result = await sessions.rename(session.id, title);
          if (!result.ok) return result.error;
          setTranscript({ ...transcript, session: { ...session, title: result.value.title } });
          setStatus('Renamed.');
          return null;
        }}
      />
      <p className="transcript-meta">
        <code>{session.id}</code> · {session.source} · {session.provider} · {session.model} · {session.status} · {session.messages} message
        {session.messages === 1 ? '' : 's'} · last active {session.updated_at.slice(0, 16).replace('T', ' ')} UTC
      </p>
      <p className="transcript-totals">Total: {tokensText(transcript.totals)}</p>
      <div className="transcript-actions">
        <a className="button-link" href={hrefOf({ page: 'chat', id: session.id })}>
          Resume in Chat
        </a>
        <button type="button" onClick={() => void download('md')}>
          Export Markdown
        </button>
        <button type="button" onClick={() => void download('json')}>
          Export JSON
        </button>
        <DeleteButton
          running={session.status === 'running'}
          onDelete={async () => {
            const result = await sessions.remove(session.id);
            if (!result.ok) return setActionError(result.error);
            window.location.hash = hrefOf({ page: 'sessions' });
          }}
        />
      </div>
      <p className="status" role="status">
        {status}
      </p>
      {actionError !== null && (
        <p className="error" role="alert">
          {actionError}
        </p>
      )}
      <Turns transcript={transcript} />
    </article>
  );
}

function TitleEditor({ title, onRename }: { title: string | null; onRename: (title: string) => Promise<string | null> }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(title ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const opener = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (editing) input.current?.select();
  }, [editing]);

  function stop() {
    setEditing(false);
    setError(null);
    setTimeout(() => opener.current?.focus(), 0);
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    const problem = await onRename(draft);
    setSaving(false);
    if (problem !== null) return setError(problem);
    stop();
  }

  if (!editing) {
    return (
      <div className="transcript-head">
        <h1 id="transcript-title" tabIndex={-1}>
          {title ?? 'Untitled session'}
        </h1>
        <button
          ref={opener}
          type="button"
          onClick={() => {
            setDraft(title ?? '');
            setEditing(true);
          }}
        >
          Rename
        </button>
      </div>
    );
  }
  return (
    <form className="transcript-rename" onSubmit={(event) => void save(event)}>
      <h1 id="transcript-title" className="visually-hidden">
        {title ?? 'Untitled session'}
      </h1>
      <label>
        <span className="visually-hidden">New title</span>
        <input ref={input} type="text" value={draft} maxLength={200} onChange={(event) => setDraft(event.target.value)} onKeyDown={(event) => event.key === 'Escape' && stop()} />
      </label>
      <button type="submit" disabled={saving}>
        Save
      </button>
      <button type="button" onClick={stop}>
        Cancel
      </button>
      {error !== null && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

function DeleteButton({ running, onDelete }: { running: boolean; onDelete: () => Promise<void> }) {
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirmRef.current?.focus();
  }, [asking]);
  if (running) {
    return (
      <button type="button" disabled title="A running session can be deleted once its run ends">
        Delete
      </button>
    );
  }
  if (!asking) {
    return (
      <button type="button" className="danger" onClick={() => setAsking(true)}>
        Delete
      </button>
    );
  }
  return (
    <span className="transcript-confirm" role="group" aria-label="Confirm delete">
      <span>Delete this session and its messages? Its usage stays counted.</span>
      <button ref={confirmRef} type="button" className="danger" onClick={() => void onDelete()}>
        Delete session
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        Keep it
      </button>
    </span>
  );
}

function Turns({ transcript }: { transcript: Transcript }) {
  if (transcript.messages.length === 0) {
    return <p className="sessions-empty">This session has no messages yet. Resume it in Chat to write the first one.</p>;
  }
  const turns = new Map<number, Turn>(transcript.turns.map((turn) => [turn.turn, turn]));
  const groups = new Map<number, TranscriptMessage[]>();
  for (const message of transcript.messages) groups.set(message.turn, [...(groups.get(message.turn) ?? []), message]);
  return (
    <ol className="transcript-turns">
      {[...groups].map(([index, messages]) => {
        const turn = turns.get(index);
        return (
          <li key={index} className="transcript-turn">
            <p className="transcript-turn-head">
              <span>Turn {index + 1}</span>
              {turn && turn.calls === 0 && <span>no model calls recorded</span>}
              {turn && turn.calls > 0 && (
                <>
                  <span>{turnModels(turn)}</span>
                  <span>{tokensText(turn)}</span>
                </>
              )}
            </p>
            {messages.map((message, n) => (
              <MessageView key={n} message={message} />
            ))}
          </li>
        );
      })}
    </ol>
  );
}

function MessageView({ message }: { message: TranscriptMessage }) {
  if (message.role === 'tool') {
    return (
      <div className="transcript-message transcript-tool">
        <ToolLine name={message.name} args="" result={message.text} ok={message.ok} cutFrom={0} />
      </div>
    );
  }
  return (
    <div className={`transcript-message transcript-${message.role}`}>
      <p className="transcript-role">{message.role === 'user' ? 'User' : 'Assistant'}</p>
      {message.text !== '' && <div className="transcript-text">{message.text}</div>}
      {message.role === 'assistant' &&
        message.tool_calls.map((call) => <ToolCallLine key={call.id} call={call} />)}
    </div>
  );
}

function ToolCallLine({ call }: { call: ToolCallView }) {
  return <ToolLine name={call.name} args={call.arguments} result={call.result} ok={call.ok} cutFrom={call.result !== null && call.result_chars > call.result.length ? call.result_chars : 0} />;
}

function ToolLine({ name, args, result, ok, cutFrom }: { name: string; args: string; result: string | null; ok: boolean | null; cutFrom: number }) {
  const mark = ok === null ? '…' : ok ? '✓' : '✗';
  const state = ok === null ? 'no result' : ok ? 'ok' : 'error';
  return (
    <details className={`transcript-call transcript-call-${state.replace(' ', '-')}`}>
      <summary>
        <span className="transcript-call-mark" aria-label={state}>
          {mark}
        </span>{' '}
        <code>{name}</code> <span className="transcript-call-args">{args}</span>
      </summary>
      <pre className="transcript-call-result">{result ?? 'No result was stored (the run ended first).'}</pre>
      {cutFrom > 0 && <p className="hint">Cut short: the result has {cutFrom} characters. Export the session to read it whole.</p>}
    </details>
  );
}
