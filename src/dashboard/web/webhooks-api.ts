// The Webhooks page's calls, on the one API client (api.ts: token, failure messages): each answer
// is checked against its schema here, so the page only sees what the server promised.
import * as z from 'zod/mini';
import type { ApiResult, DashboardApi } from './api.js';

const FilterSchema = z.looseObject({ field: z.string(), in: z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])) });
const LastDeliverySchema = z.object({ id: z.number(), state: z.string(), received_at: z.string(), updated_at: z.string() });

export const WebhookRouteSchema = z.object({
  name: z.string(),
  source: z.enum(['config', 'subscription']),
  enabled: z.boolean(),
  events: z.array(z.string()),
  filters: z.array(FilterSchema),
  deliver: z.string(),
  deliver_extra: z.record(z.string(), z.union([z.string(), z.number()])),
  url: z.string(),
  has_secret: z.boolean(),
  last_delivery: z.nullable(LastDeliverySchema),
});

export const WebhookListSchema = z.object({
  platform_enabled: z.boolean(),
  listener: z.string(),
  deliver_targets: z.array(z.string()),
  routes: z.array(WebhookRouteSchema),
  problems: z.array(z.string()),
});

const SubscribedSchema = z.object({
  name: z.string(),
  url: z.string(),
  updated: z.boolean(),
  events: z.array(z.string()),
  deliver: z.string(),
  deliver_extra: z.record(z.string(), z.union([z.string(), z.number()])),
  secret: z.nullable(z.string()),
});
const RemovedSchema = z.object({ removed: z.string() });
const TestSentSchema = z.object({ status: z.number(), body: z.unknown(), delivery_id: z.string(), event: z.string(), sample: z.nullable(z.string()) });

export type WebhookRoute = z.infer<typeof WebhookRouteSchema>;
export type WebhookList = z.infer<typeof WebhookListSchema>;
export type Subscribed = z.infer<typeof SubscribedSchema>;
export type TestSent = z.infer<typeof TestSentSchema>;

/** What POST /api/webhooks takes (webhooks-view.ts builds it from the form). */
export type SubscribeBody = {
  readonly name: string;
  readonly events: readonly string[];
  readonly prompt?: string;
  readonly deliver: string;
  readonly deliver_extra: Readonly<Record<string, string>>;
};

export type WebhooksClient = {
  readonly list: () => Promise<ApiResult<WebhookList>>;
  readonly subscribe: (body: SubscribeBody) => Promise<ApiResult<Subscribed>>;
  readonly remove: (name: string) => Promise<ApiResult<z.infer<typeof RemovedSchema>>>;
  readonly test: (name: string) => Promise<ApiResult<TestSent>>;
};

const jsonBody = (method: string, body: unknown): RequestInit => ({ method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
const named = (name: string) => `/api/webhooks/${encodeURIComponent(name)}`;

export function webhooksClient(api: DashboardApi): WebhooksClient {
  return {
    list: () => api.request('/api/webhooks', WebhookListSchema),
    subscribe: (body) => api.request('/api/webhooks', SubscribedSchema, jsonBody('POST', body)),
    remove: (name) => api.request(named(name), RemovedSchema, { method: 'DELETE' }),
    test: (name) => api.request(`${named(name)}/test`, TestSentSchema, jsonBody('POST', {})),
  };
}
