// Where a request goes and how it authenticates: one pure decision from a route (provider, model,
// base URL, api mode) and the environment to URLs, headers and the effective api mode. Every
// `cloud-hosted` URL and header rule of the spec is applied here.
import type { Env } from '../config/home.js';
import { findCatalogModel, providerSpec } from './catalog.js';
import {
  ANTHROPIC_VERSION,
  CONTEXT_1M_BETA,
  isHostedMessagesRoute,
  isLegacyCompatMessagesRoute,
  isResponsesOnlyFamily,
  LEGACY_MESSAGES_API_VERSION,
  mergeBetaValues,
  messagesBasePath,
  needsMaxCompletionTokens,
  splitBaseUrl,
  wantsContext1mBeta,
  withQuery,
} from './cloud/hosted-rules.js';
import { resolveCredential, type Credential } from './credentials.js';
import type { ProviderRoute } from './route.js';
import type { ApiMode } from './wire/types.js';

export type RouteKind = 'native' | 'hosted_openai' | 'hosted_messages' | 'legacy_messages';
export type AuthHeader = 'authorization' | 'api-key' | 'x-api-key';

export type EndpointPlan = {
  readonly provider: string;
  readonly model: string;
  readonly configuredApiMode: ApiMode;
  readonly apiMode: ApiMode;
  readonly routeKind: RouteKind;
  /** The base URL as used: no query, no trailing slash. */
  readonly baseUrl: string;
  readonly callUrl: string;
  readonly modelsUrl: string;
  /** Headers other than the credential. */
  readonly headers: Readonly<Record<string, string>>;
  readonly authHeader: AuthHeader;
  readonly credential: Credential;
  readonly maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** The configured base URL carried a query string or a `/v1` the client adds itself. */
  readonly legacyBaseUrl: boolean;
  /** Why the plan differs from the config, for `iris status --deep`. */
  readonly notes: readonly string[];
};

export type EndpointError = { readonly code: 'unknown_provider' | 'no_base_url' | 'bad_base_url'; readonly message: string };

export type EndpointResult = ({ readonly ok: true } & EndpointPlan) | { readonly ok: false; readonly error: EndpointError };

export type PlanOptions = {
  /** An api mode learned at run time for this base URL and model (OperationNotSupported). */
  readonly rememberedApiMode?: ApiMode;
  /** The provider has a usable OAuth sign-in (auth.json); used when no API key is set. */
  readonly oauth?: boolean;
};

function configuredMode(route: ProviderRoute, path: string): ApiMode {
  if (route.apiMode) return route.apiMode;
  const listed = findCatalogModel(route.provider, route.model)?.apiMode;
  if (listed) return listed;
  if (route.provider === 'cloud-hosted' && /(^|\/)anthropic(\/v1(\/messages)?)?$/i.test(path)) return 'anthropic_messages';
  return providerSpec(route.provider)?.apiMode ?? 'chat_completions';
}

