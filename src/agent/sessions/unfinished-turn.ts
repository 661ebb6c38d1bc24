// A message whose run was cut off (a crash, kill -9) runs again. Its first run may have stored the
// user message and part of the answer (tool calls, their results) already: that unfinished turn is
// dropped first, so the history holds the message once and the model does not see a half-answer.
// Or the first run finished (its answer is in the session) and only the record of it was lost:
// then that answer is the reply, and the model is not asked again. Pure.
import type { Message } from '../../domain/messages.js';

function textOf(message: Message): string | undefined {
  if (message.role !== 'user') return undefined;
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

type LastTurn = { readonly start: number; readonly answer: string | undefined };

/** The last turn if it is this message's: where it starts, and its final answer if it has one. */
function lastTurnOf(messages: readonly Message[], userText: string): LastTurn | undefined {
  let start = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === 'user') {
      start = i;
      break;
    }
  }
  if (start === -1 || textOf(messages[start]!) !== userText) return undefined;
  // A finished turn ends with an assistant answer without tool calls.
  const last = messages[messages.length - 1]!;
  const finished = start < messages.length - 1 && last.role === 'assistant' && !last.toolCalls?.length;
  return { start, answer: finished && last.role === 'assistant' ? last.content : undefined };
}

/** The messages to keep when the last turn is this message's and unfinished; else undefined. */
export function withoutUnfinishedTurn(messages: readonly Message[], userText: string): Message[] | undefined {
  const turn = lastTurnOf(messages, userText);
  return turn && turn.answer === undefined ? messages.slice(0, turn.start) : undefined;
}

/** The answer of the last turn when it is this message's and finished; else undefined. */
export function finishedAnswer(messages: readonly Message[], userText: string): string | undefined {
  return lastTurnOf(messages, userText)?.answer;
}
