// The commands a chat understands (DECISIONS § Chat platforms): /new, /model, /sethome, /help.
// Telegram appends the bot's name in groups (`/new@iris_bot`); it is dropped. Anything else that
// starts with a slash is an unknown command, answered with the help rather than sent to the model.
// Pure.

export type ChatCommand =
  | { readonly kind: 'new' }
  | { readonly kind: 'model'; readonly line: string }
  | { readonly kind: 'sethome' }
  | { readonly kind: 'help' }
  | { readonly kind: 'unknown'; readonly name: string };

export function parseChatCommand(text: string): ChatCommand | undefined {
  const match = /^\/([A-Za-z_]+)(?:@[A-Za-z0-9_]+)?(?=\s|$)(.*)$/s.exec(text.trim());
  if (!match) return undefined;
  const name = match[1]!.toLowerCase();
  const args = match[2]!.trim();
  switch (name) {
    case 'new':
      return { kind: 'new' };
    case 'model':
      return { kind: 'model', line: `/model${args ? ` ${args}` : ''}` };
    case 'sethome':
      return { kind: 'sethome' };
    case 'help':
    case 'start':
      return { kind: 'help' };
    default:
      return { kind: 'unknown', name };
  }
}

export const CHAT_HELP = [
  'Commands:',
  '/new: start a new conversation (the agent forgets this one)',
  '/model <name-or-alias> [--provider <p>] [--global]: switch this conversation\'s model',
  '/model: show the current model and the choices',
  '/sethome: make this chat the home channel (deliveries without a chat go here)',
  '/help: this list',
  'Anything else goes to the agent.',
].join('\n');
