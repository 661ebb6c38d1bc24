// The setup wizard's probe sequence for an endpoint given by URL (the spec, "Setup wizard probe
// sequence"), in order: a path ending in /anthropic is the messages route; else GET <base>/models
// (plain, then, for cloud-hosted only, with older api-version values): an OpenAI-shaped list means
// chat_completions and prefills the picker; else a messages-shaped probe; else manual entry.
// `custom` endpoints run the same sequence: they too may speak any of the wire formats. Every
// request is planned by endpoint.ts from the route the config will hold (provider, key_env, auth
// mode), so each carries the credential the saved config will use, in the header that route uses.
import { fetch, type Dispatcher } from 'undici';
import type { Env } from '../../config/home.js';
import { authHeaders, planEndpoint } from '../endpoint.js';
import { listModels } from '../list-models.js';
import type { RefreshableTokenProvider } from '../provider-client.js';
import type { ProviderRoute } from '../route.js';
import { dispatcherFor, resolveProxySettings } from '../wire/network.js';
import { networkMessage } from '../wire/sse-request.js';
import { messagesBasePath, splitBaseUrl } from './hosted-rules.js';

/** api-version values older resources answer /models with (pre-v1 data-plane versions). */
export const LEGACY_API_VERSIONS = ['2024-10-21', '2024-06-01'] as const;

/** The providers whose wire format is found by probing: the ones configured by endpoint URL. */
export const PROBED_PROVIDERS = ['cloud-hosted', 'custom'] as const;
export type ProbedProvider = (typeof PROBED_PROVIDERS)[number];

export function isProbedProvider(provider: string): provider is ProbedProvider {
  return (PROBED_PROVIDERS as readonly string[]).includes(provider);
}

export type ProbeStep = { readonly probe: string; readonly url?: string; readonly result: string };

export type ProbeOutcome =
  | { readonly kind: 'anthropic_path'; readonly apiMode: 'anthropic_messages'; readonly steps: readonly ProbeStep[] }
  | { readonly kind: 'models_list'; readonly apiMode: 'chat_completions'; readonly models: readonly string[]; readonly baseUrl: string; readonly steps: readonly ProbeStep[] }
  | { readonly kind: 'messages_probe'; readonly apiMode: 'anthropic_messages'; readonly steps: readonly ProbeStep[] }
  /** Every probe was refused: the user types the api mode and the deployment name. */
  | { readonly kind: 'manual'; readonly steps: readonly ProbeStep[] };

export type ProbeOptions = {
  /** Default cloud-hosted. */
  readonly provider?: ProbedProvider;
  readonly env: Env;
  readonly authMode?: 'api_key' | 'identity_token';
  readonly keyEnv?: string;
  /** Identity mode: the token source the preflight used, so the probes reuse its token. */
  readonly identity?: RefreshableTokenProvider;
  readonly timeoutMs?: number;
  readonly dispatcher?: Dispatcher;
};

/** Step 1, pure: does the URL itself say "messages route"? */
export function isAnthropicPath(baseUrl: string): boolean {
  const split = splitBaseUrl(baseUrl);
  return split !== undefined && /\/anthropic$/i.test(messagesBasePath(split.path));
}

function withApiVersion(baseUrl: string, version: string): string {
  const url = new URL(baseUrl);
  url.searchParams.set('api-version', version);
  return url.toString();
}

/**
 * Step 2, pure: the base URLs whose /models is asked, in order. The api-version retries are a
 * cloud-hosted resource rule; a custom server gets its URL as given.
 */
export function modelsProbeBases(provider: ProbedProvider, baseUrl: string): readonly string[] {
  return provider === 'cloud-hosted' ? [baseUrl, ...LEGACY_API_VERSIONS.map((v) => withApiVersion(baseUrl, v))] : [baseUrl];
}

