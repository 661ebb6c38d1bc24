// One chat on the Chat page: its header (title, the model it uses, whether it is answering), the
// conversation as it streams in, and the box. The stream's snapshot is the truth on every
// (re)connect; the events in between are folded in the same way the server folds them.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DashboardApi } from './api.js';
import { applyChatEvent, isRunEnd, type ChatItem } from '../chat/chat-items.js';
import type { ChatApi, ChatView } from './chat-api.js';
import { ChatComposer } from './chat-composer.js';
import { ChatItems } from './chat-items-view.js';
import { chatName } from './chat-picker.js';
import { watchChat } from './chat-stream.js';

type Props = { readonly api: DashboardApi; readonly chat: ChatApi; readonly id: string; readonly onChanged: () => void };

export function ChatConversation({ api, chat, id, onChanged }: Props) {
  const [view, setView] = useState<ChatView | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [items, setItems] = useState<ChatItem[] | null>(null);
  const [running, setRunning] = useState(false);
  const [streamProblem, setStreamProblem] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [answering, setAnswering] = useState<ReadonlySet<string>>(new Set());
  const end = useRef<HTMLDivElement | null>(null);

  const reloadView = useCallback(async () => {
    const result = await chat.get(id);
    if (result.ok) setView(result.value);
    setLoadError(result.ok ? null : result.error);
  }, [chat, id]);

  useEffect(() => {
    void reloadView();
  }, [reloadView]);

  useEffect(() => {
    const controller = new AbortController();
    watchChat(
      api,
      id,
      {
        onSnapshot: (snapshot) => {
          setItems(snapshot.items);
          setRunning(snapshot.running);
        },
        onEvent: (event) => {
          setItems((before) => applyChatEvent(before ?? [], event));
          if (event.type === 'run_start') setRunning(true);
          if (isRunEnd(event)) {
            setRunning(false);
            // The title comes after the first answer; the picker shows it and the new time.
            void reloadView();
            onChanged();
          }
        },
        onConnection: setStreamProblem,
      },
      controller.signal,
    );
    return () => controller.abort();
  }, [api, id, reloadView, onChanged]);

  // Follow the answer while the reader is at the bottom; leave them be when they scrolled up.
  useEffect(() => {
    const nearBottom = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 160;
    if (nearBottom) end.current?.scrollIntoView({ block: 'end' });
  }, [items]);

  const onSend = async (text: string): Promise<boolean> => {
    setActionError(null);
    const result = await chat.send(id, text);
    if (!result.ok) {
      setActionError(result.error);
      return false;
    }
    const answer = result.value;
    if (answer.reply !== undefined) {
      const reply = answer.reply;
      setItems((before) => [...(before ?? []), { kind: 'notice', text: `${text.trim()}\n${reply}` }]);
    }
    if (answer.session && answer.model) setView({ session: answer.session, model: answer.model, running: false });
    if (answer.run !== undefined) setRunning(true);
    return true;
  };

  const onStop = () => {
    setActionError(null);
    void chat.stop(id).then((result) => setActionError(result.ok ? null : result.error));
  };

  const onAnswer = (approvalId: string, decision: 'approve' | 'deny') => {
    setActionError(null);
    setAnswering((before) => new Set([...before, approvalId]));
    void chat.answer(approvalId, decision).then((result) => {
      setAnswering((before) => new Set([...before].filter((x) => x !== approvalId)));
      if (!result.ok) setActionError(result.error);
    });
  };

  if (loadError !== null && view === null) {
    return (
      <section className="chat-main">
        <p className="error load-error" role="alert">
          {loadError}
        </p>
      </section>
    );
  }

  return (
    <section className="chat-main" aria-label="Conversation">
      <header className="chat-head">
        <h2>{view ? chatName(view.session.title) : 'Loading…'}</h2>
        {view && (
          <p className="chat-model">
            Model: <strong>{`${view.model.provider} · ${view.model.model}`}</strong>
          </p>
        )}
        <p className="status chat-state" role="status">
          {running ? 'Answering…' : ''}
        </p>
      </header>
      {streamProblem !== null && (
        <p className="error" role="alert">
          {streamProblem}
        </p>
      )}
      {items === null ? (
        <p className="loading">Loading the conversation…</p>
      ) : items.length === 0 ? (
        <div className="chat-empty">
          <p>Nothing said yet. Type a message below and press Enter.</p>
          <p className="hint">
            <code>/model &lt;name&gt;</code> switches this chat&rsquo;s model (others keep theirs); <code>/help</code> lists the commands.
          </p>
        </div>
      ) : (
        <ChatItems items={items} onAnswer={onAnswer} answering={answering} />
      )}
      <div ref={end} />
      {actionError !== null && (
        <p className="error" role="alert">
          {actionError}
        </p>
      )}
      <ChatComposer running={running} onSend={onSend} onStop={onStop} />
    </section>
  );
}
