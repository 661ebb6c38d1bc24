// Who may run which chat command (DECISIONS § Dashboard sign-in and roles). An owner
// (`platforms.<p>.extra.owners`) may run them all. Any other allowed user may run all but three,
// the ones that reach past their own conversation: /sethome and /model --global rewrite config.yaml
// for everyone, and /approve lets a new person in. Pure.
import type { Config } from '../config/schema.js';
import type { ChatCommand } from './chat-commands.js';
import { configId } from './config-id.js';
import type { PlatformName } from './types.js';

export type ChatRole = 'owner' | 'user';

/** The owner-only commands, by the word their audit lines use (`chat.<action>`). */
export const OWNER_ACTIONS = ['sethome', 'model_global', 'approve'] as const;
export type OwnerAction = (typeof OWNER_ACTIONS)[number];

/** What a refused command answers: one plain sentence, and nothing changes. */
export const OWNER_ONLY_REPLY: Readonly<Record<OwnerAction, string>> = {
  sethome: 'Only an owner can use /sethome.',
  model_global: 'Only an owner can use /model --global.',
  approve: 'Only an owner can use /approve.',
};

/** The platform's owners as the platform's id strings (YAML may give a bare number: config-id.ts). */
export function platformOwners(config: Readonly<Config>, platform: PlatformName): readonly string[] {
  const section = (config.platforms as Partial<Record<PlatformName, { readonly extra?: { readonly owners?: ReadonlyArray<string | number> } }>>)[platform];
  return (section?.extra?.owners ?? []).map((id) => configId(platform, id));
}

export function chatRoleOf(owners: readonly string[], userId: string): ChatRole {
  return owners.includes(userId) ? 'owner' : 'user';
}

/** The owner-only action a command is, or undefined for one anyone allowed may run. */
export function ownerActionOf(command: ChatCommand): OwnerAction | undefined {
  switch (command.kind) {
    case 'sethome':
      return 'sethome';
    case 'approve':
      return 'approve';
    case 'model':
      return command.global ? 'model_global' : undefined;
    case 'new':
    case 'help':
    case 'unknown':
      return undefined;
  }
}

export type CommandDecision =
  | { readonly kind: 'run'; readonly ownerAction: OwnerAction | undefined }
  | { readonly kind: 'refuse'; readonly ownerAction: OwnerAction; readonly reply: string };

/** May a user of `role` run `command`? An owner command says which it is, run or refused: both are audited. */
export function decideCommand(role: ChatRole, command: ChatCommand): CommandDecision {
  const ownerAction = ownerActionOf(command);
  if (ownerAction === undefined || role === 'owner') return { kind: 'run', ownerAction };
  return { kind: 'refuse', ownerAction, reply: OWNER_ONLY_REPLY[ownerAction] };
}

/** The help's lines and who sees each: a user is not shown what they would be refused. */
const HELP_LINES: ReadonlyArray<readonly [ChatRole | 'any', string]> = [
  ['any', '/new: start a new conversation (the agent forgets this one)'],
  ['owner', "/model <name-or-alias> [--provider <p>] [--global]: switch this conversation's model (--global: also the main model, for every new session)"],
  ['user', "/model <name-or-alias> [--provider <p>]: switch this conversation's model"],
  ['any', '/model: show the current model and the choices'],
  ['owner', '/sethome: make this chat the home channel (deliveries without a chat go here)'],
  ['owner', '/approve <code>: let in the person who was sent this pairing code'],
  ['any', '/help: this list'],
];

/** What /help answers a user of `role`: only the commands they may use. */
export function chatHelp(role: ChatRole): string {
  const lines = HELP_LINES.filter(([who]) => who === 'any' || who === role).map(([, line]) => line);
  return ['Commands:', ...lines, 'Anything else goes to the agent.'].join('\n');
}
