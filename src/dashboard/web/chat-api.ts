// The Chat page's calls (docs/dashboard.md § Chat), on the dashboard's one API client: each
// failure comes back as a message to show inline.
import * as z from 'zod/mini';
import type { ApiResult, DashboardApi } from './api.js';

const ChatSession = z.object({
  id: z.string(),
  title: z.nullable(z.string()),
  source: z.string(),
  provider: z.string(),
  model: z.string(),
  status: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

const ChatModel = z.object({ provider: z.string(), model: z.string() });

export const ChatViewSchema = z.object({ session: ChatSession, model: ChatModel, running: z.boolean() });
export type ChatView = z.infer<typeof ChatViewSchema>;
export type ChatModelRef = z.infer<typeof ChatModel>;

const ChatListSchema = z.object({
  sessions: z.array(z.extend(ChatSession, { messages: z.number(), running: z.boolean() })),
});
export type ChatSummary = z.infer<typeof ChatListSchema>['sessions'][number];

/** What POST …/messages answers: a run started, or a command's reply (with the session after it). */
const SendAnswerSchema = z.object({
  run: z.optional(z.string()),
  reply: z.optional(z.string()),
  session: z.optional(ChatSession),
  model: z.optional(ChatModel),
});
export type SendAnswer = z.infer<typeof SendAnswerSchema>;

const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
const path = (id: string) => `/api/chat/sessions/${encodeURIComponent(id)}`;

export function chatApi(api: DashboardApi) {
  return {
    list: (): Promise<ApiResult<ChatSummary[]>> =>
      api.request('/api/chat/sessions', ChatListSchema).then((r) => (r.ok ? { ok: true, value: r.value.sessions } : r)),
    create: () => api.request('/api/chat/sessions', ChatViewSchema, json({})),
    get: (id: string) => api.request(path(id), ChatViewSchema),
    send: (id: string, text: string) => api.request(`${path(id)}/messages`, SendAnswerSchema, json({ text })),
    stop: (id: string) => api.request(`${path(id)}/stop`, z.object({ stopped: z.boolean() }), json({})),
    answer: (approvalId: string, decision: 'approve' | 'deny') =>
      api.request(`/api/chat/approvals/${encodeURIComponent(approvalId)}`, z.object({ approved: z.boolean() }), json({ decision })),
  };
}

export type ChatApi = ReturnType<typeof chatApi>;
