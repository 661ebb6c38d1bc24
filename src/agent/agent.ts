// The agent: sessions and the tool loop. A user message goes to the main model (streamed); the
// tool calls it makes run (read-only ones side by side), their results go back, and so on until
// the model answers without tools, the iteration bound is hit, or the run is cancelled. Every
// step is written to the store as it happens, so a crash leaves a readable session. Side-jobs
// (titles, compression) go through their own slots.
import type { OAuthView } from '../auth/view.js';
import type { Env, HomePaths } from '../config/home.js';
import type { Config } from '../config/schema.js';
import { contextLengthFor } from '../providers/catalog.js';
import type { UsageSource } from '../domain/usage-ledger.js';
import { usageRecordOf } from './slot-usage.js';
import type { ModelError, Usage } from '../providers/wire/types.js';
import type { ContentPart, Message, ToolCall } from '../domain/messages.js';
import { callModel, streamTask, type RoutingDeps, type RoutingSnapshot, type TaskReport } from '../routing/call-model.js';
import type { SlotId } from '../routing/resolve.js';
import type { SessionRecord, Store } from '../store/types.js';
import { compressionCut, estimateTokens } from './context-budget.js';
import { configuredMain, sessionSnapshot, type MainModel } from './session-routes.js';
import { cleanTitle, COMPRESSION_SYSTEM, summaryMessage, TITLE_SYSTEM, transcript } from './side-job-prompts.js';
import { systemPrompt } from './system-prompt.js';
import type { ApprovalDecision, ApprovalRequest, SideJobCall, Tool, ToolContext, ToolResult } from './tools/types.js';
import { addUsage, NO_USAGE, type TurnUsage } from './turn-usage.js';
import {
  afterModelCall,
  afterTools,
  compressBeforeTurn,
  contextLengthOf,
  maxIterationsText,
  namesSession,
  statusAfter,
  type StopReason,
} from './turn-policy.js';
import { errorMessage } from '../domain/error-message.js';
import { NO_MAIN_MODEL } from '../domain/setup-hint.js';

export type AgentDeps = {
  readonly store: Store;
  readonly config: Readonly<Config>;
  readonly env: Env;
  /** The OAuth sign-ins of auth.json (providers signed in with iris auth login). */
  readonly oauth?: OAuthView;
  readonly paths: HomePaths;
  readonly routing: RoutingDeps;
  readonly tools: readonly Tool[];
  readonly workspaceRoot: string;
  readonly approve: (request: ApprovalRequest) => Promise<ApprovalDecision>;
  /** Added to the system prompt (a webhook run's rules and its skill). */
  readonly instructions?: string;
  /** Whose runs these are, for the usage ledger (every call of every turn counts under it). */
  readonly usageSource: UsageSource;
  /**
   * Tools that depend on the user message (MCP: the servers' tools, or the `mcp` slot's choice of
   * them), added to `tools` for that turn. `ask` calls the slot; its usage is the session's.
   */
  readonly turnTools?: (
    userText: string,
    ask: (system: string, messages: readonly Message[], maxOutputTokens: number) => Promise<{ ok: true; text: string } | { ok: false; error: string }>,
    notice: (text: string) => void,
  ) => Promise<readonly Tool[]>;
};

export type AgentSession = {
  record: SessionRecord;
  snapshot: RoutingSnapshot;
  messages: Message[];
  /** Set by a /model switch to a model whose threshold is already passed. */
  compressOnNextMessage: boolean;
};

export type TurnEvents = {
  /** A call to the main model is about to be made (the UI may show that it waits). */
  onModelCall?(): void;
  onText?(delta: string): void;
  onToolStart?(call: ToolCall): void;
  onToolEnd?(call: ToolCall, result: ToolResult): void;
  /** Side-job outcomes and other things worth a line in the UI. */
  onNotice?(text: string): void;
};

export type { StopReason };

export type TurnResult = {
  readonly stopReason: StopReason;
  /** The final answer (or what streamed before the stop). */
  readonly text: string;
  readonly iterations: number;
  readonly error?: ModelError;
  /** Every model call of the turn, side-jobs included. */
  readonly usage: TurnUsage;
  /** Who served the turn's last main-model call (a fallback may differ from the session's model). */
  readonly served?: { readonly provider: string; readonly model: string };
};

