// The Sessions page's calls (docs/dashboard.md § Sessions), on the one API client: each answer is
// checked against its shape here, and every failure comes back as a message to show inline.
import * as z from 'zod/mini';
import type { ApiResult, DashboardApi } from './api.js';

export const TABS = [
  { id: 'chats', label: 'Chats' },
  { id: 'automation', label: 'Automation' },
  { id: 'all', label: 'All' },
] as const;
export type TabId = (typeof TABS)[number]['id'];

const SessionRowSchema = z.object({
  id: z.string(),
  title: z.nullable(z.string()),
  source: z.string(),
  provider: z.string(),
  model: z.string(),
  messages: z.number(),
  status: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SessionRow = z.infer<typeof SessionRowSchema>;

const SessionListSchema = z.object({ sessions: z.array(SessionRowSchema), total: z.number(), scan_limited: z.boolean() });
export type SessionList = z.infer<typeof SessionListSchema>;

const Totals = {
  calls: z.number(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  cached_tokens: z.number(),
  cache_write_tokens: z.number(),
  cost_usd: z.nullable(z.number()),
  unpriced_calls: z.number(),
};
const TotalsSchema = z.object(Totals);
export type UsageTotals = z.infer<typeof TotalsSchema>;

const ToolCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  arguments: z.string(),
  result: z.nullable(z.string()),
  ok: z.nullable(z.boolean()),
  result_chars: z.number(),
});
export type ToolCallView = z.infer<typeof ToolCallSchema>;

const MessageSchema = z.discriminatedUnion('role', [
  z.object({ turn: z.number(), at: z.string(), role: z.literal('user'), text: z.string() }),
  z.object({ turn: z.number(), at: z.string(), role: z.literal('assistant'), text: z.string(), tool_calls: z.array(ToolCallSchema) }),
  z.object({ turn: z.number(), at: z.string(), role: z.literal('tool'), name: z.string(), text: z.string(), ok: z.boolean() }),
]);
export type TranscriptMessage = z.infer<typeof MessageSchema>;

const TurnSchema = z.object({
  turn: z.number(),
  models: z.array(z.object({ provider: z.string(), model: z.string() })),
  tasks: z.array(z.string()),
  ...Totals,
});
export type Turn = z.infer<typeof TurnSchema>;

const TranscriptSchema = z.object({ session: SessionRowSchema, messages: z.array(MessageSchema), turns: z.array(TurnSchema), totals: TotalsSchema });
export type Transcript = z.infer<typeof TranscriptSchema>;

const RenamedSchema = z.object({ id: z.string(), title: z.nullable(z.string()), previous_title: z.nullable(z.string()) });
const DeletedSchema = z.object({ deleted: z.array(z.string()) });

export type ListRequest = { readonly tab: TabId; readonly q: string; readonly source: string; readonly offset: number; readonly limit: number };

export function listPath(request: ListRequest): string {
  const params = new URLSearchParams({ tab: request.tab });
  if (request.q.trim() !== '') params.set('q', request.q.trim());
  if (request.source !== '') params.set('source', request.source);
  params.set('limit', String(request.limit));
  if (request.offset > 0) params.set('offset', String(request.offset));
  return `/api/sessions?${params.toString()}`;
}

const sessionPath = (id: string) => `/api/sessions/${encodeURIComponent(id)}`;

export type Download = { readonly blob: Blob; readonly filename: string };

export function createSessionsApi(api: DashboardApi) {
  return {
    list: (request: ListRequest) => api.request(listPath(request), SessionListSchema),
    transcript: (id: string) => api.request(sessionPath(id), TranscriptSchema),
    rename: (id: string, title: string) =>
      api.request(sessionPath(id), RenamedSchema, { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ title }) }),
    remove: (id: string) => api.request(sessionPath(id), DeletedSchema, { method: 'DELETE' }),
    /** The export as a file to save (its name from the server's content-disposition). */
    exportFile: async (id: string, format: 'md' | 'json'): Promise<ApiResult<Download>> => {
      let response: Response;
      try {
        response = await api.fetchWithToken(`${sessionPath(id)}/export?format=${format}`);
      } catch {
        return { ok: false, error: 'Cannot reach the dashboard server. Is `iris dashboard` still running?' };
      }
      if (!response.ok) {
        const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
        return { ok: false, error: typeof body?.error === 'string' ? body.error : `The server answered ${response.status}.` };
      }
      const disposition = response.headers.get('content-disposition') ?? '';
      const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `iris-session.${format}`;
      return { ok: true, value: { blob: await response.blob(), filename } };
    },
  };
}

export type SessionsApi = ReturnType<typeof createSessionsApi>;
