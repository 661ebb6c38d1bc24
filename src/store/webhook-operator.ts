// What an operator may do again with a finished webhook event (the dashboard's Redeliver and
// Re-run), decided from the stored record alone; both stores ask this inside the transaction that
// then changes the row. Pure. Also the SQL condition for "an event in this state" on the stored
// columns, shared by both stores' `list`.
import type { OperatorRefusal, WebhookEventRecord, WebhookEventState } from './webhook-types.js';

const UNDER_WAY: ReadonlySet<WebhookEventState> = new Set(['accepted', 'running', 'done', 'delivering']);

/**
 * Redeliver: the stored answer again, so there must be one, and no delivery of it under way. A
 * failed event with an answer is one whose delivery failed; one without failed before the run answered.
 */
export function redeliverRefusal(record: WebhookEventRecord | undefined): OperatorRefusal | undefined {
  if (record === undefined) return 'not_found';
  if (UNDER_WAY.has(record.state)) return 'not_finished';
  if (record.state === 'skipped' || record.output === null) return 'no_answer';
  return undefined;
}

/** Re-run: a new run of a finished event; one still on its way would race its own copy. */
export function rerunRefusal(record: WebhookEventRecord | undefined): Exclude<OperatorRefusal, 'no_answer'> | undefined {
  if (record === undefined) return 'not_found';
  if (UNDER_WAY.has(record.state)) return 'not_finished';
  return undefined;
}

/**
 * The WHERE condition for events in `state` on the stored columns (`delivering` is stored as `done`
 * with a delivery start, `skipped` as `delivered` with a reason: see webhook-inbox.ts `stateOf`).
 * Constant text: the state is one of the known names, never the caller's string.
 */
export function stateCondition(state: WebhookEventState): string {
  switch (state) {
    case 'done':
      return "state = 'done' AND delivery_started_at IS NULL";
    case 'delivering':
      return "state = 'done' AND delivery_started_at IS NOT NULL";
    case 'delivered':
      return "state = 'delivered' AND skipped IS NULL";
    case 'skipped':
      return "state = 'delivered' AND skipped IS NOT NULL";
    case 'accepted':
    case 'running':
    case 'failed':
      return `state = '${state}'`;
  }
}
