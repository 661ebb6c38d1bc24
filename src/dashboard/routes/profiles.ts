// The Profiles page's API (profiles-api.ts does the work): the list, create, a description edit,
// Auto-generate (what `iris profile describe --auto` runs), delete, and switching the profile
// this dashboard serves. Every write is a line in audit.log, done or refused.
import { HttpError } from '../http-error.js';
import { createFromRequest, deleteFromRequest, describeFromRequest, editFromRequest, profilesJson, switchTarget, type ApiOutcome } from '../profiles-api.js';
import type { DashboardContext, RouteArea, RouteRequest } from './route.js';

/** A 200 body, `{status, body}` for another success, or the refusal thrown (audited as refused). */
function answer(outcome: ApiOutcome): unknown {
  if (!outcome.ok) throw new HttpError(outcome.status, outcome.error);
  return outcome.status === undefined ? outcome.body : { status: outcome.status, body: outcome.body };
}

/** The string at `key` of a body, for the audit line's target ('' when there is none). */
function field(data: unknown, key: string): string {
  const value = typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' ? value : '';
}

/** An audited write whose target is a field of the JSON body. */
function bodyWrite(context: DashboardContext, request: RouteRequest, action: string, key: string, work: (data: unknown) => Promise<ApiOutcome>) {
  let target = '';
  return context.audited(request, action, () => target, async () => {
    const data = await context.readJson(request.req);
    target = field(data, key);
    return answer(await work(data));
  });
}

export const profileRoutes: RouteArea = (context) => [
  { method: 'GET', path: '/api/profiles', run: () => profilesJson(context.profile.baseDir, context.profile.name) },
  {
    method: 'POST',
    path: '/api/profiles',
    run: (request) => bodyWrite(context, request, 'profile.create', 'name', (data) => createFromRequest(data, context.profile.baseDir)),
  },
  {
    method: 'POST',
    path: '/api/profiles/switch',
    run: (request) =>
      bodyWrite(context, request, 'profile.switch', 'name', async (data) => {
        const target = switchTarget(data, context.profile.baseDir);
        if (!target.ok) return target;
        await context.switchProfile(target.name);
        return { ok: true, body: { ok: true, served: target.name } };
      }),
  },
  {
    method: 'PATCH',
    path: '/api/profiles/:name',
    run: (request) => {
      const name = request.params.name ?? '';
      return context.audited(request, 'profile.edit', () => name, async () => answer(await editFromRequest(name, await context.readJson(request.req), context.profile.baseDir)));
    },
  },
  {
    method: 'DELETE',
    path: '/api/profiles/:name',
    run: (request) => {
      const name = request.params.name ?? '';
      return context.audited(request, 'profile.delete', () => name, async () => answer(await deleteFromRequest(name, context.profile.baseDir, context.profile.name)));
    },
  },
  {
    method: 'POST',
    path: '/api/profile/describe',
    run: (request) => bodyWrite(context, request, 'profile.describe', 'profile', (data) => describeFromRequest(data, context.profile.baseDir, context.processEnv)),
  },
];
