// The commands a chat understands (DECISIONS § Chat platforms, § Dashboard sign-in and roles):
// /new, /model, /sethome, /approve, /help. Telegram appends the bot's name in groups
// (`/new@iris_bot`); it is dropped. Anything else that starts with a slash is an unknown command,
// answered with the help rather than sent to the model. Who may run which: chat-roles.ts. Pure.
import { normalisePairingCode } from './access.js';

export type ChatCommand =
  | { readonly kind: 'new' }
  /** `global`: the line names --global anywhere (see modelLineIsGlobal). */
  | { readonly kind: 'model'; readonly line: string; readonly global: boolean }
  | { readonly kind: 'sethome' }
  /** `code` is undefined when none (or more than one word) was given: the answer is the usage. */
  | { readonly kind: 'approve'; readonly code: string | undefined }
  | { readonly kind: 'help' }
  | { readonly kind: 'unknown'; readonly name: string };

/**
 * Whether a /model line may write the main model. Any word `--global` counts, even where
 * parseModelCommand would read it as --provider's value: deciding "owner only" on a superset of
 * what can write config.yaml means no spelling of the command gets past the check and still writes.
 */
export function modelLineIsGlobal(args: string): boolean {
  return args.split(/\s+/).includes('--global');
}

export const APPROVE_USAGE = 'Usage: /approve <code>, with the pairing code the new user was sent.';

export function parseChatCommand(text: string): ChatCommand | undefined {
  const match = /^\/([A-Za-z_]+)(?:@[A-Za-z0-9_]+)?(?=\s|$)(.*)$/s.exec(text.trim());
  if (!match) return undefined;
  const name = match[1]!.toLowerCase();
  const args = match[2]!.trim();
  switch (name) {
    case 'new':
      return { kind: 'new' };
    case 'model':
      return { kind: 'model', line: `/model${args ? ` ${args}` : ''}`, global: modelLineIsGlobal(args) };
    case 'sethome':
      return { kind: 'sethome' };
    case 'approve':
      return { kind: 'approve', code: args !== '' && !/\s/.test(args) ? normalisePairingCode(args) : undefined };
    case 'help':
    case 'start':
      return { kind: 'help' };
    default:
      return { kind: 'unknown', name };
  }
}

