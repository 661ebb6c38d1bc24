// The prompts of the side-jobs the agent runs through their slots, and how their answers are
// read. Pure, so the exact wording is tested.
import type { Message } from '../domain/messages.js';

export const TITLE_SYSTEM =
  'You name conversations. Answer with a title of at most 8 words for the conversation below: ' +
  'no quotes, no trailing punctuation, nothing else.';

function messageText(message: Message): string {
  switch (message.role) {
    case 'user':
      return typeof message.content === 'string'
        ? message.content
        : message.content.map((p) => (p.type === 'text' ? p.text : '[image]')).join(' ');
    case 'assistant': {
      const calls = (message.toolCalls ?? []).map((c) => `[called ${c.name} ${JSON.stringify(c.arguments)}]`);
      return [message.content, ...calls].filter(Boolean).join(' ');
    }
    case 'tool':
      return `[${message.name} ${message.isError ? 'failed' : 'returned'}] ${message.content}`;
  }
}

/** The conversation as plain text for a side-job, each message capped. */
export function transcript(messages: readonly Message[], capPerMessage = 4000): string {
  return messages
    .map((m) => {
      const text = messageText(m);
      const capped = text.length > capPerMessage ? `${text.slice(0, capPerMessage)} […]` : text;
      return `${m.role.toUpperCase()}: ${capped}`;
    })
    .join('\n\n');
}

/** A title from the model's answer: first line, no quotes or trailing punctuation, ≤ 80 chars. */
export function cleanTitle(answer: string): string | undefined {
  const line = answer.trim().split('\n')[0]?.trim() ?? '';
  const title = line.replace(/^(title:\s*)/i, '').replace(/^["'`*]+|["'`*]+$/g, '').replace(/[.!?:;,]+$/, '').trim();
  if (!title) return undefined;
  return title.length > 80 ? `${title.slice(0, 79)}…` : title;
}

export const COMPRESSION_SYSTEM =
  'You compress the early part of a working session between a user and a coding agent so that ' +
  'the agent can continue without it. Write a concise summary that keeps: the user\'s goals and ' +
  'constraints, decisions made, files and commands involved, results and errors seen, and what ' +
  'is still open. Plain text, no preamble.';

export const SUMMARY_PREFIX = '[Summary of the earlier conversation, written when it was compressed]\n';

export function summaryMessage(summary: string): Message {
  return { role: 'user', content: `${SUMMARY_PREFIX}${summary.trim()}` };
}
