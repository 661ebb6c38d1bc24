// Reading POST /api/model/set bodies (DECISIONS.md "Dashboard REST"): 422 when the body is not an
// object of strings with a scope, 400 when the values do not name a valid change. The change
// itself is made by routing/assignments.ts, the library `iris model` uses too.
import { auxTargetFromWire, type AuxTarget } from '../domain/assignment.js';
import { isAuxTaskId } from '../domain/slots.js';

/** A change as the server acts on it; the wire's `task` string is read into `target` here. */
export type SetRequest =
  | { readonly scope: 'main'; readonly provider: string; readonly model: string }
  | { readonly scope: 'auxiliary'; readonly target: AuxTarget; readonly provider: string; readonly model: string };

export type SetRequestCheck = { readonly ok: true; readonly request: SetRequest } | { readonly ok: false; readonly status: 400 | 422; readonly error: string };

const FIELDS = ['scope', 'task', 'provider', 'model'] as const;

export function parseSetRequest(body: unknown): SetRequestCheck {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, status: 422, error: 'the body must be a JSON object {scope, task?, provider, model}' };
  }
  const data = body as Record<string, unknown>;
  for (const field of FIELDS) {
    if (data[field] !== undefined && typeof data[field] !== 'string') return { ok: false, status: 422, error: `${field} must be a string` };
  }
  if (data.scope === undefined) return { ok: false, status: 422, error: 'scope is required (main or auxiliary)' };
  const scope = data.scope as string;
  const provider = ((data.provider as string | undefined) ?? '').trim();
  const model = ((data.model as string | undefined) ?? '').trim();
  if (scope === 'main') {
    if (!provider || !model) return { ok: false, status: 400, error: 'scope main needs a provider and a model' };
    return { ok: true, request: { scope, provider, model } };
  }
  if (scope !== 'auxiliary') return { ok: false, status: 400, error: `scope must be main or auxiliary (got "${scope}")` };
  const task = data.task as string | undefined;
  if (task === undefined) return { ok: false, status: 400, error: 'scope auxiliary needs task: a task id, "" for all 11, or "__reset__"' };
  const target = auxTargetFromWire(task);
  if (target.kind === 'reset') return { ok: true, request: { scope, target, provider: '', model: '' } };
  if (target.kind === 'one' && !isAuxTaskId(target.task)) return { ok: false, status: 400, error: `unknown task "${target.task}"` };
  if (!provider) return { ok: false, status: 400, error: 'scope auxiliary needs a provider' };
  return { ok: true, request: { scope, target, provider, model } };
}
