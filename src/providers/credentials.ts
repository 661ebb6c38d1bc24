// Which credential a route uses. Pure: reads the environment map it is given (process env plus
// .env), never process.env.
import type { Env } from '../config/home.js';
import { isHostedMessagesRoute, splitBaseUrl } from './cloud/hosted-rules.js';
import { providerSpec } from './catalog.js';
import { DEFAULT_IDENTITY_SCOPE } from './identity/types.js';
import type { ProviderRoute } from './route.js';

export type Credential =
  | { readonly kind: 'api_key'; readonly value: string; readonly source: string }
  | { readonly kind: 'identity_token'; readonly scope: string }
  /** A completed `iris auth login`: the token is read (and refreshed) from auth.json at call time. */
  | { readonly kind: 'oauth_token'; readonly provider: string }
  /** `missing` names the variable that would have held the key. */
  | { readonly kind: 'none'; readonly missing?: string };

export const CLOUD_MESSAGES_KEY_ENV = 'CLOUD_MESSAGES_API_KEY';

function fromEnv(env: Env, name: string | undefined): string | undefined {
  const value = name ? env[name]?.trim() : undefined;
  return value ? value : undefined;
}

function sameEndpoint(a: string | undefined, b: string | undefined): boolean {
  const norm = (u: string | undefined) => splitBaseUrl(u ?? '')?.base.toLowerCase();
  return norm(a) !== undefined && norm(a) === norm(b);
}

/** The variable a route reads its key from, before any value is looked at. */
export function keyVariableFor(route: ProviderRoute, env: Env): string | undefined {
  if (route.keyEnv) return route.keyEnv;
  const spec = providerSpec(route.provider);
  if (route.provider === 'anthropic') {
    const split = splitBaseUrl(route.baseUrl ?? '');
    if (split && isHostedMessagesRoute(split)) {
      // The generic key stays paired with the native provider unless its base-URL variable
      // points at the same hosted endpoint.
      return sameEndpoint(env.ANTHROPIC_BASE_URL, route.baseUrl) && !fromEnv(env, CLOUD_MESSAGES_KEY_ENV)
        ? 'ANTHROPIC_API_KEY'
        : CLOUD_MESSAGES_KEY_ENV;
    }
  }
  return spec?.keyEnv;
}

/**
 * Whether a route may carry a provider's subscription OAuth token: never `cloud-hosted` or
 * `custom`, and never an anthropic route pointed at a hosted endpoint (the spec keeps
 * consumer-subscription credentials off hosted endpoints).
 */
export function oauthAllowed(route: ProviderRoute, env: Env): boolean {
  if (route.provider === 'cloud-hosted' || route.provider === 'custom') return false;
  const baseUrl = route.baseUrl?.trim() || fromEnv(env, providerSpec(route.provider)?.baseUrlEnv);
  const split = baseUrl ? splitBaseUrl(baseUrl) : undefined;
  return !(route.provider === 'anthropic' && split && isHostedMessagesRoute(split));
}

/** `oauthDone`: the provider has a usable sign-in in auth.json; an API key still wins over it. */
export function resolveCredential(route: ProviderRoute, env: Env, oauthDone = false): Credential {
  if (route.authMode === 'identity_token' && route.provider === 'cloud-hosted') {
    return { kind: 'identity_token', scope: route.identityScope?.trim() || DEFAULT_IDENTITY_SCOPE };
  }
  if (route.apiKey?.trim()) return { kind: 'api_key', value: route.apiKey.trim(), source: 'config' };
  const named = fromEnv(env, route.keyEnv);
  if (named && route.keyEnv) return { kind: 'api_key', value: named, source: route.keyEnv };
  const variable = keyVariableFor({ ...route, keyEnv: undefined }, env);
  const value = fromEnv(env, variable);
  if (value && variable) return { kind: 'api_key', value, source: variable };
  if (oauthDone && oauthAllowed(route, env)) return { kind: 'oauth_token', provider: route.provider };
  const missing = route.keyEnv ?? variable;
  return missing ? { kind: 'none', missing } : { kind: 'none' };
}

/**
 * A provider is authenticated when it has an API key, a completed OAuth, or a custom endpoint URL
 * (for `custom`, and for `cloud-hosted` in identity mode, the endpoint is the credential).
 */
export function isAuthenticated(route: ProviderRoute, env: Env, oauthDone = false): boolean {
  const hasBaseUrl = Boolean(route.baseUrl?.trim() || fromEnv(env, providerSpec(route.provider)?.baseUrlEnv));
  if (route.provider === 'custom') return hasBaseUrl;
  const credential = resolveCredential(route, env, oauthDone);
  if (credential.kind === 'identity_token') return hasBaseUrl;
  return credential.kind === 'api_key' || credential.kind === 'oauth_token';
}