/** What a tool gets from the session it runs in. */
type SessionToolContext = Required<Pick<ToolContext, 'sideJob' | 'recordSkillLoad'>>;

/** Collects a turn's spending as its calls are recorded. */
type UsageTally = { total: TurnUsage };

export class NoMainModelError extends Error {}

export function createAgent(deps: AgentDeps) {
  const definitions = deps.tools.map((tool) => tool.definition);

  async function recordUsage(session: AgentSession, task: SlotId, report: TaskReport, usage: Usage | undefined, tally: UsageTally): Promise<void> {
    const record = usageRecordOf({ ...report, slot: task }, usage, Date.now(), { source: deps.usageSource, sessionId: session.record.id });
    if (!record || !usage) return;
    tally.total = addUsage(tally.total, usage, record.costUsd);
    await deps.store.recordUsage(record);
  }

  /** A side-job through its slot; its usage is recorded against the session. */
  async function sideJob(session: AgentSession, task: SlotId, system: string, text: string, maxOutputTokens: number, tally: UsageTally) {
    const result = await callModel(task, { system, messages: [{ role: 'user', content: text }], maxOutputTokens }, session.snapshot, deps.routing);
    await recordUsage(session, task, result.report, result.ok ? result.usage : undefined, tally);
    return result;
  }

  async function newSession(source: string, main?: MainModel): Promise<AgentSession> {
    const chosen = main ?? configuredMain(deps.config);
    if (!chosen) throw new NoMainModelError(NO_MAIN_MODEL);
    const record = await deps.store.createSession({ source, provider: chosen.provider, model: chosen.model });
    return { record, snapshot: sessionSnapshot(deps.config, deps.env, chosen, deps.oauth), messages: [], compressOnNextMessage: false };
  }

  async function resumeSession(id: string): Promise<AgentSession | undefined> {
    const record = await deps.store.getSession(id);
    if (!record) return undefined;
    const messages = await deps.store.loadMessages(id);
    // A run that crashed or was killed left `running` behind: it is over now.
    const fixed = record.status === 'running' ? ((await deps.store.updateSession(id, { status: 'interrupted' })) ?? record) : record;
    return {
      record: fixed,
      snapshot: sessionSnapshot(deps.config, deps.env, { provider: record.provider, model: record.model }, deps.oauth),
      messages,
      compressOnNextMessage: false,
    };
  }

  const mainInConfig = configuredMain(deps.config);
  const configuredLength = deps.config.model === '' ? undefined : deps.config.model.context_length;

  /** Is the session over its model's compression threshold (or was it asked to compress)? */
  function wantsCompression(session: AgentSession, requested = false): boolean {
    const { provider, model } = session.record;
    return compressBeforeTurn({
      requested,
      estimatedTokens: estimateTokens(session.messages, systemPrompt(deps.workspaceRoot, definitions, deps.instructions)),
      contextLength: contextLengthOf({
        session: { provider, model },
        ...(mainInConfig ? { configuredMain: mainInConfig } : {}),
        ...(configuredLength !== undefined ? { configuredLength } : {}),
        catalogLength: contextLengthFor(provider, model),
      }),
      threshold: deps.config.compression.threshold,
    });
  }

  async function compress(session: AgentSession, events: TurnEvents, tally: UsageTally): Promise<void> {
    // The incoming message is the newest turn; the last finished turn stays verbatim too.
    const cut = compressionCut(session.messages, 1);
    if (cut === 0) return;
    const result = await sideJob(session, 'compression', COMPRESSION_SYSTEM, transcript(session.messages.slice(0, cut)), 2000, tally);
    if (!result.ok || !result.text.trim()) {
      events.onNotice?.(`compression failed (${result.ok ? 'empty summary' : result.error.message}); the conversation is kept as it is`);
      return;
    }
    const kept = [summaryMessage(result.text), ...session.messages.slice(cut)];
    await deps.store.replaceMessages(session.record.id, kept);
    session.messages = kept;
    events.onNotice?.(`compressed ${cut} earlier messages into a summary`);
  }

  async function nameSession(session: AgentSession, events: TurnEvents, tally: UsageTally): Promise<void> {
    const result = await sideJob(session, 'title_generation', TITLE_SYSTEM, transcript(session.messages.slice(0, 6), 1000), 40, tally);
    const title = result.ok ? cleanTitle(result.text) : undefined;
    if (!title) return;
    session.record = (await deps.store.updateSession(session.record.id, { title })) ?? session.record;
    events.onNotice?.(`title: ${title}`);
  }

  async function runTool(toolsByName: ReadonlyMap<string, Tool>, call: ToolCall, signal: AbortSignal | undefined, events: TurnEvents, session: SessionToolContext): Promise<Message> {
    events.onToolStart?.(call);
    const tool = toolsByName.get(call.name);
    let result: ToolResult;
    if (!tool) result = { ok: false, content: `unknown tool "${call.name}"; available: ${[...toolsByName.keys()].join(', ')}` };
    else if (call.invalidArguments !== undefined) result = { ok: false, content: `the arguments were not a JSON object: ${call.invalidArguments.slice(0, 500)}` };
    else {
      try {
        result = await tool.run(call.arguments, { workspaceRoot: deps.workspaceRoot, home: deps.paths, approve: deps.approve, kanban: deps.store.kanban, ...session, ...(signal ? { signal } : {}) });
      } catch (err) {
        // A tool's bug is the model's information, not the end of the run.
        result = { ok: false, content: `the tool failed: ${errorMessage(err)}` };
      }
    }
    events.onToolEnd?.(call, result);
    return { role: 'tool', toolCallId: call.id, name: call.name, content: result.content, ...(result.ok ? {} : { isError: true }) };
  }

  /** Read-only calls next to each other run together; anything that changes things runs alone. */
  async function runTools(toolsByName: ReadonlyMap<string, Tool>, calls: readonly ToolCall[], signal: AbortSignal | undefined, events: TurnEvents, session: SessionToolContext): Promise<Message[]> {
    const results: Message[] = [];
    let batch: ToolCall[] = [];
    const flush = async () => {
      results.push(...(await Promise.all(batch.map((call) => runTool(toolsByName, call, signal, events, session)))));
      batch = [];
    };
    for (const call of calls) {
      if (toolsByName.get(call.name)?.readOnly) {
        batch.push(call);
        continue;
      }
      await flush();
      results.push(await runTool(toolsByName, call, signal, events, session));
    }
    await flush();
    return results;
  }

  async function append(session: AgentSession, ...messages: Message[]): Promise<void> {
    session.messages.push(...messages);
    await deps.store.appendMessages(session.record.id, messages);
  }

  /** `userText` may carry image parts (iris chat --image, for a main model that takes images). */
  async function runTurn(session: AgentSession, userText: string | readonly ContentPart[], events: TurnEvents = {}, signal?: AbortSignal): Promise<TurnResult> {
    const tally: UsageTally = { total: NO_USAGE };
    // Tools' side-jobs (vision_analyze, web_extract's summaries) go through this session's routes,
    // and their usage is the session's, as for titles and compression.
    const toolSideJob: SideJobCall = async (task, request) => {
      const result = await callModel(task, request, session.snapshot, deps.routing);
      await recordUsage(session, task, result.report, result.ok ? result.usage : undefined, tally);
      return result.ok ? { ok: true, text: result.text } : { ok: false, error: result.error.message };
    };
    // Skill loads are the curator's usage data, recorded against the session; a store failure
    // costs a count, never the skill the model asked for.
    const toolSession: SessionToolContext = {
      sideJob: toolSideJob,
      recordSkillLoad: (skill) =>
        deps.store.skillLoads.record(skill, session.record.id, Date.now()).catch((err: unknown) => events.onNotice?.(`the load of skill "${skill}" was not recorded: ${errorMessage(err)}`)),
    };
    let served: TurnResult['served'];
    if (wantsCompression(session, session.compressOnNextMessage)) {
      session.compressOnNextMessage = false;
      await compress(session, events, tally);
    }
    await deps.store.updateSession(session.record.id, { status: 'running' });
    await append(session, { role: 'user', content: userText });
    const untitledAtStart = session.record.title === null;
    const turnTools = deps.turnTools
      ? [
          ...deps.tools,
          ...(await deps.turnTools(
            // The MCP slot chooses tools from the words of the message; image parts say nothing to it.
            typeof userText === 'string' ? userText : userText.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n'),
            async (system, messages, maxOutputTokens) => {
              const result = await callModel('mcp', { system, messages, maxOutputTokens }, session.snapshot, deps.routing);
              await recordUsage(session, 'mcp', result.report, result.ok ? result.usage : undefined, tally);
              return result.ok ? { ok: true, text: result.text } : { ok: false, error: result.error.message };
            },
            (notice) => events.onNotice?.(notice),
          )),
        ]
      : deps.tools;
    const toolsByName = new Map(turnTools.map((tool) => [tool.definition.name, tool]));
    const turnDefinitions = turnTools.map((tool) => tool.definition);
    const system = systemPrompt(deps.workspaceRoot, turnDefinitions, deps.instructions);
    let text = '';
    let iterations = 0;
    const finish = async (result: Omit<TurnResult, 'usage' | 'served'>): Promise<TurnResult> => {
      session.record = (await deps.store.updateSession(session.record.id, { status: statusAfter(result.stopReason) })) ?? session.record;
      if (namesSession({ untitledAtStart, reason: result.stopReason })) await nameSession(session, events, tally);
      return { ...result, usage: tally.total, ...(served ? { served } : {}) };
    };

    for (;;) {
      iterations++;
      text = '';
      const calls: ToolCall[] = [];
      let usage: Usage | undefined;
      let error: ModelError | undefined;
      events.onModelCall?.();
      const stream = streamTask('main', { system, messages: session.messages, tools: turnDefinitions, ...(signal ? { signal } : {}) }, session.snapshot, deps.routing);
      let step = await stream.next();
      while (!step.done) {
        const event = step.value;
        if (event.type === 'text_delta') {
          text += event.text;
          events.onText?.(event.text);
        } else if (event.type === 'tool_call') calls.push(event.call);
        else if (event.type === 'usage') usage = event.usage;
        else if (event.type === 'error') error = event.error;
        step = await stream.next();
      }
      if (step.value.served) served = { provider: step.value.served.provider, model: step.value.served.model };
      await recordUsage(session, 'main', step.value, usage, tally);
      const next = afterModelCall({ ...(error ? { errorCode: error.code } : {}), toolCalls: calls.length });
      if (next.kind === 'stop' && error) {
        // What streamed before the failure is kept, so the session reads as it happened.
        if (text) await append(session, { role: 'assistant', content: text });
        return finish({ stopReason: next.reason, text, iterations, error });
      }
      await append(session, { role: 'assistant', content: text, ...(calls.length ? { toolCalls: calls } : {}) });
      if (next.kind === 'stop') return finish({ stopReason: next.reason, text, iterations });
      const results = await runTools(toolsByName, calls, signal, events, toolSession);
      await append(session, ...results);
      const then = afterTools({ aborted: signal?.aborted === true, iterations, maxIterations: deps.config.agent.max_iterations });
      if (then.kind === 'stop') {
        return finish({ stopReason: then.reason, text: then.reason === 'max_iterations' ? maxIterationsText(text, iterations) : text, iterations });
      }
    }
  }

  /** Switches a running session to another main model (persisted on the session). */
  async function switchModel(session: AgentSession, main: MainModel): Promise<{ overThreshold: boolean }> {
    session.record = (await deps.store.updateSession(session.record.id, { provider: main.provider, model: main.model })) ?? session.record;
    session.snapshot = sessionSnapshot(deps.config, deps.env, main, deps.oauth);
    const over = wantsCompression(session);
    session.compressOnNextMessage = over;
    return { overThreshold: over };
  }

  return { newSession, resumeSession, runTurn, switchModel };
}

export type Agent = ReturnType<typeof createAgent>;