/** An answer only a messages-style API gives: a message, its stream, or its typed error. */
export function looksLikeMessagesAnswer(contentType: string, body: string): boolean {
  if (contentType.includes('text/event-stream')) return /(^|\n)event: message_start\b/.test(body);
  try {
    const data = JSON.parse(body) as { type?: unknown; error?: { type?: unknown } };
    return data.type === 'message' || (data.type === 'error' && typeof data.error?.type === 'string');
  } catch {
    return false;
  }
}

async function probeMessages(route: ProviderRoute, options: ProbeOptions): Promise<ProbeStep & { ok: boolean }> {
  const plan = planEndpoint({ ...route, apiMode: 'anthropic_messages', model: 'iris-probe' }, options.env);
  if (!plan.ok) return { ok: false, probe: 'messages', result: plan.error.message };
  let headers: Record<string, string> = { ...plan.headers, 'content-type': 'application/json', accept: 'application/json' };
  if (plan.credential.kind === 'api_key') headers = { ...headers, ...authHeaders(plan, plan.credential.value) };
  if (plan.credential.kind === 'identity_token') {
    const token = await options.identity?.getToken();
    if (!token?.ok) return { ok: false, probe: 'messages', url: plan.callUrl, result: 'no identity token' };
    headers = { ...headers, ...authHeaders(plan, token.token) };
  }
  const timeoutMs = options.timeoutMs ?? 10_000;
  try {
    const response = await fetch(plan.callUrl, {
      method: 'POST',
      headers,
      // The smallest request there is; a "no such model" error still shows the API's shape.
      body: JSON.stringify({ model: 'iris-probe', max_tokens: 1, messages: [{ role: 'user', content: 'ping' }] }),
      signal: AbortSignal.timeout(timeoutMs),
      dispatcher: options.dispatcher ?? dispatcherFor(resolveProxySettings(options.env), timeoutMs),
    });
    const text = (await response.text()).slice(0, 64 * 1024);
    const ok = looksLikeMessagesAnswer(response.headers.get('content-type') ?? '', text);
    return { ok, probe: 'messages', url: plan.callUrl, result: `${response.status}${ok ? ', messages-shaped' : ', not messages-shaped'}` };
  } catch (err) {
    const timedOut = (err as Error)?.name === 'TimeoutError';
    return { ok: false, probe: 'messages', url: plan.callUrl, result: timedOut ? `no answer within ${timeoutMs} ms` : networkMessage(err) };
  }
}

export async function probeEndpoint(baseUrl: string, options: ProbeOptions): Promise<ProbeOutcome> {
  const provider = options.provider ?? 'cloud-hosted';
  const steps: ProbeStep[] = [];
  if (isAnthropicPath(baseUrl)) {
    steps.push({ probe: 'path', result: 'the path ends in /anthropic: the messages route' });
    return { kind: 'anthropic_path', apiMode: 'anthropic_messages', steps };
  }
  steps.push({ probe: 'path', result: 'no /anthropic path' });
  const route: ProviderRoute = {
    provider,
    model: '',
    baseUrl,
    ...(options.authMode ? { authMode: options.authMode } : {}),
    ...(options.keyEnv ? { keyEnv: options.keyEnv } : {}),
  };
  const listOptions = {
    env: options.env,
    timeoutMs: options.timeoutMs ?? 10_000,
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    ...(options.identity ? { identity: options.identity } : {}),
  };
  for (const candidate of modelsProbeBases(provider, baseUrl)) {
    const listed = await listModels({ ...route, baseUrl: candidate, apiMode: 'chat_completions' }, listOptions);
    steps.push({ probe: 'models', ...(listed.url ? { url: listed.url } : {}), result: listed.ok ? `${listed.ids.length} models` : listed.message });
    if (listed.ok) return { kind: 'models_list', apiMode: 'chat_completions', models: listed.ids, baseUrl: candidate, steps };
  }
  const messages = await probeMessages(route, options);
  steps.push({ probe: messages.probe, ...(messages.url ? { url: messages.url } : {}), result: messages.result });
  if (messages.ok) return { kind: 'messages_probe', apiMode: 'anthropic_messages', steps };
  return { kind: 'manual', steps };
}