export function planEndpoint(route: ProviderRoute, env: Env, options: PlanOptions = {}): EndpointResult {
  const spec = providerSpec(route.provider);
  if (!spec) return { ok: false, error: { code: 'unknown_provider', message: `unknown provider "${route.provider}"` } };
  const raw = route.baseUrl?.trim() || (spec.baseUrlEnv ? env[spec.baseUrlEnv]?.trim() : '') || spec.defaultBaseUrl;
  if (!raw) {
    const where = spec.baseUrlEnv ? `model.base_url (or ${spec.baseUrlEnv})` : 'model.base_url';
    return { ok: false, error: { code: 'no_base_url', message: `${route.provider} needs an endpoint URL: set ${where}` } };
  }
  const split = splitBaseUrl(raw);
  if (!split) {
    return { ok: false, error: { code: 'bad_base_url', message: `${route.provider}: "${raw}" is not an http(s) URL` } };
  }

  const notes: string[] = [];
  const configured = configuredMode(route, split.path);
  let apiMode = configured;
  if (route.provider === 'cloud-hosted' && configured === 'chat_completions') {
    if (isResponsesOnlyFamily(route.model)) {
      apiMode = 'codex_responses';
      notes.push(`${route.model} is served by the Responses API: using codex_responses (config unchanged)`);
    } else if (options.rememberedApiMode === 'codex_responses') {
      apiMode = 'codex_responses';
      notes.push(`the deployment answered OperationNotSupported on chat completions: using codex_responses`);
    }
  }

  const hostedMessages =
    apiMode === 'anthropic_messages' &&
    (route.provider === 'cloud-hosted' || (route.provider === 'anthropic' && isHostedMessagesRoute(split)));
  const legacy = hostedMessages && isLegacyCompatMessagesRoute(split);
  const routeKind: RouteKind = legacy
    ? 'legacy_messages'
    : hostedMessages
      ? 'hosted_messages'
      : route.provider === 'cloud-hosted'
        ? 'hosted_openai'
        : 'native';
  const origin = split.base.slice(0, split.base.length - split.path.length);
  const apiVersion = split.query.find(([k]) => k === 'api-version')?.[1];

  let callUrl: string;
  let modelsUrl: string;
  const headers: Record<string, string> = {};
  let legacyBaseUrl = split.query.length > 0;
  if (apiMode === 'anthropic_messages') {
    const basePath = messagesBasePath(split.path);
    legacyBaseUrl ||= basePath !== split.path;
    const base = `${origin}${basePath}`;
    // Modern hosted messages routes take no api-version; the legacy route needs its own.
    const query: Array<[string, string]> =
      routeKind === 'legacy_messages'
        ? [['api-version', apiVersion ?? LEGACY_MESSAGES_API_VERSION]]
        : routeKind === 'hosted_messages'
          ? []
          : split.query.map(([k, v]): [string, string] => [k, v]);
    if (routeKind === 'hosted_messages' && apiVersion) notes.push('api-version dropped: modern messages routes take none');
    callUrl = withQuery(`${base}/v1/messages`, query);
    modelsUrl = withQuery(`${base}/v1/models`, query);
    headers['anthropic-version'] = ANTHROPIC_VERSION;
    if (hostedMessages && wantsContext1mBeta(route.model)) {
      headers['anthropic-beta'] = mergeBetaValues(CONTEXT_1M_BETA);
    }
  } else {
    const path = apiMode === 'codex_responses' ? '/responses' : '/chat/completions';
    callUrl = withQuery(`${split.base}${path}`, split.query);
    modelsUrl = withQuery(`${split.base}/models`, split.query);
  }

  const credential = resolveCredential(route, env, options.oauth);
  // OAuth access tokens are bearer tokens (RFC 6750) whatever the wire format.
  const authHeader: AuthHeader =
    credential.kind === 'identity_token' || credential.kind === 'oauth_token' || routeKind === 'legacy_messages'
      ? 'authorization'
      : routeKind === 'hosted_openai'
        ? 'api-key'
        : apiMode === 'anthropic_messages'
          ? 'x-api-key'
          : 'authorization';
  const maxTokensField =
    apiMode === 'chat_completions' &&
    (route.provider === 'cloud-hosted' || route.provider === 'openai') &&
    needsMaxCompletionTokens(route.model)
      ? 'max_completion_tokens'
      : 'max_tokens';

  return {
    ok: true,
    provider: route.provider,
    model: route.model,
    configuredApiMode: configured,
    apiMode,
    routeKind,
    baseUrl: split.base,
    callUrl,
    modelsUrl,
    headers,
    authHeader,
    credential,
    maxTokensField,
    legacyBaseUrl,
    notes,
  };
}

/** The credential header for a key or a token, placed as the plan says. */
export function authHeaders(plan: Pick<EndpointPlan, 'authHeader'>, secret: string): Record<string, string> {
  return plan.authHeader === 'authorization' ? { authorization: `Bearer ${secret}` } : { [plan.authHeader]: secret };
}

/** Merges extra `anthropic-beta` values into a plan's headers (other values win nothing). */
export function withBetaValues(headers: Readonly<Record<string, string>>, ...values: string[]): Record<string, string> {
  const merged = mergeBetaValues(headers['anthropic-beta'], ...values);
  return merged ? { ...headers, 'anthropic-beta': merged } : { ...headers };
}
