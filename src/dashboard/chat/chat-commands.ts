// What a line typed in the Chat page's box asks for: a message for the model, or one of the
// session commands `iris chat` understands. The ones about choosing a session (/new, /resume,
// /sessions) and leaving (/exit) belong to the page's session picker here, and say so. Pure.
import { parseSessionCommand } from '../../cli/commands/chat-session-commands.js';

export type ChatLine =
  | { readonly kind: 'message'; readonly text: string }
  /** `/model …`, handled as in the CLI (applyModelCommand): the line as typed. */
  | { readonly kind: 'model'; readonly line: string }
  | { readonly kind: 'title'; readonly title: string }
  /** A command answered with text alone (/help, the picker's commands, an unknown one). */
  | { readonly kind: 'reply'; readonly text: string };

export const CHAT_HELP = `commands:
  /model                                               this chat's model, and what it can switch to
  /model <name-or-alias> [--provider <p>] [--global]   switch this chat's model (--global: also config.yaml, for new chats)
  /title <text>                                        name this chat
  /help                                                this list
New chat and Recent chats above start or open another chat; Stop ends a running answer and keeps what was said.`;

const PICKER_COMMANDS = new Set(['/new', '/resume', '/sessions', '/exit', '/quit']);

export function parseChatLine(input: string): ChatLine {
  const text = input.trim();
  if (!text.startsWith('/')) return { kind: 'message', text };
  const word = text.split(/\s/, 1)[0]!;
  if (word === '/model') return { kind: 'model', line: text };
  if (word === '/help') return { kind: 'reply', text: CHAT_HELP };
  if (PICKER_COMMANDS.has(word)) return { kind: 'reply', text: `${word} is the CLI's; here, New chat and Recent chats (above) start or open another chat` };
  const session = parseSessionCommand(text);
  if (session?.kind === 'title') return { kind: 'title', title: session.title };
  return { kind: 'reply', text: `unknown command ${word}; /help lists them` };
}
