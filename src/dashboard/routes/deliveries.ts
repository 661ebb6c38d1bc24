// The Deliveries API (docs/dashboard.md § Deliveries): the inbox's events newest first, one event's
// whole story (the prompt its run was given, the answer, where it went, a review's findings), and
// the operator's Redeliver and Re-run. The rows and the detail are `iris webhook deliveries
// [--show <id>] --json`'s (webhook/delivery-view.ts), so the page and the CLI agree. Redeliver and
// Re-run only change the store: the running gateway (another process) does the work, finding a
// requeued delivery or a new event at its next poll (worker-pool.ts).
import { randomUUID } from 'node:crypto';
import type { Store } from '../../store/types.js';
import type { OperatorRefusal, WebhookEventRecord } from '../../store/webhook-types.js';
import { deliveryDetail } from '../../webhook/delivery-view.js';
import { deliveryListRow, deliveryStory } from '../../webhook/delivery-story.js';
import { parseDeliveriesQuery, parseEventId } from '../../webhook/deliveries-query.js';
import { HttpError } from '../http-error.js';
import type { DashboardContext, RouteArea, RouteRequest } from './route.js';
import { noBody } from './no-body.js';

const unknownEvent = (id: string) => new HttpError(404, `no webhook event #${id.slice(0, 40)} (the list shows the events there are)`);

/** The id a path names: 404 for what cannot be an event id, as for an unknown one. */
function eventId(request: RouteRequest): number {
  const id = parseEventId(request.params.id!);
  if (id === undefined) throw unknownEvent(request.params.id!);
  return id;
}

/** Why an operator's request was refused, as the page says it. */
function refusal(reason: OperatorRefusal, id: number, record: WebhookEventRecord | undefined, action: 'redeliver' | 'rerun'): HttpError {
  if (reason === 'not_found') return unknownEvent(String(id));
  if (reason === 'no_answer') return new HttpError(409, `event #${id} has no stored answer to deliver (it is ${record?.state ?? 'gone'}); Re-run runs it again`);
  const state = record?.state ?? 'on its way';
  return new HttpError(409, `event #${id} is still ${state}: ${action === 'redeliver' ? 'its delivery' : 'a re-run'} can be asked for once it has finished`);
}

export const deliveryRoutes: RouteArea = (context: DashboardContext) => {
  const existing = async (request: RouteRequest): Promise<{ store: Store; id: number }> => {
    const id = eventId(request);
    const store = await context.existingStore();
    if (!store) throw unknownEvent(String(id));
    return { store, id };
  };

  return [
    {
      method: 'GET',
      path: '/api/deliveries',
      run: async ({ url }) => {
        const parsed = parseDeliveriesQuery(url.searchParams);
        if (!parsed.ok) throw new HttpError(400, parsed.error);
        const store = await context.existingStore();
        if (!store) return { deliveries: [] };
        const records = await store.webhooks.list(parsed.query);
        return { deliveries: records.map(deliveryListRow) };
      },
    },
    {
      method: 'GET',
      path: '/api/deliveries/:id',
      run: async (request) => {
        const { store, id } = await existing(request);
        const record = await store.webhooks.get(id);
        if (!record) throw unknownEvent(String(id));
        return deliveryStory(store.prFindings, record);
      },
    },
    {
      method: 'POST',
      path: '/api/deliveries/:id/redeliver',
      run: (request) =>
        context.audited(request, 'delivery.redeliver', () => `event ${request.params.id ?? ''}`, async () => {
          await noBody(context, request);
          const { store, id } = await existing(request);
          const outcome = await store.webhooks.requeueDelivery(id);
          if (!outcome.ok) throw refusal(outcome.reason, id, await store.webhooks.get(id), 'redeliver');
          return { id, state: outcome.record.state, outcome: deliveryDetail(outcome.record).outcome };
        }),
    },
    {
      method: 'POST',
      path: '/api/deliveries/:id/rerun',
      run: (request) =>
        context.audited(request, 'delivery.rerun', () => `event ${request.params.id ?? ''}`, async () => {
          await noBody(context, request);
          const { store, id } = await existing(request);
          const deliveryId = `rerun-${id}-${randomUUID()}`;
          const outcome = await store.webhooks.rerun(id, deliveryId);
          if (!outcome.ok) throw refusal(outcome.reason, id, await store.webhooks.get(id), 'rerun');
          return { id: outcome.id, delivery_id: deliveryId, rerun_of: id };
        }),
    },
  ];
};
