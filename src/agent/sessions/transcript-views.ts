// A stored conversation shown to a person: `iris sessions show` (a terminal transcript, tool calls
// and results in short form) and `iris sessions export --format md` (everything, as Markdown).
// Pure: the record and messages in, text out.
import type { ContentPart, Message, ToolCall } from '../../domain/messages.js';
import type { SessionSummary } from '../../store/types.js';
import { localMinute, oneLine, sessionJson, type SessionJson } from './listing.js';

function partText(part: ContentPart): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'image':
      // Base64 length → bytes, so a person sees the size, not the data.
      return `[image: ${part.mediaType}, ${Math.floor((part.data.length * 3) / 4)} bytes]`;
    case 'image_url':
      return `[image: ${part.url}]`;
  }
}

function userText(content: string | readonly ContentPart[]): string {
  return typeof content === 'string' ? content : content.map(partText).join('\n');
}

function callSummary(call: ToolCall): string {
  const args = call.invalidArguments !== undefined ? call.invalidArguments : JSON.stringify(call.arguments);
  return `${call.name} ${oneLine(args, 100)}`;
}

function heading(session: SessionSummary): string[] {
  return [
    `session ${session.id}${session.title === null ? '' : ` — ${session.title}`}`,
    `  ${session.source} · ${session.provider} · ${session.model} · ${session.status} · ${session.messageCount} message${session.messageCount === 1 ? '' : 's'}`,
    `  created ${localMinute(session.createdAt)} · last active ${localMinute(session.updatedAt)}`,
  ];
}

/** The terminal transcript: every message, tool calls as `→ name {args}`, results as one line. */
export function transcriptText(session: SessionSummary, messages: readonly Message[]): string {
  const lines = heading(session);
  for (const message of messages) {
    lines.push('');
    if (message.role === 'user') lines.push(`user: ${userText(message.content)}`);
    else if (message.role === 'assistant') {
      if (message.content) lines.push(`assistant: ${message.content}`);
      for (const call of message.toolCalls ?? []) lines.push(`  → ${callSummary(call)}`);
      if (!message.content && !message.toolCalls?.length) lines.push('assistant: (empty)');
    } else {
      const count = message.content.split('\n').length;
      const first = oneLine(message.content.split('\n')[0] ?? '', 100);
      lines.push(`  ${message.isError ? '✗' : '←'} ${message.name}: ${first}${count > 1 ? ` (${count} lines)` : ''}`);
    }
  }
  if (messages.length === 0) lines.push('', '(no messages yet)');
  return lines.join('\n');
}

/** A fence longer than any run of backticks inside, so the content cannot close it. */
function fenced(text: string, info = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${info}\n${text}${text.endsWith('\n') ? '' : '\n'}${fence}`;
}

/** The whole session as Markdown: metadata, then every message in full. */
export function transcriptMarkdown(session: SessionSummary, messages: readonly Message[]): string {
  const json = sessionJson(session);
  const out = [
    `# ${session.title ?? `Session ${session.id}`}`,
    '',
    `- id: \`${json.id}\``,
    `- source: ${json.source}`,
    `- model: ${json.provider} · ${json.model}`,
    `- status: ${json.status}`,
    `- created: ${json.created_at}`,
    `- last active: ${json.updated_at}`,
    `- messages: ${json.messages}`,
  ];
  for (const message of messages) {
    out.push('');
    if (message.role === 'user') out.push('## User', '', userText(message.content));
    else if (message.role === 'assistant') {
      out.push('## Assistant');
      if (message.content) out.push('', message.content);
      for (const call of message.toolCalls ?? []) {
        const args = call.invalidArguments !== undefined ? call.invalidArguments : JSON.stringify(call.arguments, null, 2);
        out.push('', `Tool call \`${call.name}\` (id \`${call.id}\`):`, '', fenced(args, call.invalidArguments !== undefined ? '' : 'json'));
      }
    } else {
      out.push(`## Tool result: ${message.name}${message.isError ? ' (error)' : ''}`, '', fenced(message.content));
    }
  }
  return `${out.join('\n')}\n`;
}

export type SessionExport = { readonly session: SessionJson; readonly messages: readonly Message[] };

/** `show --json` and `export --format json`: the listed row and the messages exactly as stored. */
export function transcriptJson(session: SessionSummary, messages: readonly Message[]): SessionExport {
  return { session: sessionJson(session), messages };
}
