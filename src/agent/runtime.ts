// Building an agent for a process: the store, routing (agent.log, shared memories), the tools of
// the configured toolsets and the approval policy with its two injected halves (asking a user,
// scoring with the `approval` slot).
import { resolve } from 'node:path';
import type { OAuthView } from '../auth/view.js';
import type { Env, HomePaths } from '../config/home.js';
import type { Config } from '../config/schema.js';
import { snapshotRoutes, type RoutingDeps } from '../routing/call-model.js';
import { callCounted, type UsageSink } from './slot-usage.js';
import type { UsageSource } from '../domain/usage-ledger.js';
import { rotationOf } from '../log/rotation.js';
import { createRoutingDeps } from '../routing/runtime.js';
import { openStoreAt, storeTarget } from '../store/open-store.js';
import type { Store } from '../store/types.js';
import { createAgent, type Agent } from './agent.js';
import { decideApproval, type AskUser, type ModelRiskScore } from './approval/decide.js';
import { assessCommand } from './approval/patterns.js';
import { buildApprovalPrompt, parseRiskScore } from './approval/risk-score.js';
import { createToolsets, selectTools } from './tools/toolsets.js';
import type { AskVision } from './tools/vision/vision-analyze.js';
import { createVisionAsk, visionDownloadTimeoutMs } from './vision-slot.js';
import type { FetchGuard } from '../net/fetch-guard.js';
import { fetchGuardOf } from './fetch-guard.js';
import type { ApprovalDecision, ApprovalRequest, Tool } from './tools/types.js';
import { summaryRequest, type Summarize } from './tools/web/web-extract.js';
import { createMcpRuntime } from './tools/mcp/runtime.js';
import type { McpPool } from './tools/mcp/pool.js';
import { offersMcp } from '../domain/toolsets.js';
import { planSandbox, type RouteSandboxSetting, type RunKind } from '../sandbox/settings.js';

export type AgentRuntimeOptions = {
  readonly paths: HomePaths;
  readonly env: Env;
  /** The OAuth sign-ins of auth.json; none by default. */
  readonly oauth?: OAuthView;
  readonly config: Readonly<Config>;
  /** Toolsets by name; default: config `agent.toolsets`. */
  readonly toolsets?: readonly string[];
  /** Where the file tools and the terminal work; default: config `agent.workspace`, else the cwd. */
  readonly workspace?: string;
  /** Present when a user can answer approval prompts now. */
  readonly askUser?: AskUser;
  /** Called with every approval decision, for the UI or the log. */
  readonly onApproval?: (request: ApprovalRequest, decision: ApprovalDecision) => void;
  /** Added to the system prompt. */
  readonly instructions?: string;
  /** An open store to share (the gateway's); the runtime then leaves closing it to the owner. */
  readonly store?: Store;
  /** Shared routing wiring (one agent.log, one api-mode memory per process). */
  readonly routing?: RoutingDeps;
  /**
   * Whose run this is, for the terminal's sandbox (tools.terminal.sandbox `auto`): `cli` for
   * `iris chat` at the user's terminal, `gateway` for webhook and chat-platform runs.
   */
  readonly runKind: RunKind;
  /** A webhook route's own sandbox settings. */
  readonly routeSandbox?: RouteSandboxSetting;
  /**
   * Whose runs these are, for the usage ledger: every call (main and aux slots, in a turn or not)
   * counts under it. Default `cli`; the dashboard passes `dashboard`, the gateway
   * `webhook:<route>` and `platform:<name>`.
   */
  readonly usageSource?: UsageSource;
  /** Tools of this run only, beside the toolsets' (a PR review's pr_files and pr_file_diff). */
  readonly extraTools?: readonly Tool[];
  /** The gateway's MCP connections, kept across runs (pool.ts); without it the runtime starts its own servers and stops them on close. */
  readonly mcpPool?: McpPool;
};

export type AgentRuntime = {
  readonly agent: Agent;
  readonly store: Store;
  readonly workspace: string;
  /** The vision slot and how images are fetched for it (vision_analyze, and images in chat messages). */
  readonly vision: { readonly ask: AskVision; readonly downloadTimeoutMs: number; readonly guard: FetchGuard };
  close(): Promise<void>;
};

export class ToolsetError extends Error {}

