// The Models page's fallback editors and Test button (issue 39): read every fallback list, replace
// one task's `fallback_chain` or the global `fallback_providers` / `fallback_model` (checked by the
// config validator, written through updateConfig so comments stay), and send one short request
// through a slot's routing to show who answered. Served under modelRoutes.
import { callCounted } from '../../agent/slot-usage.js';
import { loadOAuthView } from '../../auth/view.js';
import { updateConfig } from '../../config/store.js';
import { isAuxTaskId, AUX_TASK_IDS } from '../../domain/slots.js';
import { rotationOf } from '../../log/rotation.js';
import { snapshotRoutes, type RoutingDeps } from '../../routing/call-model.js';
import { readFallbacks, setFallbackList, setFallbackModel, type FallbackPlace } from '../../routing/fallback-chains.js';
import { createRoutingDeps } from '../../routing/runtime.js';
import { HttpError } from '../http-error.js';
import { parseSlotTestBody, slotTestOutcome, slotTestRequest, type SlotTestOutcome } from '../slot-test.js';
import { configError } from './models.js';
import type { DashboardContext, Route } from './route.js';

function objectBody(data: unknown, shape: string): Record<string, unknown> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new HttpError(400, `the body must be a JSON object ${shape}`);
  return data as Record<string, unknown>;
}

function listField(body: Record<string, unknown>, field: string): unknown[] {
  const value = body[field];
  if (!Array.isArray(value)) throw new HttpError(400, `${field} must be a list of {provider, model}`);
  return value;
}

export function fallbackRoutes(context: DashboardContext): Route[] {
  // One routing wiring (agent.log, the api-mode memory) per served home, as the chat keeps.
  let routing: { readonly home: string; readonly deps: RoutingDeps } | undefined;

  return [
    { method: 'GET', path: '/api/model/fallbacks', run: async () => readFallbacks(await context.currentConfig()) },
    {
      method: 'PUT',
      path: '/api/model/fallbacks/:task',
      run: (request) => {
        const task = request.params.task ?? '';
        let target = `auxiliary.${task}.fallback_chain`;
        return context.audited(request, 'model.fallbacks', () => target, async () => {
          if (!isAuxTaskId(task)) throw new HttpError(400, `unknown task "${task}" (tasks: ${AUX_TASK_IDS.join(', ')})`);
          const chain = listField(objectBody(await context.readJson(request.req), '{chain: [{provider, model}]}'), 'chain');
          const place: FallbackPlace = { kind: 'task', task };
          const result = await updateConfig(context.paths, (doc) => setFallbackList(doc, place, chain));
          if (!result.ok) throw configError(result.error);
          target = `${result.path} (${result.count})`;
          return { ok: true, ...readFallbacks(result.validated.config) };
        });
      },
    },
    {
      method: 'PUT',
      path: '/api/model/fallbacks',
      run: (request) => {
        let target = 'fallback_providers';
        return context.audited(request, 'model.fallbacks', () => target, async () => {
          const body = objectBody(await context.readJson(request.req), '{fallback_providers?, fallback_model?}');
          const hasModel = body.fallback_model !== undefined;
          if (body.fallback_providers === undefined && !hasModel) throw new HttpError(400, 'give fallback_providers (a list of {provider, model}) or fallback_model');
          const providers = body.fallback_providers === undefined ? undefined : listField(body, 'fallback_providers');
          const result = await updateConfig(context.paths, (doc) => {
            if (providers) {
              const set = setFallbackList(doc, { kind: 'global' }, providers);
              if (!set.ok) return set;
            }
            return hasModel ? setFallbackModel(doc, body.fallback_model) : { ok: true };
          });
          if (!result.ok) throw configError(result.error);
          target = [providers ? `fallback_providers (${providers.length})` : '', hasModel ? 'fallback_model' : ''].filter(Boolean).join(', ');
          return { ok: true, ...readFallbacks(result.validated.config) };
        });
      },
    },
    {
      method: 'POST',
      path: '/api/model/test',
      run: async (request) => {
        let target = '';
        let failed: SlotTestOutcome | undefined;
        try {
          return await context.audited(request, 'model.test', () => target, async () => {
            const parsed = parseSlotTestBody(await context.readJson(request.req));
            if (!parsed.ok) throw new HttpError(parsed.status, parsed.error);
            target = parsed.slot;
            const [config, env, oauth, store] = await Promise.all([context.currentConfig(), context.currentEnv(), loadOAuthView(context.paths), context.store()]);
            if (routing?.home !== context.paths.dir) routing = { home: context.paths.dir, deps: createRoutingDeps(context.paths, env, { rotation: rotationOf(config.logging) }) };
            const started = performance.now();
            const completion = await callCounted(parsed.slot, slotTestRequest(), snapshotRoutes(config, env, oauth.view), routing.deps, {
              source: 'dashboard',
              record: (record) => store.recordUsage(record),
            });
            const outcome = slotTestOutcome(parsed.slot, completion, performance.now() - started);
            if (!outcome.ok) {
              failed = outcome;
              throw new HttpError(502, outcome.error);
            }
            target = `${parsed.slot} → ${outcome.provider}/${outcome.model}`;
            return outcome;
          });
        } catch (err) {
          // Every route failed: the audit line records the refusal, the page gets the attempts.
          if (failed && err instanceof HttpError && err.status === 502) return { status: 502, body: failed };
          throw err;
        }
      },
    },
  ];
}
