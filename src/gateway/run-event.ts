// One accepted event's agent run: a fresh config (so a run always sees the current settings), its
// own session, the `service-webhook` toolset under the unattended approval policy, the route's
// first skill that exists, and the output stored before anything is delivered.
import { loadOAuthView } from '../auth/view.js';
import type { Env, HomePaths } from '../config/home.js';
import { loadConfig } from '../config/store.js';
import { NoMainModelError } from '../agent/agent.js';
import { createAgentRuntime } from '../agent/runtime.js';
import { checkSkillName } from '../agent/tools/skills/skill-file.js';
import { readSkill, skillsDir } from '../agent/tools/skills/skills.js';
import type { RoutingDeps } from '../routing/call-model.js';
import type { Store } from '../store/types.js';
import type { WebhookEventRecord } from '../store/webhook-types.js';
import { parseRouteSnapshot } from '../webhook/routes.js';
import { WEBHOOK_TOOLSETS } from '../domain/toolsets.js';
import { deliveryTargetProblem } from './deliver-event.js';
import type { PlatformTargets } from '../platforms/delivery-target.js';
import type { ListenerLog } from '../webhook/listener.js';
import { webhookInstructions, webhookPrompt, type LoadedSkill } from './run-prompt.js';

export { WEBHOOK_TOOLSETS } from '../domain/toolsets.js';

export type RunOutcome =
  | { readonly kind: 'done'; readonly output: string }
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
};

/** The first skill of the list that exists; each missing or broken one before it is a warning. */
async function firstSkill(deps: RunDeps, names: readonly string[], context: object): Promise<LoadedSkill | undefined> {
  const dir = skillsDir(deps.paths);
  for (const name of names) {
    const badName = checkSkillName(name);
    if (badName) {
      deps.log.warn({ ...context, skill: name }, `skill ${badName}; trying the next one`);
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
  // A target that cannot be delivered to is known from the payload alone: refusing it here costs
  // nothing, where finding out after the run costs a whole agent run that is then thrown away.
  const undeliverable = deliveryTargetProblem(snapshot.snapshot, payload, deps.platforms);
  if (undeliverable) return { kind: 'failed', reason: `not run: ${undeliverable}` };
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
    store: deps.store,
    routing: deps.routing,
    instructions: webhookInstructions(snapshot.snapshot, record.event, skill),
    onApproval: (request, decision) =>
      deps.log.info({ ...context, command: request.command, approved: decision.approved, reason: decision.reason }, 'webhook run: approval'),
  });
  try {
    const session = await runtime.agent.newSession(`webhook:${record.route}`);
    await deps.store.webhooks.setSession(record.id, session.record.id);
    // The route's skill is loaded into the prompt: a load, as load_skill's are.
    if (skill) await deps.store.skillLoads.record(skill.name, session.record.id, Date.now());
    deps.log.info({ ...context, session: session.record.id, skill: skill?.name }, 'webhook run started');
    const result = await runtime.agent.runTurn(session, webhookPrompt(snapshot.snapshot, record.event, payload), {}, signal);
    if (result.stopReason === 'cancelled' || signal.aborted) return { kind: 'interrupted' };
    if (result.stopReason === 'error') return { kind: 'failed', reason: `the model call failed: ${result.error?.message ?? 'unknown error'}` };
    return { kind: 'done', output: result.text };
  } catch (err) {
    if (err instanceof NoMainModelError) return { kind: 'failed', reason: err.message };
    throw err;
  } finally {
    await runtime.close();
  }
}
