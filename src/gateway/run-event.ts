// One accepted event's agent run: a fresh config (so a run always sees the current settings), a
// session of its own (on a `per_pr` route, the PR's session), the `service-webhook` toolset under
// the unattended approval policy, the route's first skill that exists, and the output stored
// before anything is delivered. A PR route first plans the event (pr-plan.ts): it may need no run
// (skipped), a fixed reply, or a run with its own prompt.
import { loadOAuthView } from '../auth/view.js';
import type { Env, HomePaths } from '../config/home.js';
import { loadConfig } from '../config/store.js';
import { NoMainModelError } from '../agent/agent.js';
import { createAgentRuntime } from '../agent/runtime.js';
import type { McpPool } from '../agent/tools/mcp/pool.js';
import { webhookUsageSource } from '../domain/usage-ledger.js';
import { readSkill, skillsDir } from '../agent/tools/skills/skills.js';
import type { RoutingDeps } from '../routing/call-model.js';
import { checkName } from '../security/names.js';
import type { Store } from '../store/types.js';
import type { WebhookEventRecord } from '../store/webhook-types.js';
import { parseRouteSnapshot } from '../webhook/routes.js';
import { WEBHOOK_TOOLSETS } from '../domain/toolsets.js';
import { deliveryTargetProblem } from './deliver-event.js';
import type { PlatformTargets } from '../platforms/delivery-target.js';
import type { ListenerLog } from '../webhook/listener.js';
import { webhookInstructions, webhookPrompt, type LoadedSkill } from './run-prompt.js';
import { isPrRoute } from '../webhook/routes.js';
import type { DeliverAs } from '../store/webhook-types.js';
import type { AgentSession } from '../agent/agent.js';
import { finishedAnswer, withoutUnfinishedTurn } from '../agent/sessions/unfinished-turn.js';
import { NOT_ABOUT_A_PR, planPrEvent, type PrPlan } from './pr-plan.js';
import { prEventOf } from '../webhook/pr-event.js';
import type { PrForges } from './pr-forges.js';
import { prepareReview } from './review-inputs.js';
import { finishReview, type TurnAnswer } from './review-answer.js';
import { reviewPrompt } from '../review/prompt.js';

export { WEBHOOK_TOOLSETS } from '../domain/toolsets.js';

export type RunOutcome =
  | { readonly kind: 'done'; readonly output: string; readonly deliverAs?: DeliverAs }
  /** The event needs nothing (a PR route decided so before any model call): recorded, not delivered. */
  | { readonly kind: 'skipped'; readonly reason: string }
  | { readonly kind: 'failed'; readonly reason: string }
  /** Stopped by a shutdown: the event goes back to the inbox. */
  | { readonly kind: 'interrupted' };

export type RunDeps = {
  readonly paths: HomePaths;
  readonly env: Env;
  readonly store: Store;
  readonly routing: RoutingDeps;
  readonly log: ListenerLog;
  /** The chat platforms a route may deliver to (enabled, with their home channels). */
  readonly platforms: PlatformTargets;
  /** The code hosts of PR routes (their comments, commits, users). */
  readonly forges: PrForges;
  /** The gateway's MCP connections, kept across runs. */
  readonly mcpPool?: McpPool;
};

const PLAIN: PrPlan = { kind: 'plain' };

/** The first skill of the list that exists; each missing or broken one before it is a warning. */
async function firstSkill(deps: RunDeps, names: readonly string[], context: object): Promise<LoadedSkill | undefined> {
  const dir = skillsDir(deps.paths);
  for (const name of names) {
    const checked = checkName('skill', name);
    if (!checked.ok) {
      deps.log.warn({ ...context, skill: name }, `${checked.error}; trying the next one`);
      continue;
    }
    const entry = await readSkill(dir, name);
    if (entry.ok) return { name, body: entry.skill.body };
    deps.log.warn({ ...context, skill: name }, entry.missing ? `skill "${name}" is not installed; trying the next one` : `skill "${name}" is invalid (${entry.error}); trying the next one`);
  }
  if (names.length > 0) deps.log.warn({ ...context, skills: names }, 'none of the route\'s skills is installed; the run goes on without one');
  return undefined;
}

