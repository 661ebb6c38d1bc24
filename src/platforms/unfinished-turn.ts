// A message whose run was cut off (a crash, kill -9) runs again from the start. Its first run may
// have stored the user message and part of the answer (tool calls, their results) already: that
// unfinished turn is dropped first, so the history holds the message once and the model does not
// see a half-answer. Pure: the messages to keep, or undefined when there is nothing to drop.
import type { Message } from '../domain/messages.js';

function textOf(message: Message): string | undefined {
  if (message.role !== 'user') return undefined;
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

export function withoutUnfinishedTurn(messages: readonly Message[], userText: string): Message[] | undefined {
  let lastUser = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === 'user') {
      lastUser = i;
      break;
    }
  }
  if (lastUser === -1 || textOf(messages[lastUser]!) !== userText) return undefined;
  // A finished turn ends with an assistant answer without tool calls; that one stays.
  const tail = messages.slice(lastUser + 1);
  const last = tail[tail.length - 1];
  if (last && last.role === 'assistant' && !last.toolCalls?.length) return undefined;
  return messages.slice(0, lastUser);
}
