// The Webhooks page's API: the routes (config.yaml and subscriptions) with their last delivery,
// subscribe (the new secret in this one answer, never again), remove, and a signed test event for
// this home's running gateway. The work is the library `iris webhook subscribe|list|remove|test`
// calls (src/webhook/manage-routes.ts); every write is a line in audit.log, done or refused.
import { DELIVER_TARGETS } from '../../config/schema.js';
import { redactStrings, redactText } from '../../log/redact.js';
import type { Store } from '../../store/types.js';
import { answerBody, listenerBase, removeSubscription, routeRows, sendTestEvent, subscribeRoute, type FieldLabel, type RouteFailure } from '../../webhook/manage-routes.js';
import { loadSubscriptions } from '../../webhook/subscriptions.js';
import { HttpError } from '../http-error.js';
import { parseSubscribeBody, parseTestBody, STATUS_BY_FAILURE } from '../webhooks-request.js';
import type { RouteArea } from './route.js';

/** A JSON body names its fields as they are spelled in it. */
const field: FieldLabel = (name) => name;

const refused = (error: RouteFailure) => new HttpError(STATUS_BY_FAILURE[error.code], error.message);

export type LastDelivery = { readonly id: number; readonly state: string; readonly received_at: string; readonly updated_at: string };

/** The newest event of a route, for the link to its delivery; null before its first one (or before there is a store). */
async function lastDelivery(store: Store | undefined, route: string): Promise<LastDelivery | null> {
  if (!store) return null;
  const [newest] = await store.webhooks.list({ route, limit: 1 });
  if (!newest) return null;
  return { id: newest.id, state: newest.state, received_at: new Date(newest.receivedAt).toISOString(), updated_at: new Date(newest.updatedAt).toISOString() };
}

export const webhookRoutes: RouteArea = (context) => [
  {
    method: 'GET',
    path: '/api/webhooks',
    run: async () => {
      const config = await context.currentConfig();
      const loaded = await loadSubscriptions(context.paths);
      if (!loaded.ok) throw new HttpError(500, loaded.error.message);
      const base = await listenerBase(context.paths, config);
      const store = await context.existingStore();
      const rows = routeRows(config, loaded.subscriptions, base);
      // Redacted like a log line: a token pasted into a delivery setting or a filter stays on the server.
      const routes = await Promise.all(rows.map(async (row) => ({ ...redactStrings(row), last_delivery: await lastDelivery(store, row.name) })));
      return { platform_enabled: config.platforms.webhook.enabled, listener: base, deliver_targets: DELIVER_TARGETS, routes, problems: loaded.problems.map(redactText) };
    },
  },
  {
    method: 'POST',
    path: '/api/webhooks',
    run: (request) => {
      let target = '';
      return context.audited(request, 'webhook.subscribe', () => target, async () => {
        const body = parseSubscribeBody(await context.readJson(request.req));
        if (!body.ok) throw new HttpError(400, body.error);
        target = body.input.name;
        const result = await subscribeRoute(context.paths, await context.currentConfig(), body.input, field);
        if (!result.ok) throw refused(result.error);
        const { name, url, updated, deliver, subscription, secretShown } = result;
        return {
          status: updated ? 200 : 201,
          body: {
            name,
            url,
            updated,
            events: subscription.events,
            deliver,
            deliver_extra: subscription.deliver_extra,
            // Only for a new subscription: the one time the secret leaves the server.
            secret: secretShown ?? null,
          },
        };
      });
    },
  },
  {
    method: 'DELETE',
    path: '/api/webhooks/:name',
    run: (request) => {
      const name = request.params.name ?? '';
      return context.audited(request, 'webhook.remove', () => name, async () => {
        const result = await removeSubscription(context.paths, await context.currentConfig(), name);
        if (!result.ok) throw refused(result.error);
        return { removed: result.removed };
      });
    },
  },
  {
    method: 'POST',
    path: '/api/webhooks/:name/test',
    run: (request) => {
      const name = request.params.name ?? '';
      return context.audited(request, 'webhook.test', () => name, async () => {
        const body = parseTestBody(await context.readJson(request.req));
        if (!body.ok) throw new HttpError(400, body.error);
        const loaded = await loadSubscriptions(context.paths);
        if (!loaded.ok) throw new HttpError(500, loaded.error.message);
        const sent = await sendTestEvent(context.paths, await context.currentConfig(), loaded.subscriptions, name, body.request, field);
        if (!sent.ok) throw refused(sent.error);
        // 200 whatever the gateway said: its status is in the body, for the page to show. (Wrapped,
        // since a bare body with `status` and `body` would read as a status answer to server.ts.)
        const answer = { status: sent.status, body: redactStrings(answerBody(sent.text)), delivery_id: sent.deliveryId, event: sent.event, sample: sent.sample?.description ?? null };
        return { status: 200, body: answer };
      });
    },
  },
];
