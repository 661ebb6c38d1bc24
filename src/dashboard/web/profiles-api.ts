// The Profiles page's calls, on the one API client (api.ts: token, failure messages): each answer
// is checked against its schema here, so the page only sees what the server promised.
import * as z from 'zod/mini';
import type { ApiResult, DashboardApi } from './api.js';

export const ProfileRowSchema = z.object({ name: z.string(), description: z.string(), generated: z.boolean(), active: z.boolean() });
export const ProfileListSchema = z.object({ served: z.string(), stored_default: z.string(), profiles: z.array(ProfileRowSchema) });
const CreatedSchema = z.object({ ok: z.literal(true), name: z.string(), cloned_from: z.nullable(z.string()), cloned: z.array(z.string()) });
const EditedSchema = z.object({ ok: z.literal(true), name: z.string(), description: z.string(), generated: z.boolean() });
const DescribedSchema = z.object({ ok: z.literal(true), profile: z.string(), description: z.string(), generated: z.boolean() });
const DeletedSchema = z.object({ ok: z.literal(true), name: z.string(), moved_to: z.string() });
const SwitchedSchema = z.object({ ok: z.literal(true), served: z.string() });

export type ProfileRow = z.infer<typeof ProfileRowSchema>;
export type ProfileList = z.infer<typeof ProfileListSchema>;
export type Created = z.infer<typeof CreatedSchema>;
export type Edited = z.infer<typeof EditedSchema>;
export type Described = z.infer<typeof DescribedSchema>;
export type Deleted = z.infer<typeof DeletedSchema>;

export type ProfilesClient = {
  readonly list: () => Promise<ApiResult<ProfileList>>;
  readonly create: (name: string, cloneFrom?: string) => Promise<ApiResult<Created>>;
  readonly edit: (name: string, description: string) => Promise<ApiResult<Edited>>;
  readonly describe: (name: string) => Promise<ApiResult<Described>>;
  readonly remove: (name: string) => Promise<ApiResult<Deleted>>;
  readonly switchTo: (name: string) => Promise<ApiResult<z.infer<typeof SwitchedSchema>>>;
};

const jsonBody = (method: string, body: unknown): RequestInit => ({ method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
const named = (name: string) => `/api/profiles/${encodeURIComponent(name)}`;

export function profilesClient(api: DashboardApi): ProfilesClient {
  return {
    list: () => api.request('/api/profiles', ProfileListSchema),
    create: (name, cloneFrom) => api.request('/api/profiles', CreatedSchema, jsonBody('POST', cloneFrom === undefined ? { name } : { name, clone_from: cloneFrom })),
    edit: (name, description) => api.request(named(name), EditedSchema, jsonBody('PATCH', { description })),
    describe: (name) => api.request('/api/profile/describe', DescribedSchema, jsonBody('POST', { profile: name })),
    remove: (name) => api.request(named(name), DeletedSchema, { method: 'DELETE' }),
    switchTo: (name) => api.request('/api/profiles/switch', SwitchedSchema, jsonBody('POST', { name })),
  };
}
