// Answers the messages received on the chat platforms: one run at a time per conversation (the
// store hands out only the oldest waiting message of a conversation that is not running), a
// bounded number of conversations at once. A message is a chat command or a turn of the agent in
// the conversation's session; its reply parts go to the outbox in the same transaction that marks
// it answered, so a crash re-runs it (it was still running) or sends the stored reply, never both.
import { loadOAuthView } from '../auth/view.js';
import type { Env, HomePaths } from '../config/home.js';
import { loadConfig } from '../config/store.js';
import type { Config } from '../config/schema.js';
import { NoMainModelError, type AgentSession } from '../agent/agent.js';
import { applyModelCommand, switchSessionModel } from '../agent/model-switch.js';
import { createAgentRuntime, type AgentRuntime } from '../agent/runtime.js';
import type { McpPool } from '../agent/tools/mcp/pool.js';
import { platformUsageSource } from '../domain/usage-ledger.js';
import { errorMessage } from '../domain/error-message.js';
import { createClaimPump } from '../runtime/claim-pump.js';
import type { Rotation } from '../log/rotation.js';
import type { RoutingDeps } from '../routing/call-model.js';
import { createAuditLog } from '../security/audit-log.js';
import type { InboundRecord, NewOutboxMessage } from '../store/platform-types.js';
import type { Store } from '../store/types.js';
import { isTransientStoreFailure, retryStoreWrite } from '../store/write-retry.js';
import { parseChatCommand, type ChatCommand } from './chat-commands.js';
import { chatHelp, chatRoleOf, decideCommand, platformOwners, type ChatRole } from './chat-roles.js';
import { createOwnerCommands } from './owner-commands.js';
import { replyParts } from './reply-parts.js';
import { finishedAnswer, withoutUnfinishedTurn } from '../agent/sessions/unfinished-turn.js';
import type { PlatformAdapter, PlatformLog, PlatformName } from './types.js';

export type ConversationRunnerDeps = {
  readonly paths: HomePaths;
  readonly env: Env;
  readonly store: Store;
  readonly routing: RoutingDeps;
  readonly log: PlatformLog;
  readonly adapters: ReadonlyMap<PlatformName, PlatformAdapter>;
  /** Conversations answered at once. */
  readonly concurrency: number;
  /** The gateway's MCP connections, kept across runs. */
  readonly mcpPool?: McpPool;
  /** Reply parts were stored: the outbox has work. */
  readonly onReplies: () => void;
  /** /sethome made this chat the platform's home channel (config.yaml is written already). */
  readonly onHomeChannel?: (platform: PlatformName, chatId: string) => void;
  /** logs/audit.log's rotation (config.logging); the default rotation without it. */
  readonly auditRotation?: Rotation;
  /** The pauses between tries of recording an outcome the store failed (write-retry.ts; tests shorten them). */
  readonly writeRetryMs?: readonly number[];
};

/** A message whose run was cut off this many times (crashes) is answered with an apology instead. */
export const MAX_MESSAGE_ATTEMPTS = 3;
/** Platforms show "typing…" for about 5 s; it is renewed while the run goes on. */
const TYPING_EVERY_MS = 4_000;

type Outcome =
  | { readonly kind: 'answered' | 'failed'; readonly text: string; readonly error?: string }
  | { readonly kind: 'interrupted' };

function platformInstructions(platform: PlatformName): string {
  return [
    `You are talking with a person through ${platform}. Answer in the conversation's language, briefly, as a chat message.`,
    platform === 'sms' || platform === 'signal'
      ? 'The message is shown as plain text: do not use Markdown.'
      : 'Markdown (bold, italics, code, links) is shown formatted; avoid tables.',
  ].join(' ');
}

