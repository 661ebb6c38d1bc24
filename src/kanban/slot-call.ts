// The kanban slots outside a session (the CLI, the dashboard): callModel on the config's routes,
// so a pinned slot, `auto` (the main model) and the fallback chain all apply; usage is recorded
// under the slot's task with no session, and the source of whoever asked.
import { callCounted, type UsageSink } from '../agent/slot-usage.js';
import { loadOAuthView } from '../auth/view.js';
import type { Config } from '../config/schema.js';
import type { Env, HomePaths } from '../config/home.js';
import type { UsageSource } from '../domain/usage-ledger.js';
import { rotationOf } from '../log/rotation.js';
import { snapshotRoutes, type RoutingDeps, type RoutingSnapshot } from '../routing/call-model.js';
import { createRoutingDeps } from '../routing/runtime.js';
import type { Store } from '../store/types.js';
import type { AskKanbanSlot } from './refine.js';

/** A spec or eight child tasks with bodies: room enough, yet bounded. */
const KANBAN_MAX_OUTPUT_TOKENS = 4000;

export function createKanbanAsk(routes: RoutingSnapshot, routing: RoutingDeps, store: Store, source: UsageSource, now: () => number = Date.now): AskKanbanSlot {
  const sink: UsageSink = { source, record: (record) => store.recordUsage(record) };
  return async (slot, system, messages) => {
    const result = await callCounted(slot, { system, messages, maxOutputTokens: KANBAN_MAX_OUTPUT_TOKENS }, routes, routing, sink, now);
    return result.ok ? { ok: true, text: result.text } : { ok: false, error: result.error.message };
  };
}

/** The routes and routing `iris chat` would resolve from this home; `oauthProblem` is auth.json's warning, if any. */
export type KanbanRouting = { readonly routes: RoutingSnapshot; readonly routing: RoutingDeps; readonly oauthProblem?: string };

export async function kanbanRouting(paths: HomePaths, env: Env, config: Readonly<Config>): Promise<KanbanRouting> {
  const oauth = await loadOAuthView(paths);
  const routing = createRoutingDeps(paths, env, { rotation: rotationOf(config.logging) });
  const routes = snapshotRoutes(config, env, oauth.view);
  return { routes, routing, ...(oauth.problem ? { oauthProblem: oauth.problem } : {}) };
}
