// The dashboard chat on the agent code `iris chat` runs: the same runtime, sessions, turn loop,
// /model and /title. Config, .env and auth.json are read afresh for each runtime (a key added with
// the CLI works without a restart); the store and the routing wiring (agent.log, the api-mode
// memory) are the dashboard's, shared by every chat.
//
// The run kind follows who is typing (chatRunKind): on a loopback dashboard (the session token
// alone) it is the owner of this Iris home at their own machine, as at `iris chat`, so runKind
// `cli`; on a dashboard others sign in to (a password, a trusted proxy) it is a teammate over the
// network, so runKind `gateway`: under `tools.terminal.sandbox: auto` their commands run in the
// sandbox, as the gateway's do. `bubblewrap` sandboxes both; approvals are asked in the page.
import { loadOAuthView } from '../../auth/view.js';
import { NoMainModelError, type AgentSession, type TurnEvents } from '../../agent/agent.js';
import { applyModelCommand } from '../../agent/model-switch.js';
import { createAgentRuntime, ToolsetError, type AgentRuntime } from '../../agent/runtime.js';
import type { AskUser } from '../../agent/approval/decide.js';
import { runSessionCommand } from '../../cli/commands/chat-session-commands.js';
import { redactText } from '../../log/redact.js';
import { rotationOf } from '../../log/rotation.js';
import type { RoutingDeps } from '../../routing/call-model.js';
import { createRoutingDeps } from '../../routing/runtime.js';
import type { SessionRecord } from '../../store/types.js';
import { HttpError } from '../http-error.js';
import type { DashboardContext } from '../routes/route.js';
import type { Identity } from '../auth/sign-in.js';
import type { RunKind } from '../../sandbox/settings.js';
import { shorten, type RunEndEvent } from './chat-items.js';
import type { RunHandle, RunWork } from './run-manager.js';

/** Where dashboard chats come from, in `sessions list` and the usage ledger. */
export const DASHBOARD_SOURCE = 'dashboard';

export type ChatAgent = ReturnType<typeof createChatAgent>;

/** Who types decides how the terminal runs (see the header): the owner at a loopback dashboard, or a teammate signed in over the network. */
export function chatRunKind(identity: Pick<Identity, 'via'>): RunKind {
  return identity.via === 'local' ? 'cli' : 'gateway';
}

export function createChatAgent(context: DashboardContext) {
  // One per served home (a profile switch serves another home, with its own agent.log).
  let routing: { readonly home: string; readonly deps: RoutingDeps } | undefined;

  async function openRuntime(askUser?: AskUser, runKind: RunKind = 'cli'): Promise<AgentRuntime> {
    const [config, env, store, oauth] = await Promise.all([context.currentConfig(), context.currentEnv(), context.store(), loadOAuthView(context.paths)]);
    if (routing?.home !== context.paths.dir) routing = { home: context.paths.dir, deps: createRoutingDeps(context.paths, env, { rotation: rotationOf(config.logging) }) };
    try {
      return await createAgentRuntime({
        paths: context.paths,
        env,
        oauth: oauth.view,
        config,
        store,
        routing: routing.deps,
        runKind,
        usageSource: 'dashboard',
        ...(askUser ? { askUser } : {}),
      });
    } catch (err) {
      if (err instanceof ToolsetError) throw new HttpError(500, `agent.toolsets: ${err.message}`);
      throw err;
    }
  }

  /** Runs `work` on a fresh runtime and closes it after (the store and routing stay open). */
  async function withRuntime<T>(work: (runtime: AgentRuntime) => Promise<T>, askUser?: AskUser, runKind?: RunKind): Promise<T> {
    const runtime = await openRuntime(askUser, runKind);
    try {
      return await work(runtime);
    } finally {
      await runtime.close();
    }
  }

  async function resumed(runtime: AgentRuntime, sessionId: string): Promise<AgentSession> {
    const session = await runtime.agent.resumeSession(sessionId);
    if (!session) throw new HttpError(404, `no session ${sessionId}`);
    return session;
  }

  return {
    /** A new chat on the main model config.yaml names now. */
    newSession: (): Promise<SessionRecord> =>
      withRuntime(async (runtime) => {
        try {
          return (await runtime.agent.newSession(DASHBOARD_SOURCE)).record;
        } catch (err) {
          if (err instanceof NoMainModelError) throw new HttpError(409, err.message);
          throw err;
        }
      }),

    /** `/model …` as in `iris chat`: the text it answers and the session after it. */
    switchModel: (sessionId: string, line: string) =>
      withRuntime(async (runtime) => {
        const session = await resumed(runtime, sessionId);
        const outcome = await applyModelCommand(runtime.agent, session, line, await context.currentConfig(), context.paths);
        return { reply: outcome.text, record: session.record, ...(outcome.global ? { global: outcome.global } : {}) };
      }),

    /** `/title <text>` as in `iris chat`. */
    setTitle: (sessionId: string, title: string) =>
      withRuntime(async (runtime) => {
        const session = await resumed(runtime, sessionId);
        const outcome = await runSessionCommand({ kind: 'title', title }, { agent: runtime.agent, store: runtime.store, current: session });
        return { reply: outcome.text, record: outcome.session.record };
      }),

    /** The work of one turn, for the run manager: the agent's events become the page's. */
    turn:
      (sessionId: string, text: string, runKind: RunKind): RunWork =>
      (run: RunHandle) =>
        withRuntime(
          async (runtime): Promise<RunEndEvent> => {
            const session = await resumed(runtime, sessionId);
            const events: TurnEvents = {
              onText: (delta) => run.emit({ type: 'text', delta }),
              onToolStart: (call) => run.emit({ type: 'tool_start', id: call.id, name: call.name, arguments: shorten(redactText(call.invalidArguments ?? JSON.stringify(call.arguments))) }),
              onToolEnd: (call, result) => run.emit({ type: 'tool_end', id: call.id, ok: result.ok, result: shorten(redactText(result.content)) }),
              onNotice: (notice) => run.emit({ type: 'notice', text: notice }),
            };
            const result = await runtime.agent.runTurn(session, text, events, run.signal);
            switch (result.stopReason) {
              case 'done':
              case 'max_iterations':
                return { type: 'done', reason: result.stopReason };
              case 'cancelled':
                return { type: 'stopped' };
              case 'error':
                return { type: 'error', message: redactText(result.error?.message ?? 'the model call failed') };
            }
          },
          async (request, risk) => (await run.ask(request.command, request.cwd, risk)).approved,
          runKind,
        ),
  };
}
