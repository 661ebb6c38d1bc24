// What the Chat page shows, and the events that change it. The server builds the items of a
// stored conversation (the store is the truth once a run ends) and folds a running turn's events
// into them the same way the page does, so a tab that opens mid-answer and a tab that watched it
// all show the same thing. Pure, and free of Node imports: the page imports this file too.

/** Tool arguments and results are cut to this many characters for the page (the store keeps them whole). */
export const SHOWN_CHARS = 4000;

export type RiskView = { readonly level: 'low' | 'high'; readonly reasons: readonly string[]; readonly source: 'pattern' | 'model' | 'default' };

export type ChatItem =
  | { readonly kind: 'user'; readonly text: string }
  | { readonly kind: 'assistant'; readonly text: string }
  /** `ok` and `result` are missing while the tool runs. */
  | { readonly kind: 'tool'; readonly id: string; readonly name: string; readonly arguments: string; readonly ok?: boolean; readonly result?: string }
  /** `answer` is missing while the approval waits for someone. */
  | {
      readonly kind: 'approval';
      readonly id: string;
      readonly command: string;
      readonly cwd: string;
      readonly risk: RiskView;
      readonly answer?: { readonly approved: boolean; readonly reason: string };
    }
  | { readonly kind: 'notice'; readonly text: string }
  | { readonly kind: 'error'; readonly text: string };

/** What a run sends while it goes; the last one of a run is `done`, `error` or `stopped`. */
export type ChatEvent =
  | { readonly type: 'run_start'; readonly runId: string; readonly text: string }
  | { readonly type: 'text'; readonly delta: string }
  | { readonly type: 'tool_start'; readonly id: string; readonly name: string; readonly arguments: string }
  | { readonly type: 'tool_end'; readonly id: string; readonly ok: boolean; readonly result: string }
  | { readonly type: 'approval'; readonly id: string; readonly command: string; readonly cwd: string; readonly risk: RiskView }
  | { readonly type: 'approval_done'; readonly id: string; readonly approved: boolean; readonly reason: string }
  | { readonly type: 'notice'; readonly text: string }
  | { readonly type: 'done'; readonly reason: 'done' | 'max_iterations' }
  | { readonly type: 'error'; readonly message: string }
  | { readonly type: 'stopped' };

export type RunEndEvent = Extract<ChatEvent, { type: 'done' | 'error' | 'stopped' }>;

export const CHAT_EVENT_TYPES = ['run_start', 'text', 'tool_start', 'tool_end', 'approval', 'approval_done', 'notice', 'done', 'error', 'stopped'] as const;

export function isRunEnd(event: ChatEvent): event is RunEndEvent {
  return event.type === 'done' || event.type === 'error' || event.type === 'stopped';
}

export function shorten(text: string, max = SHOWN_CHARS): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The stored messages' shape, structurally (the page has no access to the domain types' module graph). */
type StoredPart = { readonly type: string; readonly text?: string };
export type StoredMessage =
  | { readonly role: 'user'; readonly content: string | readonly StoredPart[] }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls?: readonly { readonly id: string; readonly name: string; readonly arguments: unknown; readonly invalidArguments?: string }[] }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly name: string; readonly content: string; readonly isError?: boolean };

function userText(content: string | readonly StoredPart[]): string {
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? (part.text ?? '') : '[image]')).join('\n');
}

/**
 * A stored conversation as the page shows it: tool results sit on their call's step. `clean` is
 * applied to a step's arguments and result before they are cut (the server passes the log's
 * redaction: a command's output can hold a credential, and the page is seen by the whole team).
 */
export function itemsFromMessages(messages: readonly StoredMessage[], clean: (text: string) => string = (text) => text): ChatItem[] {
  let items: ChatItem[] = [];
  for (const message of messages) {
    if (message.role === 'user') items.push({ kind: 'user', text: userText(message.content) });
    else if (message.role === 'assistant') {
      if (message.content !== '') items.push({ kind: 'assistant', text: message.content });
      for (const call of message.toolCalls ?? []) {
        items.push({ kind: 'tool', id: call.id, name: call.name, arguments: shorten(clean(call.invalidArguments ?? JSON.stringify(call.arguments))) });
      }
    } else {
      items = finishTool(items, message.toolCallId, !message.isError, shorten(clean(message.content)));
    }
  }
  return items;
}

function finishTool(items: ChatItem[], id: string, ok: boolean, result: string): ChatItem[] {
  // The newest step with that id: ids are unique per answer, not per conversation.
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind === 'tool' && item.id === id) {
      const next = items.slice();
      next[i] = { ...item, ok, result };
      return next;
    }
  }
  return items;
}

/** Folds one event into the items (a new array; the old one is untouched). */
export function applyChatEvent(items: readonly ChatItem[], event: ChatEvent): ChatItem[] {
  const last = items[items.length - 1];
  switch (event.type) {
    case 'run_start':
      return [...items, { kind: 'user', text: event.text }];
    case 'text':
      if (event.delta === '') return items.slice();
      if (last?.kind === 'assistant') return [...items.slice(0, -1), { kind: 'assistant', text: last.text + event.delta }];
      return [...items, { kind: 'assistant', text: event.delta }];
    case 'tool_start':
      return [...items, { kind: 'tool', id: event.id, name: event.name, arguments: event.arguments }];
    case 'tool_end':
      return finishTool(items.slice(), event.id, event.ok, event.result);
    case 'approval':
      return [...items, { kind: 'approval', id: event.id, command: event.command, cwd: event.cwd, risk: event.risk }];
    case 'approval_done':
      return items.map((item) => (item.kind === 'approval' && item.id === event.id ? { ...item, answer: { approved: event.approved, reason: event.reason } } : item));
    case 'notice':
      return [...items, { kind: 'notice', text: event.text }];
    case 'done':
      return event.reason === 'max_iterations' ? [...items, { kind: 'notice', text: 'stopped: the answer reached agent.max_iterations' }] : items.slice();
    case 'error':
      return [...items, { kind: 'error', text: event.message }];
    case 'stopped':
      return [...items, { kind: 'notice', text: 'stopped; the session keeps what was said' }];
  }
}
