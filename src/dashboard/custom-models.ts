// A custom endpoint has no curated models: the picker offers what the endpoint itself lists
// (GET <base>/models), asked each time the options are read, and says why when it cannot.
import type { Config } from '../config/schema.js';
import type { Env } from '../config/home.js';
import { listModels } from '../providers/list-models.js';
import { customEndpointRoute, type EndpointModels } from './read-models.js';

/** Short: the picker waits for it. */
export const CUSTOM_MODELS_TIMEOUT_MS = 3_000;

export async function customEndpointModels(config: Readonly<Config>, env: Env): Promise<EndpointModels | undefined> {
  const route = customEndpointRoute(config, env);
  if (!route) return undefined;
  const listed = await listModels(route, { env, timeoutMs: CUSTOM_MODELS_TIMEOUT_MS });
  if (listed.ok) return { ok: true, ids: listed.ids };
  return { ok: false, message: `the endpoint did not list its models (${listed.message}); type the model id` };
}
