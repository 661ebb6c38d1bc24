// The owner-only chat commands, run or refused (chat-roles.ts decides which): /sethome,
// /model --global and /approve. Each one, whatever became of it, leaves one line in logs/audit.log
// (DECISIONS § Dashboard sign-in and roles): who (`<platform>:<user id>`), from which chat, what,
// and on what. An /approve line names the user it let in, never the code: a code read from the log
// within its hour would let anyone in.
import { NoMainModelError } from '../agent/agent.js';
import { parseModelCommand } from '../agent/model-command.js';
import type { ModelSwitch } from '../agent/model-switch.js';
import type { HomePaths } from '../config/home.js';
import type { Config } from '../config/schema.js';
import { updateConfig } from '../config/store.js';
import { setScalarIn } from '../config/yaml-document.js';
import type { AuditEntry, AuditLog } from '../security/audit-log.js';
import type { InboundRecord } from '../store/platform-types.js';
import type { Store } from '../store/types.js';
import { APPROVE_USAGE, type ChatCommand } from './chat-commands.js';
import type { OwnerAction } from './chat-roles.js';
import type { PlatformLog, PlatformName } from './types.js';

export type CommandReply = { readonly kind: 'answered' | 'failed'; readonly text: string; readonly error?: string };

/** What the audit line says about one owner command. */
export type OwnerCommandResult = { readonly target: string; readonly ok: boolean; readonly reason?: string };

type Who = Pick<InboundRecord, 'platform' | 'userId' | 'chatId'>;

export const NOT_AN_OWNER = 'not an owner';

/** The audit line of an owner command. Pure. */
export function ownerAuditEntry(who: Who, action: OwnerAction, result: OwnerCommandResult): AuditEntry {
  return {
    actor: `${who.platform}:${who.userId}`,
    from: `${who.platform}:${who.chatId}`,
    action: `chat.${action}`,
    target: result.target,
    ok: result.ok,
    ...(result.reason === undefined ? {} : { reason: result.reason }),
  };
}

/**
 * What a command was aimed at, before it ran: the chat for /sethome, the model asked for, nothing
 * for /approve (its only argument is the code). Pure.
 */
export function commandTarget(action: OwnerAction, command: ChatCommand, chatId: string): string {
  if (action === 'sethome') return chatId;
  if (action === 'approve' || command.kind !== 'model') return '';
  const parsed = parseModelCommand(command.line);
  if (!parsed.ok) return '';
  return parsed.command.provider ? `${parsed.command.provider}/${parsed.command.name}` : parsed.command.name;
}

export type OwnerCommandDeps = {
  readonly paths: HomePaths;
  readonly store: Store;
  readonly log: PlatformLog;
  readonly audit: AuditLog;
  readonly nowMs: () => number;
  /** /model with --global in the conversation's session (the runner owns runtimes and sessions). */
  readonly switchModel: (record: InboundRecord, line: string, config: Readonly<Config>) => Promise<ModelSwitch>;
  readonly onHomeChannel?: (platform: PlatformName, chatId: string) => void;
};

type Done = { readonly reply: CommandReply; readonly result: OwnerCommandResult };

const answered = (text: string): CommandReply => ({ kind: 'answered', text });

export function createOwnerCommands(deps: OwnerCommandDeps) {
  const { log } = deps;

  async function sethome(record: InboundRecord): Promise<Done> {
    const target = record.chatId;
    const written = await updateConfig(deps.paths, (doc) => setScalarIn(doc, ['platforms', record.platform, 'extra', 'home_channel'], record.chatId));
    if (!written.ok) {
      const reply: CommandReply = { kind: 'failed', text: `The home channel was not changed: ${written.error.message}`, error: written.error.message };
      return { reply, result: { target, ok: false, reason: written.error.message } };
    }
    log.info({ platform: record.platform, chat_id: record.chatId, user_id: record.userId }, 'home channel set by /sethome');
    deps.onHomeChannel?.(record.platform, record.chatId);
    return { reply: answered(`This chat is now the home channel for ${record.platform}: deliveries without a chat come here.`), result: { target, ok: true } };
  }

  async function approve(code: string | undefined, record: InboundRecord): Promise<Done> {
    if (code === undefined) return { reply: answered(APPROVE_USAGE), result: { target: '', ok: false, reason: 'no code given' } };
    // The same store call as `iris pairing approve`: the code is spent, the user approved, in one transaction.
    const approved = await deps.store.platforms.approvePairing(record.platform, code, deps.nowMs());
    if (!approved) {
      const text = `No pending pairing code ${code} on ${record.platform}: it expired (codes last an hour) or was never issued.`;
      return { reply: answered(text), result: { target: '', ok: false, reason: 'unknown or expired code' } };
    }
    log.info({ platform: record.platform, user_id: approved.userId, by: record.userId }, 'user approved by /approve');
    const name = approved.userName ? ` (${approved.userName})` : '';
    return { reply: answered(`Approved ${record.platform} user ${approved.userId}${name}: their messages now go to the agent.`), result: { target: approved.userId, ok: true } };
  }

  async function modelGlobal(command: ChatCommand, record: InboundRecord, config: Readonly<Config>): Promise<Done> {
    const switched = await deps.switchModel(record, command.kind === 'model' ? command.line : '/model', config);
    const global = switched.global;
    // No `global` back: the line was not a valid switch (`/model --global` alone), so nothing was written.
    const result: OwnerCommandResult = global
      ? { target: global.model, ok: global.ok, ...(global.reason === undefined ? {} : { reason: global.reason }) }
      : { target: commandTarget('model_global', command, record.chatId), ok: false, reason: 'not a valid /model --global command' };
    return { reply: answered(switched.text), result };
  }

  function perform(action: OwnerAction, command: ChatCommand, record: InboundRecord, config: Readonly<Config>): Promise<Done> {
    switch (action) {
      case 'sethome':
        return sethome(record);
      case 'approve':
        return approve(command.kind === 'approve' ? command.code : undefined, record);
      case 'model_global':
        return modelGlobal(command, record, config);
    }
  }

  return {
    /** A refused command: its one sentence, and its audit line. */
    refuse(action: OwnerAction, reply: string, command: ChatCommand, record: InboundRecord): CommandReply {
      deps.audit.write(ownerAuditEntry(record, action, { target: commandTarget(action, command, record.chatId), ok: false, reason: NOT_AN_OWNER }));
      log.info({ platform: record.platform, chat_id: record.chatId, user_id: record.userId, action }, 'owner command refused: not an owner');
      return answered(reply);
    },
    /** An owner's command, run; audited however it ends (a throw too, then passed on). */
    async run(action: OwnerAction, command: ChatCommand, record: InboundRecord, config: Readonly<Config>): Promise<CommandReply> {
      let done: Done;
      try {
        done = await perform(action, command, record, config);
      } catch (err) {
        const reason = err instanceof NoMainModelError ? 'no main model is configured' : 'internal error';
        deps.audit.write(ownerAuditEntry(record, action, { target: commandTarget(action, command, record.chatId), ok: false, reason }));
        throw err;
      }
      deps.audit.write(ownerAuditEntry(record, action, done.result));
      return done.reply;
    },
  };
}

export type OwnerCommands = ReturnType<typeof createOwnerCommands>;
