// The health strip's call, on the one API client (api.ts: token, failure messages): GET
// /api/health checked against the shape routes/health.ts answers with.
import * as z from 'zod/mini';
import type { ApiResult, DashboardApi } from './api.js';

const GATEWAY_STATES = ['running', 'not_running', 'stale_pid_file', 'bad_pid_file'] as const;
const ROLES = ['listener', 'worker', 'all'] as const;

export const HealthSchema = z.object({
  gateway: z.object({
    state: z.enum(GATEWAY_STATES),
    pid: z.nullable(z.number()),
    processes: z.array(z.object({ pid: z.number(), role: z.enum(ROLES) })),
    listening: z.boolean(),
    working: z.boolean(),
  }),
  listener: z.object({ url: z.string(), answers_health: z.boolean() }),
  platforms: z.array(z.object({ name: z.string(), connected: z.boolean(), detail: z.string(), since: z.nullable(z.string()) })),
  inbox: z.object({ accepted: z.number(), running: z.number(), done: z.number(), delivering: z.number() }),
  chat: z.object({ inbound: z.number(), outbox: z.number() }),
  runs_in_progress: z.number(),
  failing: z.object({ webhook_events_24h: z.object({ count: z.number() }), chat_sends_24h: z.object({ count: z.number() }) }),
});

export type Health = z.infer<typeof HealthSchema>;

export function fetchHealth(api: DashboardApi): Promise<ApiResult<Health>> {
  return api.request('/api/health', HealthSchema);
}
