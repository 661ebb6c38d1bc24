// The Chat page (issue 38): a native chat on the agent `iris chat` runs. The picker lists recent
// chats and starts new ones; `#/chat/<id>` opens one (the Sessions page's "Resume in Chat" links
// there).
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { DashboardApi } from '../api.js';
import { chatApi, type ChatSummary } from '../chat-api.js';
import { ChatConversation } from '../chat-conversation.js';
import { ChatPicker } from '../chat-picker.js';
import { hrefOf } from '../nav.js';

export function ChatPage({ api, id }: { api: DashboardApi; id?: string }) {
  const chat = useMemo(() => chatApi(api), [api]);
  const [chats, setChats] = useState<ChatSummary[] | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);

  const refreshList = useCallback(async () => {
    const result = await chat.list();
    if (result.ok) setChats(result.value);
    setListError(result.ok ? null : result.error);
  }, [chat]);

  useEffect(() => {
    void refreshList();
  }, [refreshList]);

  const onChanged = useCallback(() => void refreshList(), [refreshList]);

  const onNew = async () => {
    setCreating(true);
    const result = await chat.create();
    setCreating(false);
    if (!result.ok) return setListError(result.error);
    window.location.hash = hrefOf({ page: 'chat', id: result.value.session.id });
    void refreshList();
  };

  return (
    <main className="page chat-page">
      <div className="page-head">
        <h1>Chat</h1>
      </div>
      <div className="chat-layout">
        <ChatPicker chats={chats} {...(id !== undefined ? { current: id } : {})} onNew={() => void onNew()} creating={creating} error={listError} />
        {id !== undefined ? (
          <ChatConversation key={id} api={api} chat={chat} id={id} onChanged={onChanged} />
        ) : (
          <section className="chat-main chat-empty">
            <h2>No chat open</h2>
            <p>Start a New chat, or open one of the recent chats. A new chat uses the main model set on the Models page; an open chat keeps its own.</p>
          </section>
        )}
      </div>
    </main>
  );
}
