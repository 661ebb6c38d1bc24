// The fallback editors' and the Test button's calls, on the one API client (api.ts: token, failure
// messages). A Test that no route answered (502) still carries every attempt, so that answer is
// read here rather than reduced to its error line.
import * as z from 'zod/mini';
import type { ApiResult, DashboardApi } from './api.js';

export const FallbackEntrySchema = z.object({
  provider: z.string(),
  model: z.string(),
  base_url: z.optional(z.string()),
  key_env: z.optional(z.string()),
  api_mode: z.optional(z.string()),
});

export const FallbacksSchema = z.object({
  tasks: z.array(z.object({ task: z.string(), name: z.string(), fallback_chain: z.array(FallbackEntrySchema) })),
  fallback_providers: z.array(FallbackEntrySchema),
  fallback_model: z.union([z.string(), FallbackEntrySchema]),
});

const AttemptSchema = z.object({
  provider: z.string(),
  model: z.string(),
  reason: z.string(),
  outcome: z.enum(['served', 'failed', 'skipped']),
  detail: z.optional(z.string()),
});

const TestServedSchema = z.object({
  ok: z.literal(true),
  task: z.string(),
  provider: z.string(),
  model: z.string(),
  latency_ms: z.number(),
  fell_back: z.boolean(),
  attempts: z.array(AttemptSchema),
  reply: z.string(),
});

const TestFailedSchema = z.object({
  ok: z.literal(false),
  task: z.string(),
  error: z.string(),
  latency_ms: z.number(),
  attempts: z.array(AttemptSchema),
});

export type FallbackEntry = z.infer<typeof FallbackEntrySchema>;
export type Fallbacks = z.infer<typeof FallbacksSchema>;
export type TestAttempt = z.infer<typeof AttemptSchema>;
export type SlotTestResult = z.infer<typeof TestServedSchema> | z.infer<typeof TestFailedSchema>;

export type FallbacksClient = {
  readonly list: () => Promise<ApiResult<Fallbacks>>;
  /** Replaces one aux task's `fallback_chain`. */
  readonly setChain: (task: string, chain: readonly FallbackEntry[]) => Promise<ApiResult<Fallbacks>>;
  /** Replaces the top-level `fallback_providers`. */
  readonly setGlobal: (list: readonly FallbackEntry[]) => Promise<ApiResult<Fallbacks>>;
  /** One short request through the slot's routing: who answered, or every attempt when none did. */
  readonly test: (task: string) => Promise<ApiResult<SlotTestResult>>;
};

const WrittenSchema = z.object({ ok: z.literal(true), ...FallbacksSchema.shape });

const jsonBody = (method: string, body: unknown): RequestInit => ({ method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

/** The body of POST /api/model/test for a slot (`main` or an aux task id). */
export function slotTestBody(task: string): { readonly task: string } {
  return { task };
}

/** The PUT's path and body for one list: a task's chain, or (`task` null) the global list. */
export function fallbackWrite(task: string | null, list: readonly FallbackEntry[]): { readonly path: string; readonly body: unknown } {
  return task === null
    ? { path: '/api/model/fallbacks', body: { fallback_providers: list } }
    : { path: `/api/model/fallbacks/${encodeURIComponent(task)}`, body: { chain: list } };
}

export function fallbacksClient(api: DashboardApi): FallbacksClient {
  const write = async (task: string | null, list: readonly FallbackEntry[]): Promise<ApiResult<Fallbacks>> => {
    const { path, body } = fallbackWrite(task, list);
    return api.request(path, WrittenSchema, jsonBody('PUT', body));
  };
  return {
    list: () => api.request('/api/model/fallbacks', FallbacksSchema),
    setChain: (task, chain) => write(task, chain),
    setGlobal: (list) => write(null, list),
    test: async (task) => {
      // A 502 is an answer here (the attempts), so the status is read before the generic client's rules.
      let response: Response;
      try {
        response = await api.fetchWithToken('/api/model/test', jsonBody('POST', slotTestBody(task)));
      } catch {
        return { ok: false, error: 'Cannot reach the dashboard server. Is `iris dashboard` still running?' };
      }
      if (response.status === 502) {
        const parsed = TestFailedSchema.safeParse(await response.json().catch(() => undefined));
        if (parsed.success) return { ok: true, value: parsed.data };
        return { ok: false, error: 'The server answered 502.' };
      }
      if (response.status === 200) {
        const parsed = TestServedSchema.safeParse(await response.json().catch(() => undefined));
        return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: 'Unexpected answer from /api/model/test.' };
      }
      // Anything else (400, 401, 503…) is a refusal: its message, as the generic client shows it.
      // Not sent again through api.request: a second POST would be a second model call.
      const body: unknown = await response.json().catch(() => undefined);
      const error = typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string' ? body.error : '';
      if (response.status === 401) return { ok: false, error: error === 'Sign in first' ? 'Your sign-in has ended: sign in again.' : 'The dashboard server refused this page’s session token (it changes on every restart): reload the page.' };
      return { ok: false, error: error || `The server answered ${response.status}.` };
    },
  };
}
