// The Chat page's session picker: New chat, and the recent chats (this dashboard's and `iris
// chat`'s), each a link to `#/chat/<id>`.
import { hrefOf } from './nav.js';
import type { ChatSummary } from './chat-api.js';

export function chatName(title: string | null): string {
  return title ?? 'Untitled chat';
}

export function ChatPicker({ chats, current, onNew, creating, error }: { chats: readonly ChatSummary[] | null; current?: string; onNew: () => void; creating: boolean; error: string | null }) {
  return (
    <nav className="chat-picker" aria-label="Chats">
      <button type="button" className="primary chat-new" onClick={onNew} disabled={creating}>
        New chat
      </button>
      <h2 className="chat-picker-head">Recent chats</h2>
      {error !== null && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {chats === null && error === null && <p className="loading">Loading…</p>}
      {chats?.length === 0 && <p className="hint">No chats yet: New chat starts one.</p>}
      {chats !== null && chats.length > 0 && (
        <ul className="chat-list">
          {chats.map((chat) => (
            <li key={chat.id}>
              <a href={hrefOf({ page: 'chat', id: chat.id })} aria-current={chat.id === current ? 'page' : undefined}>
                <span className="chat-list-title">{chatName(chat.title)}</span>
                <span className="chat-list-meta">
                  {chat.running ? 'answering · ' : ''}
                  {chat.source === 'cli' ? 'CLI · ' : ''}
                  {chat.model}
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
