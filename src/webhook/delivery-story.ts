// One event's whole story, as `iris webhook deliveries --show <id> --json` prints it and the
// dashboard's Deliveries view shows it: the detail (state, outcome, answer, a review's findings)
// and the prompt its run was given. Everything in it came from a stranger's payload or a model's
// answer, so it is redacted like a log line, in both places.
import { redactStrings } from '../log/redact.js';
import { parseReviewPlan } from '../review/review-plan.js';
import type { PrFindings } from '../store/pr-finding-types.js';
import type { WebhookEventRecord } from '../store/webhook-types.js';
import { deliveryDetail, deliveryPrompt, deliveryRow, type DeliveryDetail, type DeliveryRow } from './delivery-view.js';

export type DeliveryStory = DeliveryDetail & { readonly prompt: string | null };

export async function deliveryStory(findings: Pick<PrFindings, 'plan'>, record: WebhookEventRecord): Promise<DeliveryStory> {
  const stored = await findings.plan(record.id);
  const plan = stored === undefined ? undefined : parseReviewPlan(stored.plan);
  return redactStrings({ ...deliveryDetail(record, plan), prompt: deliveryPrompt(record) ?? null });
}

/** One row of the list (`iris webhook deliveries --json`, the Deliveries view), redacted alike. */
export function deliveryListRow(record: WebhookEventRecord): DeliveryRow & { readonly updated_at: string } {
  return redactStrings({ ...deliveryRow(record), updated_at: new Date(record.updatedAt).toISOString() });
}
