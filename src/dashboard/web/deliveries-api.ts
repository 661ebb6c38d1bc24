// The Deliveries page's calls (docs/dashboard.md § Deliveries), on the one API client: each answer
// is checked against its shape here, and every failure comes back as a message to show inline.
import * as z from 'zod/mini';
import type { ApiResult, DashboardApi } from './api.js';

export const EVENT_STATES = ['accepted', 'running', 'done', 'delivering', 'delivered', 'failed', 'skipped'] as const;
export type EventState = (typeof EVENT_STATES)[number];

const StateSchema = z.enum(EVENT_STATES);

const RowSchema = z.object({
  id: z.number(),
  received_at: z.string(),
  updated_at: z.string(),
  route: z.string(),
  event: z.string(),
  delivery_id: z.string(),
  state: StateSchema,
  session: z.nullable(z.string()),
  run_attempts: z.number(),
  delivery_attempts: z.number(),
  reason: z.nullable(z.string()),
  answer_first_line: z.nullable(z.string()),
});
export type DeliveryRow = z.infer<typeof RowSchema>;

const ListSchema = z.object({ deliveries: z.array(RowSchema) });

const FindingSchema = z.object({ path: z.string(), line: z.number(), severity: z.string(), title: z.string() });
export type Finding = z.infer<typeof FindingSchema>;

const ReviewSchema = z.object({
  inline: z.array(FindingSchema),
  in_summary: z.array(FindingSchema),
  repeats: z.array(z.object({ path: z.string(), line: z.number(), severity: z.string(), title: z.string(), state: z.string() })),
  outdated: z.array(z.object({ path: z.string(), line: z.number(), severity: z.string(), title: z.string(), note: z.optional(z.string()) })),
  unreadable: z.boolean(),
});
export type Review = z.infer<typeof ReviewSchema>;

const DetailSchema = z.object({
  id: z.number(),
  received_at: z.string(),
  updated_at: z.string(),
  route: z.string(),
  event: z.string(),
  delivery_id: z.string(),
  state: StateSchema,
  session: z.nullable(z.string()),
  run_attempts: z.number(),
  delivery_attempts: z.number(),
  reason: z.nullable(z.string()),
  deliver: z.nullable(z.string()),
  outcome: z.string(),
  answer: z.nullable(z.string()),
  prompt: z.nullable(z.string()),
  review: z.optional(ReviewSchema),
});
export type DeliveryDetail = z.infer<typeof DetailSchema>;

const RedeliveredSchema = z.object({ id: z.number(), state: z.string(), outcome: z.string() });
const RerunSchema = z.object({ id: z.number(), delivery_id: z.string(), rerun_of: z.number() });
export type Rerun = z.infer<typeof RerunSchema>;

export type ListQuery = { readonly route: string; readonly state: EventState | '' };
export const LIST_LIMIT = 100;

export function listPath(query: ListQuery): string {
  const params = new URLSearchParams();
  if (query.route !== '') params.set('route', query.route);
  if (query.state !== '') params.set('state', query.state);
  params.set('limit', String(LIST_LIMIT));
  return `/api/deliveries?${params.toString()}`;
}

export type DeliveriesApi = {
  readonly list: (query: ListQuery) => Promise<ApiResult<readonly DeliveryRow[]>>;
  readonly detail: (id: string) => Promise<ApiResult<DeliveryDetail>>;
  readonly redeliver: (id: number) => Promise<ApiResult<{ outcome: string }>>;
  readonly rerun: (id: number) => Promise<ApiResult<Rerun>>;
};

export function createDeliveriesApi(api: DashboardApi): DeliveriesApi {
  return {
    list: async (query) => {
      const result = await api.request(listPath(query), ListSchema);
      return result.ok ? { ok: true, value: result.value.deliveries } : result;
    },
    detail: (id) => api.request(`/api/deliveries/${encodeURIComponent(id)}`, DetailSchema),
    redeliver: (id) => api.request(`/api/deliveries/${id}/redeliver`, RedeliveredSchema, { method: 'POST' }),
    rerun: (id) => api.request(`/api/deliveries/${id}/rerun`, RerunSchema, { method: 'POST' }),
  };
}