export async function runWebhookEvent(deps: RunDeps, record: WebhookEventRecord, signal: AbortSignal): Promise<RunOutcome> {
  const context = { id: record.id, route: record.route, event: record.event, delivery_id: record.deliveryId };
  const snapshot = parseRouteSnapshot(record.routeSnapshot);
  if (!snapshot.ok) return { kind: 'failed', reason: snapshot.error };
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(record.payload) as Record<string, unknown>;
  } catch {
    return { kind: 'failed', reason: 'the stored payload is not JSON' };
  }
  // A PR route's events are about a PR; anything else (a comment on a plain issue) needs nothing.
  if (isPrRoute(snapshot.snapshot) && prEventOf(record.event, payload) === undefined) return { kind: 'skipped', reason: NOT_ABOUT_A_PR };
  // A target that cannot be delivered to is known from the payload alone: refusing it here costs
  // nothing, where finding out after the run costs a whole agent run that is then thrown away.
  const undeliverable = deliveryTargetProblem(snapshot.snapshot, record.event, payload, deps.platforms, deps.forges);
  if (undeliverable) return { kind: 'failed', reason: `not run: ${undeliverable}` };
  const plan = isPrRoute(snapshot.snapshot) ? await planPrEvent({ threads: deps.store.prThreads, forges: deps.forges, log: deps.log, findings: deps.store.prFindings }, snapshot.snapshot, record.event, payload, signal) : PLAIN;
  if (signal.aborted) return { kind: 'interrupted' };
  switch (plan.kind) {
    case 'skip':
      return { kind: 'skipped', reason: plan.reason };
    case 'failed':
      return { kind: 'failed', reason: plan.reason };
    case 'reply':
      return { kind: 'done', output: plan.text, deliverAs: plan.refusal ? 'refusal' : 'reply' };
    default:
      break;
  }
  // A review reads the PR's diff and the base branch's rules first (no shell, no approval needed).
  const review = await prepareReview(deps.forges, plan, snapshot.snapshot, signal);
  if (signal.aborted) return { kind: 'interrupted' };
  if (review.kind === 'skip') return { kind: 'skipped', reason: review.reason };
  if (review.kind === 'failed') return { kind: 'failed', reason: review.reason };
  const loaded = await loadConfig(deps.paths);
  if (!loaded.ok) return { kind: 'failed', reason: loaded.error.message };

  const skill = await firstSkill(deps, snapshot.snapshot.skills, context);
  // Read per run, so a sign-in (iris auth login) counts without a gateway restart.
  const oauth = await loadOAuthView(deps.paths);
  if (oauth.problem) deps.log.warn({ ...context }, oauth.problem);
  const runtime = await createAgentRuntime({
    paths: deps.paths,
    env: deps.env,
    oauth: oauth.view,
    config: loaded.config,
    toolsets: snapshot.snapshot.toolsets ?? WEBHOOK_TOOLSETS,
    runKind: 'gateway',
    routeSandbox: snapshot.snapshot,
    usageSource: webhookUsageSource(record.route),
    ...(review.kind === 'ready' ? { extraTools: review.tools } : {}),
    store: deps.store,
    routing: deps.routing,
    ...(deps.mcpPool ? { mcpPool: deps.mcpPool } : {}),
    instructions: webhookInstructions(snapshot.snapshot, record.event, skill),
    onApproval: (request, decision) =>
      deps.log.info({ ...context, command: request.command, approved: decision.approved, reason: decision.reason }, 'webhook run: approval'),
  });
  try {
    const session = await sessionFor(deps, runtime, record, plan);
    await deps.store.webhooks.setSession(record.id, session.record.id);
    // The route's skill is loaded into the prompt: a load, as load_skill's are.
    if (skill) await deps.store.skillLoads.record(skill.name, session.record.id, Date.now());
    deps.log.info({ ...context, session: session.record.id, skill: skill?.name, ...(plan.kind === 'run' ? { pr: plan.prKey } : {}) }, 'webhook run started');
    const basePrompt = runPrompt(plan, webhookPrompt(snapshot.snapshot, record.event, payload));
    const prompt = review.kind === 'ready' ? reviewPrompt(review.inputs, basePrompt) : basePrompt;
    const deliverAs = plan.kind === 'run' ? { deliverAs: plan.deliverAs } : {};
    const turn = async (text: string): Promise<TurnAnswer> => {
      if (plan.kind === 'run' && record.runAttempts > 1) {
        // A run of this event was cut off: its answer may be in the PR's session already, or half of it.
        const answered = finishedAnswer(session.messages, text);
        if (answered !== undefined) return { ok: true, text: answered };
        const kept = withoutUnfinishedTurn(session.messages, text);
        if (kept) {
          await deps.store.replaceMessages(session.record.id, kept);
          session.messages = kept;
        }
      }
      const result = await runtime.agent.runTurn(session, text, {}, signal);
      if (result.stopReason === 'cancelled' || signal.aborted) return { ok: false, stop: { kind: 'interrupted' } };
      if (result.stopReason === 'error') return { ok: false, stop: { kind: 'failed', reason: `the model call failed: ${result.error?.message ?? 'unknown error'}` } };
      return { ok: true, text: result.text };
    };
    const answer = await turn(prompt);
    if (!answer.ok) return answer.stop;
    if (review.kind === 'ready' && plan.kind === 'run') return await finishReview(deps.store, record, plan, review.inputs, answer.text, turn);
    return { kind: 'done', output: answer.text, ...deliverAs };
  } catch (err) {
    if (err instanceof NoMainModelError) return { kind: 'failed', reason: err.message };
    throw err;
  } finally {
    await runtime.close();
  }
}

type Runtime = Awaited<ReturnType<typeof createAgentRuntime>>;

/** A plain route's run gets a session of its own; a PR's runs continue the PR's session. */
async function sessionFor(deps: RunDeps, runtime: Runtime, record: WebhookEventRecord, plan: PrPlan): Promise<AgentSession> {
  if (plan.kind !== 'run' || !plan.sessionPerPr) return runtime.agent.newSession(`webhook:${record.route}`);
  const existing = plan.sessionId === null ? undefined : await runtime.agent.resumeSession(plan.sessionId);
  if (existing) return existing;
  // None yet, or it was deleted (iris sessions prune): the PR starts a new one, kept at once so
  // that a crash before the answer continues this one.
  const session = await runtime.agent.newSession(`webhook:${record.route}`);
  await deps.store.prThreads.update(record.route, plan.prKey, { sessionId: session.record.id });
  return session;
}

function runPrompt(plan: PrPlan, routePrompt: string): string {
  if (plan.kind !== 'run') return routePrompt;
  if (!plan.prompt.route) return plan.prompt.text;
  // trimEnd: a `prompt: |` block ends in a newline, which would make the gap before the note wider.
  return plan.prompt.note === undefined ? routePrompt : `${routePrompt.trimEnd()}\n\n${plan.prompt.note}`;
}
