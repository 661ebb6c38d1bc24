// Who may run which chat command: every command × role, the refusal sentences, the help by role,
// and the owners as config.yaml gives them (numbers too).
import { describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema.js';
import { parseChatCommand, type ChatCommand } from './chat-commands.js';
import { chatHelp, chatRoleOf, decideCommand, OWNER_ACTIONS, platformOwners, type ChatRole, type CommandDecision } from './chat-roles.js';

const command = (text: string): ChatCommand => {
  const parsed = parseChatCommand(text);
  if (!parsed) throw new Error(`not a command: ${text}`);
  return parsed;
};

const run = (ownerAction?: (typeof OWNER_ACTIONS)[number]): CommandDecision => ({ kind: 'run', ownerAction });
const refuse = (ownerAction: (typeof OWNER_ACTIONS)[number], reply: string): CommandDecision => ({ kind: 'refuse', ownerAction, reply });

describe('decideCommand: every command × role', () => {
  const table: ReadonlyArray<readonly [string, ChatRole, CommandDecision]> = [
    ['/new', 'owner', run()],
    ['/new', 'user', run()],
    ['/help', 'owner', run()],
    ['/help', 'user', run()],
    ['/frobnicate', 'owner', run()],
    ['/frobnicate', 'user', run()],
    ['/model', 'owner', run()],
    ['/model', 'user', run()],
    ['/model other-m', 'owner', run()],
    ['/model other-m', 'user', run()],
    ['/model other-m --global', 'owner', run('model_global')],
    ['/model other-m --global', 'user', refuse('model_global', 'Only an owner can use /model --global.')],
    ['/model --global', 'user', refuse('model_global', 'Only an owner can use /model --global.')],
    ['/model x --provider --global', 'user', refuse('model_global', 'Only an owner can use /model --global.')],
    ['/sethome', 'owner', run('sethome')],
    ['/sethome', 'user', refuse('sethome', 'Only an owner can use /sethome.')],
    ['/approve K7Q2M9XD', 'owner', run('approve')],
    ['/approve K7Q2M9XD', 'user', refuse('approve', 'Only an owner can use /approve.')],
    // Refused before the usage: a user learns nothing about the command.
    ['/approve', 'user', refuse('approve', 'Only an owner can use /approve.')],
    ['/approve', 'owner', run('approve')],
  ];
  it.each(table)('%s as %s', (text, role, expected) => {
    expect(decideCommand(role, command(text))).toEqual(expected);
  });
  it('the table covers every kind of command and every owner action, for both roles', () => {
    const kinds = new Set(table.map(([text]) => command(text).kind));
    expect([...kinds].sort()).toEqual(['approve', 'help', 'model', 'new', 'sethome', 'unknown']);
    for (const role of ['owner', 'user'] as const) {
      const actions = table.filter(([, r]) => r === role).flatMap(([, , d]) => (d.ownerAction ? [d.ownerAction] : []));
      expect(new Set(actions)).toEqual(new Set(OWNER_ACTIONS));
    }
  });
});

describe('chatRoleOf', () => {
  it('is owner only for a listed id, compared as the exact string', () => {
    expect(chatRoleOf(['111', '+15551234567'], '111')).toBe('owner');
    expect(chatRoleOf(['111', '+15551234567'], '+15551234567')).toBe('owner');
    expect(chatRoleOf(['111'], '1111')).toBe('user');
    expect(chatRoleOf(['111'], ' 111')).toBe('user');
    expect(chatRoleOf([], '111')).toBe('user');
  });
});

describe('platformOwners', () => {
  it('reads platforms.<p>.extra.owners as strings: numbers as decimals, E.164 numbers with their +', () => {
    const config = configSchema.parse({
      platforms: { telegram: { extra: { owners: [111, '222'] } }, sms: { extra: { owners: [15551234567, '+15557654321'] } } },
    });
    expect(platformOwners(config, 'telegram')).toEqual(['111', '222']);
    expect(platformOwners(config, 'sms')).toEqual(['+15551234567', '+15557654321']);
    expect(platformOwners(config, 'discord')).toEqual([]);
  });
});

describe('chatHelp', () => {
  it("an owner's list has /approve, /sethome and the --global form", () => {
    expect(chatHelp('owner')).toBe(
      [
        'Commands:',
        '/new: start a new conversation (the agent forgets this one)',
        "/model <name-or-alias> [--provider <p>] [--global]: switch this conversation's model (--global: also the main model, for every new session)",
        '/model: show the current model and the choices',
        '/sethome: make this chat the home channel (deliveries without a chat go here)',
        '/approve <code>: let in the person who was sent this pairing code',
        '/help: this list',
        'Anything else goes to the agent.',
      ].join('\n'),
    );
  });
  it("a user's list has none of the owner commands", () => {
    expect(chatHelp('user')).toBe(
      [
        'Commands:',
        '/new: start a new conversation (the agent forgets this one)',
        "/model <name-or-alias> [--provider <p>]: switch this conversation's model",
        '/model: show the current model and the choices',
        '/help: this list',
        'Anything else goes to the agent.',
      ].join('\n'),
    );
    for (const word of ['/approve', '/sethome', '--global']) expect(chatHelp('user')).not.toContain(word);
  });
});
