// The Models page's Test button (POST /api/model/test): one short request through the routing a
// slot's real calls take (its own route, its fallback chain, the global fallbacks, discovery), and
// the answer the page shows: who answered, how long it took, and every route tried before. Pure:
// the route file makes the call and times it.
import { redactText } from '../log/redact.js';
import type { TaskCompletion, TaskRequest } from '../routing/call-model.js';
import { SLOT_IDS, type SlotId } from '../routing/resolve.js';

/** Small on purpose: a test costs a few tokens, and any model can answer it. */
export const SLOT_TEST_MAX_OUTPUT_TOKENS = 32;
/** The reply is someone else's text: shown shortened, and never trusted as markup. */
const REPLY_LIMIT = 200;

export function slotTestRequest(): TaskRequest {
  return {
    system: 'You are answering a connection test. Reply with the single word: ok',
    messages: [{ role: 'user', content: 'Connection test from the Iris dashboard: reply with the single word ok.' }],
    maxOutputTokens: SLOT_TEST_MAX_OUTPUT_TOKENS,
  };
}

export type SlotTestBody = { readonly ok: true; readonly slot: SlotId } | { readonly ok: false; readonly status: 400; readonly error: string };

export function parseSlotTestBody(body: unknown): SlotTestBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, status: 400, error: 'the body must be a JSON object {task}' };
  const task = (body as { task?: unknown }).task;
  if (typeof task !== 'string') return { ok: false, status: 400, error: 'task must be a string: main or an auxiliary task id' };
  if (!(SLOT_IDS as readonly string[]).includes(task)) return { ok: false, status: 400, error: `unknown task "${task}" (tasks: ${SLOT_IDS.join(', ')})` };
  return { ok: true, slot: task as SlotId };
}

export type SlotTestAttempt = {
  readonly provider: string;
  readonly model: string;
  /** Why the route is in the list (task, task_fallback_chain, fallback_providers, discovery…). */
  readonly reason: string;
  readonly outcome: 'served' | 'failed' | 'skipped';
  readonly detail?: string;
};

export type SlotTestOutcome =
  | {
      readonly ok: true;
      readonly task: SlotId;
      readonly provider: string;
      readonly model: string;
      readonly latency_ms: number;
      /** True when the slot's first route did not answer. */
      readonly fell_back: boolean;
      readonly attempts: readonly SlotTestAttempt[];
      readonly reply: string;
    }
  | { readonly ok: false; readonly task: SlotId; readonly error: string; readonly latency_ms: number; readonly attempts: readonly SlotTestAttempt[] };

export function slotTestOutcome(slot: SlotId, completion: TaskCompletion, latencyMs: number): SlotTestOutcome {
  const attempts = completion.report.attempts.map((a) => ({
    provider: a.provider,
    model: a.model,
    reason: a.reason,
    outcome: a.outcome,
    ...(a.detail !== undefined ? { detail: redactText(a.detail) } : {}),
  }));
  const latency_ms = Math.max(0, Math.round(latencyMs));
  const served = completion.report.served;
  if (!completion.ok || !served) {
    const message = completion.ok ? 'no route answered' : completion.error.message;
    return { ok: false, task: slot, error: `${slot}: every route failed: ${redactText(message)}`, latency_ms, attempts };
  }
  const text = completion.text.trim();
  return {
    ok: true,
    task: slot,
    provider: served.provider,
    model: served.model,
    latency_ms,
    fell_back: attempts.some((a) => a.outcome !== 'served'),
    attempts,
    reply: redactText(text.length > REPLY_LIMIT ? `${text.slice(0, REPLY_LIMIT - 1)}…` : text),
  };
}
