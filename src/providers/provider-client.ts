// One model call to one provider route: plan the endpoint, attach the credential (an API key, a
// fresh identity token per request, or the OAuth token of `iris auth login`, refreshed when it
// is about to expire), stream, and apply the two run-time recoveries the spec
// asks for: a chat-completions deployment that answers OperationNotSupported is retried once on
// the Responses API (and remembered for the process), and an identity token rejected with 401 is
// refreshed once. Routing and fallback between routes live in src/routing/.
import type { Dispatcher } from 'undici';
import type { OAuthTokenSource } from '../auth/token-source.js';
import { hasUsableOAuth, type OAuthView } from '../auth/view.js';
import type { Env } from '../config/home.js';
import { withHint } from './cloud/hints.js';
import { planEndpoint, authHeaders, type EndpointPlan } from './endpoint.js';
import { createIdentityTokenProvider, type IdentityProviderOptions } from './identity/index.js';
import type { IdentityTokenProvider } from './identity/types.js';
import type { ProviderRoute } from './route.js';
import { streamModel } from './wire/model-client.js';
import { dispatcherFor, resolveProxySettings } from './wire/network.js';
import { DEFAULT_TIMEOUTS, type ApiMode, type ModelError, type ModelRequest, type StreamEvent, type Timeouts } from './wire/types.js';

export type ApiModeMemory = {
  get(baseUrl: string, model: string): ApiMode | undefined;
  remember(baseUrl: string, model: string, mode: ApiMode): void;
};

/** Process-wide memory of deployments that turned out to be Responses-only. Bounded. */
export function createApiModeMemory(limit = 500): ApiModeMemory {
  const modes = new Map<string, ApiMode>();
  const key = (baseUrl: string, model: string) => `${baseUrl}\u0000${model}`;
  return {
    get: (baseUrl, model) => modes.get(key(baseUrl, model)),
    remember(baseUrl, model, mode) {
      if (modes.size >= limit) modes.delete(modes.keys().next().value as string);
      modes.set(key(baseUrl, model), mode);
    },
  };
}

export type RefreshableTokenProvider = IdentityTokenProvider & {
  /** Drops the cached token, so the next getToken fetches a new one. */
  invalidate?(): void;
};

/**
 * One identity token source per (scope, client id, tenant), shared by every call in the process,
 * so the token cache and the request coalescing work across calls.
 */
export function createIdentityRegistry(
  env: Env,
  make: (options: IdentityProviderOptions) => RefreshableTokenProvider = createIdentityTokenProvider,
): (route: ProviderRoute) => RefreshableTokenProvider {
  const sources = new Map<string, RefreshableTokenProvider>();
  return (route) => {
    const key = JSON.stringify([route.identityScope ?? '', route.identityClientId ?? '', route.identityTenantId ?? '']);
    let source = sources.get(key);
    if (!source) {
      source = make({
        env,
        ...(route.identityScope ? { scope: route.identityScope } : {}),
        ...(route.identityClientId ? { clientId: route.identityClientId } : {}),
        ...(route.identityTenantId ? { tenantId: route.identityTenantId } : {}),
      });
      sources.set(key, source);
    }
    return source;
  };
}

export type ProviderClientDeps = {
  readonly env: Env;
  readonly apiModeMemory: ApiModeMemory;
  readonly timeouts?: Timeouts;
  /** The identity token source for a route in identity mode (one per scope and client id). */
  readonly identityFor?: (route: ProviderRoute) => RefreshableTokenProvider;
  /** Providers with an OAuth sign-in in auth.json (taken with the session's routes). */
  readonly oauth?: OAuthView;
  /** Reads, and refreshes when needed, the OAuth tokens of auth.json. */
  readonly oauthTokens?: OAuthTokenSource;
  /** Tests and benchmarks may pass their own; by default one shared dispatcher honours proxies. */
  readonly dispatcher?: Dispatcher;
};

function errorEvent(error: ModelError): StreamEvent {
  return { type: 'error', error };
}