export function createConversationRunner(deps: ConversationRunnerDeps) {
  const { store, log } = deps;

  async function withRuntime<T>(config: Readonly<Config>, platform: PlatformName, work: (runtime: AgentRuntime) => Promise<T>): Promise<T> {
    const oauth = await loadOAuthView(deps.paths);
    const runtime = await createAgentRuntime({
      paths: deps.paths,
      env: deps.env,
      oauth: oauth.view,
      config,
      store,
      routing: deps.routing,
      runKind: 'gateway',
      usageSource: platformUsageSource(platform),
      ...(deps.mcpPool ? { mcpPool: deps.mcpPool } : {}),
      instructions: platformInstructions(platform),
      onApproval: (request, decision) => log.info({ platform, command: request.command, approved: decision.approved, reason: decision.reason }, 'platform run: approval'),
    });
    try {
      return await work(runtime);
    } finally {
      await runtime.close();
    }
  }

  /** The conversation's session, created (and remembered) when it has none or it was deleted. */
  async function sessionOf(runtime: AgentRuntime, record: InboundRecord, fresh: boolean): Promise<AgentSession> {
    if (!fresh) {
      const id = await store.platforms.sessionFor(record.sessionKey);
      const resumed = id ? await runtime.agent.resumeSession(id) : undefined;
      if (resumed) return resumed;
    }
    const session = await runtime.agent.newSession(record.platform);
    await store.platforms.setSession(record.sessionKey, session.record.id);
    return session;
  }

  const owner = createOwnerCommands({
    paths: deps.paths,
    store,
    log,
    audit: createAuditLog(deps.paths, {
      ...(deps.auditRotation ? { rotation: deps.auditRotation } : {}),
      onError: (err) => log.error({ err: errorMessage(err) }, 'audit.log could not be written'),
    }),
    nowMs: Date.now,
    switchModel: (record, line, config) =>
      withRuntime(config, record.platform, async (runtime) => applyModelCommand(runtime.agent, await sessionOf(runtime, record, false), line, config, deps.paths)),
    ...(deps.onHomeChannel ? { onHomeChannel: deps.onHomeChannel } : {}),
  });

  async function runCommand(command: ChatCommand, record: InboundRecord, config: Readonly<Config>, role: ChatRole): Promise<Outcome> {
    const decision = decideCommand(role, command);
    if (decision.kind === 'refuse') return owner.refuse(decision.ownerAction, decision.reply, command, record);
    if (decision.ownerAction) return owner.run(decision.ownerAction, command, record, config);
    switch (command.kind) {
      case 'help':
        return { kind: 'answered', text: chatHelp(role) };
      case 'unknown':
        return { kind: 'answered', text: `Unknown command /${command.name}.\n${chatHelp(role)}` };
      case 'sethome':
      case 'approve':
        // decideCommand makes both owner actions, so they were run above; this keeps the switch whole.
        return owner.run(command.kind, command, record, config);
      case 'new':
        return withRuntime(config, record.platform, async (runtime) => {
          const session = await sessionOf(runtime, record, true);
          return { kind: 'answered', text: `New conversation started (session ${session.record.id}).` };
        });
      case 'model':
        return withRuntime(config, record.platform, async (runtime) => {
          const session = await sessionOf(runtime, record, false);
          return { kind: 'answered', text: await switchSessionModel(runtime.agent, session, command.line, config, deps.paths) };
        });
    }
  }

  async function runTurn(record: InboundRecord, config: Readonly<Config>, signal: AbortSignal): Promise<Outcome> {
    const adapter = deps.adapters.get(record.platform);
    const typing = adapter?.typing ? () => void adapter.typing!(record.chatId, record.threadId).catch(() => {}) : undefined;
    typing?.();
    const timer = typing ? setInterval(typing, TYPING_EVERY_MS) : undefined;
    try {
      return await withRuntime(config, record.platform, async (runtime) => {
        const session = await sessionOf(runtime, record, false);
        if (record.attempts > 1) {
          // The run before was cut off: its answer may be in the session already, or half of it.
          const answered = finishedAnswer(session.messages, record.text);
          if (answered !== undefined) {
            log.info({ id: record.id, platform: record.platform, session: session.record.id }, 'platform message was answered before the restart; the stored answer is sent');
            return { kind: 'answered', text: answered.trim() === '' ? '(the agent gave no answer)' : answered };
          }
          const kept = withoutUnfinishedTurn(session.messages, record.text);
          if (kept) {
            await store.replaceMessages(session.record.id, kept);
            session.messages = kept;
          }
        }
        log.info({ id: record.id, platform: record.platform, chat_id: record.chatId, session: session.record.id, attempt: record.attempts }, 'platform run started');
        const result = await runtime.agent.runTurn(session, record.text, {}, signal);
        if (result.stopReason === 'cancelled' || signal.aborted) return { kind: 'interrupted' };
        if (result.stopReason === 'error') {
          const reason = result.error?.message ?? 'unknown error';
          return { kind: 'failed', text: `Sorry, no answer this time: the model call failed (${reason}).`, error: `the model call failed: ${reason}` };
        }
        return { kind: 'answered', text: result.text.trim() === '' ? '(the agent gave no answer)' : result.text };
      });
    } finally {
      clearInterval(timer);
    }
  }

  async function answer(record: InboundRecord, signal: AbortSignal): Promise<Outcome> {
    if (record.attempts > MAX_MESSAGE_ATTEMPTS) {
      const error = `the run was cut off ${record.attempts - 1} times`;
      return { kind: 'failed', text: 'Sorry, this message could not be answered: its run was interrupted several times.', error };
    }
    const loaded = await loadConfig(deps.paths);
    if (!loaded.ok) return { kind: 'failed', text: 'Sorry, the agent cannot answer now: its configuration does not load.', error: loaded.error.message };
    const command = parseChatCommand(record.text);
    // Owners are read at each message: an edit to config.yaml counts from the next one.
    const role = chatRoleOf(platformOwners(loaded.config, record.platform), record.userId);
    try {
      return command ? await runCommand(command, record, loaded.config, role) : await runTurn(record, loaded.config, signal);
    } catch (err) {
      if (err instanceof NoMainModelError) return { kind: 'failed', text: 'Sorry, the agent cannot answer: no main model is configured.', error: err.message };
      throw err;
    }
  }

  async function process(record: InboundRecord, signal: AbortSignal): Promise<void> {
    const context = { id: record.id, platform: record.platform, chat_id: record.chatId, message_id: record.messageId };
    let outcome: Outcome;
    try {
      outcome = await answer(record, signal);
    } catch (err) {
      if (isTransientStoreFailure(err) && !signal.aborted) {
        // The store failed under the run (a database restart, a full disk): no fault of the
        // message, which runs again once the store is back.
        const released = await retryStoreWrite(() => store.platforms.releaseInbound(record.id), { signal });
        log.warn({ ...context, err: errorMessage(err), released: released.ok }, 'platform run cut off by a store failure; it runs again');
        return;
      }
      outcome = { kind: 'failed', text: 'Sorry, something went wrong while answering.', error: `internal error: ${errorMessage(err)}` };
    }
    // Recorded whatever the store does meanwhile: a message left `running` by this live process
    // holds its conversation until a restart. A store that is away is waited for; a write it
    // refuses (the answer cannot be stored) has the message failed without its reply instead.
    const persist = (write: () => Promise<void>) =>
      retryStoreWrite(write, {
        signal,
        ...(deps.writeRetryMs ? { delaysMs: deps.writeRetryMs } : {}),
        onRetry: (err, attempt, retryInMs) => log.warn({ ...context, err, attempt, retry_in_ms: retryInMs }, 'platform run outcome not recorded yet; trying again'),
      });
    const unrecorded = (reason: string) => log.error({ ...context, err: reason }, 'platform run could not be recorded; it runs again at the next start');
    if (outcome.kind === 'interrupted') {
      const released = await persist(() => store.platforms.releaseInbound(record.id));
      if (released.ok) log.info(context, 'platform run interrupted by shutdown; it runs again at the next start');
      else unrecorded(released.reason);
      return;
    }
    const adapter = deps.adapters.get(record.platform);
    const replies: NewOutboxMessage[] = replyParts(adapter, record.platform, { chatId: record.chatId, threadId: record.threadId }, outcome.text, `inbound:${record.id}`);
    const finished = outcome;
    let recorded = await persist(() => store.platforms.finishInbound(record.id, { state: finished.kind, ...(finished.error ? { error: finished.error } : {}) }, replies));
    if (!recorded.ok && !signal.aborted) {
      const why = `the answer could not be stored: ${recorded.reason}`;
      recorded = await persist(() => store.platforms.finishInbound(record.id, { state: 'failed', error: why }, []));
      if (recorded.ok) return void log.error({ ...context, reason: why }, `platform message not answered: ${why}`);
    }
    if (!recorded.ok) return unrecorded(recorded.reason);
    if (outcome.kind === 'failed') log.error({ ...context, reason: outcome.error }, `platform message not answered: ${outcome.error}`);
    else log.info({ ...context, parts: replies.length }, 'platform message answered');
    deps.onReplies();
  }

  const pump = createClaimPump({
    concurrency: deps.concurrency,
    claim: () => store.platforms.claimNextInbound(),
    run: process,
    onClaimError: (err, retryInMs) => log.error({ err, retry_in_ms: retryInMs }, 'platform messages cannot be read; trying again shortly'),
  });

  return {
    /** A message was stored: answer it if a slot is free. */
    wake: pump.wake,
    /** Also look for waiting messages every `everyMs` (stored by a listener in another process). */
    poll: pump.poll,
    /** Aborts the runs in flight and waits (up to `graceMs`) for them to record where they stopped. */
    stop: pump.stop,
  };
}

export type ConversationRunner = ReturnType<typeof createConversationRunner>;
