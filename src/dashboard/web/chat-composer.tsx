// The Chat page's box: Enter sends, Shift+Enter starts a new line (and an IME's Enter finishes
// its word); /model and the other chat commands go the same way. Stop shows while an answer runs.
import { useState, type FormEvent, type KeyboardEvent } from 'react';

export function ChatComposer({ running, onSend, onStop }: { running: boolean; onSend: (text: string) => Promise<boolean>; onStop: () => void }) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);

  async function send() {
    if (sending || running || text.trim() === '') return;
    setSending(true);
    const sent = await onSend(text);
    setSending(false);
    if (sent) setText('');
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void send();
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void send();
  }

  return (
    <form className="chat-composer" onSubmit={onSubmit}>
      <label htmlFor="chat-input" className="chat-composer-label">
        Message
      </label>
      <textarea
        id="chat-input"
        rows={3}
        value={text}
        placeholder="Ask something, or /help for the commands"
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="chat-composer-actions">
        <span className="hint">Enter sends · Shift+Enter for a new line · /model switches this chat's model</span>
        {running ? (
          <button type="button" className="chat-stop" onClick={onStop}>
            Stop
          </button>
        ) : (
          <button type="submit" className="primary" disabled={sending || text.trim() === ''}>
            Send
          </button>
        )}
      </div>
    </form>
  );
}
