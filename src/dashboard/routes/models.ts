// The Models page's API (DECISIONS § Dashboard REST): the providers with a working credential, the
// main and auxiliary assignments, and POST /api/model/set through the assignment library that
// `iris model` uses (atomic, comments in config.yaml kept). The fallback lists and the Test button
// (routes/fallbacks.ts) are part of the same page, so they are served from here.
import type { IncomingMessage } from 'node:http';
import { loadOAuthView } from '../../auth/view.js';
import { updateConfig } from '../../config/store.js';
import { setAuxModel, setMainModel, type AuxChange, type MainChange } from '../../routing/assignments.js';
import { customEndpointModels } from '../custom-models.js';
import { HttpError } from '../http-error.js';
import { auxiliaryAssignments, modelOptions } from '../read-models.js';
import { parseSetRequest } from '../set-request.js';
import { fallbackRoutes } from './fallbacks.js';
import { NOT_JSON, type RouteArea } from './route.js';

export const modelRoutes: RouteArea = (context) => {
  // DECISIONS pins 422 for a /api/model/set body that is not a JSON object, unparseable text included;
  // every other dashboard endpoint answers 400 for a bad body.
  const readSetBody = async (req: IncomingMessage): Promise<unknown> => {
    try {
      return await context.readJson(req);
    } catch (err) {
      if (err instanceof HttpError && err.status === 400 && err.message === NOT_JSON) throw new HttpError(422, err.message);
      throw err;
    }
  };
  return [
  {
    method: 'GET',
    path: '/api/model/options',
    run: async () => {
      const config = await context.currentConfig();
      const env = await context.currentEnv();
      return modelOptions(config, env, (await loadOAuthView(context.paths)).view, await customEndpointModels(config, env));
    },
  },
  { method: 'GET', path: '/api/model/auxiliary', run: async () => auxiliaryAssignments(await context.currentConfig()) },
  {
    method: 'POST',
    path: '/api/model/set',
    run: (request) => {
      let target = '';
      return context.audited(request, 'model.set', () => target, async () => {
        const data = await readSetBody(request.req);
        const checked = parseSetRequest(data);
        if (!checked.ok) throw new HttpError(checked.status, checked.error);
        const set = checked.request;
        if (set.scope === 'main') {
          target = `main ${set.provider}/${set.model}`;
          const result = await updateConfig<MainChange>(context.paths, (doc) => setMainModel(doc, set.provider, set.model));
          if (!result.ok) throw configError(result.error);
          return { ok: true, scope: 'main', provider: result.provider, model: result.model, previous: result.previous, stale_aux: result.staleAux };
        }
        target = `auxiliary ${typeof (data as { task?: unknown }).task === 'string' ? (data as { task: string }).task || '(all)' : ''} ${set.provider}/${set.model}`.trim();
        const result = await updateConfig<AuxChange>(context.paths, (doc) => setAuxModel(doc, set.target, set.provider, set.model));
        if (!result.ok) throw configError(result.error);
        if (result.reset) return { ok: true, scope: 'auxiliary', reset: true };
        return { ok: true, scope: 'auxiliary', tasks: result.tasks, provider: result.provider, model: result.model };
      });
    },
  },
  ...fallbackRoutes(context),
  ];
};

/** A refused config write as the status DECISIONS gives it. */
export function configError(error: { code: string; message: string }): HttpError {
  if (error.code === 'invalid_value' || error.code === 'invalid_key') return new HttpError(400, error.message);
  if (error.code === 'lock_timeout') return new HttpError(503, error.message);
  return new HttpError(500, error.message);
}
