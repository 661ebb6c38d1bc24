// How full a session's context is, and where compression may cut. Pure.
import type { Message } from '../domain/messages.js';

/** A rough count for text we have no usage numbers for: about four characters a token. */
export function estimateTokens(messages: readonly Message[], system = ''): number {
  let chars = system.length;
  for (const message of messages) {
    if (message.role === 'user') {
      chars += typeof message.content === 'string'
        ? message.content.length
        : message.content.reduce((n, part) => n + (part.type === 'text' ? part.text.length : 1000), 0);
    } else if (message.role === 'assistant') {
      chars += message.content.length + (message.toolCalls ?? []).reduce((n, c) => n + JSON.stringify(c.arguments).length + c.name.length, 0);
    } else {
      chars += message.content.length;
    }
  }
  return Math.ceil(chars / 4);
}

export function overThreshold(tokens: number, contextLength: number, threshold: number): boolean {
  return tokens >= Math.floor(contextLength * threshold);
}

/**
 * Where to cut for compression: everything before the returned index is summarised, the rest is
 * kept verbatim. The cut is always at a user message, so no tool call is separated from its
 * result, and the last `keepTurns` user turns stay as they are. 0 means nothing can be cut.
 */
export function compressionCut(messages: readonly Message[], keepTurns = 2): number {
  const userIndexes = messages.flatMap((m, i) => (m.role === 'user' ? [i] : []));
  if (userIndexes.length <= keepTurns) return 0;
  return userIndexes[userIndexes.length - keepTurns] ?? 0;
}
