// The Platforms page's calls, on the one API client (api.ts: token, failure messages): each answer
// is checked against its schema here, so the page only sees what the server promised.
import * as z from 'zod/mini';
import type { ApiResult, DashboardApi } from './api.js';

const SettingSchema = z.object({ key: z.string(), source: z.enum(['config', 'env']), secret: z.boolean(), value: z.string() });
const ConnectionSchema = z.object({
  state: z.enum(['connected', 'disconnected', 'not_reported', 'gateway_stopped', 'disabled']),
  detail: z.string(),
  since: z.nullable(z.string()),
});
const PendingSchema = z.object({
  code: z.string(),
  user_id: z.string(),
  user_name: z.nullable(z.string()),
  chat_id: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  age_seconds: z.number(),
});
const ApprovedSchema = z.object({ user_id: z.string(), user_name: z.nullable(z.string()), approved_at: z.string() });
export const PlatformCardSchema = z.object({
  name: z.string(),
  enabled: z.boolean(),
  connection: ConnectionSchema,
  settings: z.array(SettingSchema),
  owners: z.array(z.string()),
  allowed_users: z.array(z.string()),
  allow_all_users: z.boolean(),
  home_channel: z.nullable(z.string()),
  pending: z.array(PendingSchema),
  approved: z.array(ApprovedSchema),
});
export const PlatformsSchema = z.object({ gateway: z.object({ running: z.boolean(), pid: z.nullable(z.number()) }), platforms: z.array(PlatformCardSchema) });
const ApproveSchema = z.object({ platform: z.string(), user_id: z.string(), user_name: z.nullable(z.string()), approved_at: z.string() });
const RevokeSchema = z.object({ platform: z.string(), user_id: z.string(), revoked: z.literal(true) });
const TestSchema = z.object({ id: z.number(), ids: z.array(z.number()), platform: z.string(), chat_id: z.string(), state: z.string() });
const OutboxSchema = z.object({ id: z.number(), platform: z.string(), chat_id: z.string(), state: z.enum(['queued', 'sent', 'failed']), attempts: z.number(), last_error: z.nullable(z.string()) });

export type Platforms = z.infer<typeof PlatformsSchema>;
export type PlatformCard = z.infer<typeof PlatformCardSchema>;
export type PendingCode = z.infer<typeof PendingSchema>;
export type ApprovedUser = z.infer<typeof ApprovedSchema>;
export type ConnectionState = z.infer<typeof ConnectionSchema>['state'];
export type TestAnswer = z.infer<typeof TestSchema>;
export type OutboxState = z.infer<typeof OutboxSchema>;

export type PlatformsClient = {
  readonly list: () => Promise<ApiResult<Platforms>>;
  readonly approve: (platform: string, code: string) => Promise<ApiResult<z.infer<typeof ApproveSchema>>>;
  readonly revoke: (platform: string, user: string) => Promise<ApiResult<z.infer<typeof RevokeSchema>>>;
  readonly test: (platform: string, chat: string | null) => Promise<ApiResult<TestAnswer>>;
  readonly outbox: (platform: string, id: number) => Promise<ApiResult<OutboxState>>;
};

const post = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
const named = (platform: string) => `/api/platforms/${encodeURIComponent(platform)}`;

export function platformsClient(api: DashboardApi): PlatformsClient {
  return {
    list: () => api.request('/api/platforms', PlatformsSchema),
    approve: (platform, code) => api.request(`${named(platform)}/pairing/approve`, ApproveSchema, post({ code })),
    revoke: (platform, user) => api.request(`${named(platform)}/pairing/revoke`, RevokeSchema, post({ user })),
    test: (platform, chat) => api.request(`${named(platform)}/test`, TestSchema, post(chat === null ? {} : { chat })),
    outbox: (platform, id) => api.request(`${named(platform)}/outbox/${id}`, OutboxSchema),
  };
}