export async function createAgentRuntime(options: AgentRuntimeOptions): Promise<AgentRuntime> {
  const { config, env, paths } = options;
  const routing = options.routing ?? createRoutingDeps(paths, env, { rotation: rotationOf(config.logging) });
  // Approval scoring is a side-job of the process, not of one session: the config's routes.
  const approvalRoutes = snapshotRoutes(config, env, options.oauth);
  // So is vision. Images and pages are fetched through the fetch guard (tools.web), with the
  // same proxy settings as model calls.
  const guard = fetchGuardOf(config, env);
  // Calls outside a turn are counted with no session, in the store opened below (by then).
  const usageSource = options.usageSource ?? 'cli';
  const record: UsageSink = { source: usageSource, record: (usage) => store.recordUsage(usage) };
  const vision = { ask: createVisionAsk(approvalRoutes, routing, record), downloadTimeoutMs: visionDownloadTimeoutMs(config), guard };
  // web_extract's long pages go to its slot, over the same process-wide routes as approval's.
  const summarizeWeb: Summarize = async (prompt, signal) => {
    const result = await callCounted('web_extract', summaryRequest(prompt, signal), approvalRoutes, routing, record);
    return result.ok ? { ok: true, text: result.text } : { ok: false, error: result.error.message };
  };
  const web = { guard, summarize: summarizeWeb };
  const toolsetNames = options.toolsets ?? config.agent.toolsets;
  const sandbox = planSandbox(config.tools.terminal, options.runKind, options.routeSandbox);
  const terminal = {
    env,
    sandbox,
    hiddenHomes: { home: env.HOME, irisHomes: [paths.dir] },
    // Each sandboxed command with its settings, never its environment's values.
    onSandboxed: (info: { command: string; cwd: string; sandbox: string }) => routing.log.info(info, 'sandboxed command'),
  };
  const selected = selectTools(toolsetNames, createToolsets({ terminal, vision, web }));
  if (!selected.ok) throw new ToolsetError(selected.error);
  // A toolset's tool of the same name wins: the extra ones add, never replace.
  const names = new Set(selected.tools.map((tool) => tool.definition.name));
  const tools = [...selected.tools, ...(options.extraTools ?? []).filter((tool) => !names.has(tool.definition.name))];
  const workspace = resolve(options.workspace ?? (config.agent.workspace || process.cwd()));
  const store = options.store ?? (await openStoreAt(storeTarget(paths.statePath, env, config)));

  const scoreWithModel = async (command: string, cwd: string): Promise<ModelRiskScore> => {
    const result = await callCounted('approval', { messages: [{ role: 'user', content: buildApprovalPrompt(command, cwd) }], maxOutputTokens: 200 }, approvalRoutes, routing, record);
    if (!result.ok) return { ok: false, error: result.error.message };
    const score = parseRiskScore(result.text);
    return score ? { ok: true, level: score.level, reason: score.reason } : { ok: false, error: 'the approval model gave no readable score' };
  };

  const approve = async (request: ApprovalRequest): Promise<ApprovalDecision> => {
    const decision = await decideApproval({
      mode: config.approval_mode,
      command: request.command,
      cwd: request.cwd,
      assessment: assessCommand(request.command),
      interactive: options.askUser !== undefined,
      ...(options.askUser ? { askUser: options.askUser } : {}),
      scoreWithModel,
    });
    routing.log.info({ command: request.command, approved: decision.approved, by: decision.by, reason: decision.reason }, 'approval');
    options.onApproval?.(request, decision);
    return decision;
  };

  // MCP servers start on the first message that needs their tools, not here.
  // MCP tools come with `default`, `service-webhook` or `mcp`; a narrower list goes without them.
  const mcp = offersMcp(toolsetNames) ? createMcpRuntime(config, routing.log, options.mcpPool) : undefined;
  const agent = createAgent({
    store,
    config,
    env,
    ...(options.oauth ? { oauth: options.oauth } : {}),
    paths,
    routing,
    tools,
    workspaceRoot: workspace,
    approve,
    usageSource,
    ...(options.instructions ? { instructions: options.instructions } : {}),
    ...(mcp ? { turnTools: mcp.turnTools } : {}),
  });
  const close = async () => {
    await mcp?.close();
    if (!options.store) await store.close();
  };
  return { agent, store, workspace, vision, close };
}
