// The Skills page's calls, on the one API client (api.ts: token, failure messages): each answer is
// checked against its schema here, so the page only sees what the server promised.
import * as z from 'zod/mini';
import type { ApiResult, DashboardApi } from './api.js';

export const InstalledSkillSchema = z.object({
  name: z.string(),
  description: z.string(),
  path: z.string(),
  source: z.nullable(z.string()),
  installed_at: z.nullable(z.string()),
  loads: z.number(),
  last_load_at: z.nullable(z.string()),
});
const SkillListSchema = z.object({ skills: z.array(InstalledSkillSchema), invalid: z.array(z.object({ folder: z.string(), error: z.string() })) });
export const HubHitSchema = z.object({ name: z.string(), description: z.string(), source: z.string(), url: z.string(), tags: z.array(z.string()), reason: z.nullable(z.string()) });
const HubSearchSchema = z.object({ query: z.string(), ranked: z.boolean(), results: z.array(HubHitSchema), warnings: z.array(z.string()), error: z.optional(z.string()) });
const InstalledSchema = z.object({ ok: z.literal(true), installed: z.string(), description: z.string(), source: z.string(), replaced: z.boolean() });
const RemovedSchema = z.object({ ok: z.literal(true), removed: z.string() });
export const ProposalSchema = z.object({
  id: z.string(),
  skill: z.string(),
  action: z.enum(['keep', 'archive', 'merge', 'rewrite']),
  reason: z.string(),
  into: z.nullable(z.string()),
  description: z.nullable(z.string()),
  installed: z.boolean(),
});
const CuratorSchema = z.object({
  report: z.nullable(
    z.object({
      date: z.string(),
      path: z.string(),
      text: z.string(),
      at: z.nullable(z.string()),
      days: z.nullable(z.number()),
      proposals: z.array(ProposalSchema),
      has_data: z.boolean(),
    }),
  ),
});
const AppliedSchema = z.object({ ok: z.literal(true), archived: z.array(z.object({ skill: z.string(), to: z.string() })) });

export type InstalledSkill = z.infer<typeof InstalledSkillSchema>;
export type SkillList = z.infer<typeof SkillListSchema>;
export type HubHit = z.infer<typeof HubHitSchema>;
export type HubSearch = z.infer<typeof HubSearchSchema>;
export type Proposal = z.infer<typeof ProposalSchema>;
export type CuratorReport = NonNullable<z.infer<typeof CuratorSchema>['report']>;

export type SkillsClient = {
  readonly list: () => Promise<ApiResult<SkillList>>;
  readonly search: (query: string) => Promise<ApiResult<HubSearch>>;
  readonly install: (name: string) => Promise<ApiResult<z.infer<typeof InstalledSchema>>>;
  readonly remove: (name: string) => Promise<ApiResult<z.infer<typeof RemovedSchema>>>;
  readonly curator: () => Promise<ApiResult<z.infer<typeof CuratorSchema>>>;
  readonly apply: (ids: readonly string[]) => Promise<ApiResult<z.infer<typeof AppliedSchema>>>;
};

const jsonBody = (method: string, body: unknown): RequestInit => ({ method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

/**
 * A failing skills_hub slot is a 502 that still carries the prefilter's candidates (as `iris skills
 * search` prints them with a warning): those come back as a result with its `error`. Every other
 * answer goes through api.request, for its token and failure handling.
 */
async function searchHubs(api: DashboardApi, query: string): Promise<ApiResult<HubSearch>> {
  const path = `/api/skills/hub?q=${encodeURIComponent(query)}`;
  const probe = await api.fetchWithToken(path).catch(() => undefined);
  if (probe?.status === 502) {
    const body: unknown = await probe.json().catch(() => undefined);
    const parsed = HubSearchSchema.safeParse(body);
    if (parsed.success && parsed.data.error !== undefined) return { ok: true, value: parsed.data };
    const error = typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string' ? body.error : 'The server answered 502.';
    return { ok: false, error };
  }
  if (probe?.ok === true) {
    const parsed = HubSearchSchema.safeParse(await probe.json().catch(() => undefined));
    // Not asked again: a second request would be a second model call.
    return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: 'Unexpected answer from /api/skills/hub' };
  }
  // A refusal (401, 400, 404) or no server: asked again through api.request, which says it as
  // every page does (none of these reached the model).
  return api.request(path, HubSearchSchema);
}

export function skillsClient(api: DashboardApi): SkillsClient {
  return {
    list: () => api.request('/api/skills', SkillListSchema),
    search: (query) => searchHubs(api, query),
    install: (name) => api.request('/api/skills', InstalledSchema, jsonBody('POST', { name })),
    remove: (name) => api.request(`/api/skills/${encodeURIComponent(name)}`, RemovedSchema, { method: 'DELETE' }),
    curator: () => api.request('/api/curator', CuratorSchema),
    apply: (ids) => api.request('/api/curator/apply', AppliedSchema, jsonBody('POST', { proposals: ids })),
  };
}
