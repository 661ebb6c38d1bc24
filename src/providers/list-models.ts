// GET {base}/models with the route's credential: the setup wizard's probe and the picker's
// prefill for deployments. Key discovery only; listing deployments would need a resource-manager
// credential, which Iris does not use.
import { fetch, type Dispatcher } from 'undici';
import type { Env } from '../config/home.js';
import { authHeaders, planEndpoint } from './endpoint.js';
import type { RefreshableTokenProvider } from './provider-client.js';
import type { ProviderRoute } from './route.js';
import { dispatcherFor, resolveProxySettings } from './wire/network.js';
import { networkMessage } from './wire/sse-request.js';

export type ModelListResult =
  | { readonly ok: true; readonly ids: readonly string[]; readonly url: string }
  | { readonly ok: false; readonly status?: number; readonly message: string; readonly url?: string };

export type ListModelsOptions = {
  readonly env: Env;
  readonly timeoutMs?: number;
  readonly dispatcher?: Dispatcher;
  readonly identity?: RefreshableTokenProvider;
  readonly signal?: AbortSignal;
};

/** An OpenAI-shaped list (`{data:[{id}]}`) or an Anthropic one (`{data:[{id,type:'model'}]}`). */
export function parseModelList(body: unknown): string[] | undefined {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return undefined;
  const ids = data.map((item) => (item as { id?: unknown })?.id).filter((id): id is string => typeof id === 'string');
  return ids.length === data.length ? ids : undefined;
}

export async function listModels(route: ProviderRoute, options: ListModelsOptions): Promise<ModelListResult> {
  const plan = planEndpoint(route, options.env);
  if (!plan.ok) return { ok: false, message: plan.error.message };
  let headers: Record<string, string> = { ...plan.headers, accept: 'application/json' };
  if (plan.credential.kind === 'api_key') headers = { ...headers, ...authHeaders(plan, plan.credential.value) };
  if (plan.credential.kind === 'identity_token') {
    const token = await options.identity?.getToken(options.signal);
    if (!token?.ok) return { ok: false, message: `no identity token: ${token ? token.error.message : 'no identity source'}` };
    headers = { ...headers, ...authHeaders(plan, token.token) };
  }
  const timeoutMs = options.timeoutMs ?? 10_000;
  const signals = [AbortSignal.timeout(timeoutMs), ...(options.signal ? [options.signal] : [])];
  try {
    const response = await fetch(plan.modelsUrl, {
      headers,
      signal: AbortSignal.any(signals),
      dispatcher: options.dispatcher ?? dispatcherFor(resolveProxySettings(options.env), timeoutMs),
    });
    const text = await response.text();
    if (!response.ok) {
      return { ok: false, status: response.status, message: `GET ${plan.modelsUrl} answered ${response.status}`, url: plan.modelsUrl };
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return { ok: false, status: response.status, message: 'the answer is not JSON', url: plan.modelsUrl };
    }
    const ids = parseModelList(body);
    return ids
      ? { ok: true, ids, url: plan.modelsUrl }
      : { ok: false, status: response.status, message: 'the answer is not a model list', url: plan.modelsUrl };
  } catch (err) {
    const timedOut = (err as Error)?.name === 'TimeoutError';
    return { ok: false, message: timedOut ? `no answer within ${timeoutMs} ms` : `GET ${plan.modelsUrl} failed: ${networkMessage(err)}`, url: plan.modelsUrl };
  }
}