async function credentialHeaders(
  plan: EndpointPlan,
  route: ProviderRoute,
  deps: ProviderClientDeps,
  signal: AbortSignal | undefined,
): Promise<{ ok: true; headers: Record<string, string> } | { ok: false; error: ModelError }> {
  const credential = plan.credential;
  if (credential.kind === 'api_key') return { ok: true, headers: authHeaders(plan, credential.value) };
  if (credential.kind === 'oauth_token') {
    if (!deps.oauthTokens) {
      return { ok: false, error: { code: 'not_configured', message: `${route.provider}: OAuth tokens are not available here`, afterOutput: false } };
    }
    const token = await deps.oauthTokens.getToken(credential.provider, signal);
    if (!token.ok) return { ok: false, error: { code: token.error.code, message: token.error.message, afterOutput: false } };
    return { ok: true, headers: authHeaders(plan, token.token) };
  }
  if (credential.kind === 'none') {
    if (route.provider === 'custom') return { ok: true, headers: {} }; // local servers often need none
    return {
      ok: false,
      error: {
        code: 'not_configured',
        message: `${route.provider}: no API key${credential.missing ? ` (set ${credential.missing})` : ''}`,
        afterOutput: false,
      },
    };
  }
  const source = deps.identityFor?.(route);
  if (!source) {
    return { ok: false, error: { code: 'not_configured', message: `${route.provider}: identity tokens are not available here`, afterOutput: false } };
  }
  const token = await source.getToken(signal);
  if (!token.ok) {
    const code = token.error.code === 'cancelled' ? 'cancelled' : token.error.code === 'timeout' ? 'timeout' : 'auth';
    return { ok: false, error: { code, message: `${route.provider}: no identity token: ${token.error.message}`, afterOutput: false } };
  }
  return { ok: true, headers: authHeaders(plan, token.token) };
}

export async function* streamFromProvider(
  route: ProviderRoute,
  request: ModelRequest,
  deps: ProviderClientDeps,
): AsyncGenerator<StreamEvent> {
  const timeouts = deps.timeouts ?? DEFAULT_TIMEOUTS;
  const dispatcher = deps.dispatcher ?? dispatcherFor(resolveProxySettings(deps.env), timeouts.connectMs);
  let switchedApiMode = false;
  let refreshedToken = false;

  for (;;) {
    const baseKey = route.baseUrl ?? '';
    const remembered = deps.apiModeMemory.get(baseKey, route.model);
    const oauth = deps.oauth ? hasUsableOAuth(deps.oauth, route.provider) : false;
    const plan = planEndpoint(route, deps.env, { ...(remembered ? { rememberedApiMode: remembered } : {}), oauth });
    if (!plan.ok) {
      yield errorEvent({ code: 'not_configured', message: plan.error.message, afterOutput: false });
      return;
    }
    const auth = await credentialHeaders(plan, route, deps, request.signal);
    if (!auth.ok) {
      yield errorEvent(withHint(auth.error, plan));
      return;
    }
    const events = streamModel(request, {
      apiMode: plan.apiMode,
      maxTokensField: plan.maxTokensField,
      url: plan.callUrl,
      headers: { ...plan.headers, ...auth.headers },
      timeouts,
      dispatcher,
      label: `${plan.provider} (${plan.apiMode})`,
    });
    let retry = false;
    for await (const event of events) {
      if (event.type !== 'error') {
        yield event;
        continue;
      }
      const error = event.error;
      if (
        !switchedApiMode &&
        !error.afterOutput &&
        error.code === 'unsupported_operation' &&
        plan.provider === 'cloud-hosted' &&
        plan.apiMode === 'chat_completions'
      ) {
        deps.apiModeMemory.remember(baseKey, route.model, 'codex_responses');
        switchedApiMode = true;
        retry = true;
        break;
      }
      const source = plan.credential.kind === 'identity_token' ? deps.identityFor?.(route) : undefined;
      if (!refreshedToken && !error.afterOutput && error.code === 'auth' && source?.invalidate) {
        source.invalidate();
        refreshedToken = true;
        retry = true;
        break;
      }
      yield errorEvent(withHint(error, plan));
      return;
    }
    if (!retry) return;
  }
}
