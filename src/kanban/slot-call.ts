// The kanban slots outside a session (the CLI): callModel on the config's routes, so a pinned
// slot, `auto` (the main model) and the fallback chain all apply; usage is recorded under the
// slot's task with no session.
import { callCounted } from '../agent/slot-usage.js';
import type { RoutingDeps, RoutingSnapshot } from '../routing/call-model.js';
import type { Store } from '../store/types.js';
import type { AskKanbanSlot } from './refine.js';

/** A spec or eight child tasks with bodies: room enough, yet bounded. */
const KANBAN_MAX_OUTPUT_TOKENS = 4000;

export function createKanbanAsk(routes: RoutingSnapshot, routing: RoutingDeps, store: Store, now: () => number = Date.now): AskKanbanSlot {
  return async (slot, system, messages) => {
    const result = await callCounted(slot, { system, messages, maxOutputTokens: KANBAN_MAX_OUTPUT_TOKENS }, routes, routing, (record) => store.recordUsage(record), now);
    return result.ok ? { ok: true, text: result.text } : { ok: false, error: result.error.message };
  };
}
