// The providers the config puts to work — the main model's, every aux slot's explicit one, and the
// fallbacks — each with the endpoint a call would use and where its credential comes from, by
// variable name only (or, for an OAuth sign-in, that a token is stored and until when). What
// `iris auth` prints and what `iris doctor` checks and probes. Pure: the routes come from routing's
// resolveCandidates, the endpoint from planEndpoint, the credential from resolveCredential; no
// secret value is copied out.
import { hasUsableOAuth, NO_OAUTH, type OAuthView } from '../auth/view.js';
import type { Env } from '../config/home.js';
import type { Config } from '../config/schema.js';
import { providerSpec } from '../providers/catalog.js';
import { resolveCredential } from '../providers/credentials.js';
import { planEndpoint } from '../providers/endpoint.js';
import type { ProviderRoute } from '../providers/route.js';
import { resolveCandidates, SLOT_IDS, type Candidate } from '../routing/resolve.js';

/** Where a key was found: the shell's environment wins over .env (see effectiveEnv). */
export type KeyOrigin = 'environment' | '.env' | 'config.yaml';

export type CredentialInfo =
  | { readonly kind: 'api_key'; readonly variable: string; readonly origin: KeyOrigin }
  | { readonly kind: 'identity_token'; readonly scope: string }
  /** An `iris auth login` token in auth.json (never its value): until when, and whether it refreshes. */
  | { readonly kind: 'oauth_token'; readonly expiresAt: string | null; readonly refreshable: boolean }
  /**
   * No key in `variable`; `optional`: the route is callable without one (a custom endpoint);
   * `signInExpired`: an OAuth sign-in is stored but can no longer be used.
   */
  | { readonly kind: 'missing'; readonly variable: string; readonly optional: boolean; readonly signInExpired?: true }
  /** No key, and none is needed. */
  | { readonly kind: 'none' };

export type EndpointInfo =
  | { readonly ok: true; readonly baseUrl: string; readonly modelsUrl: string }
  | { readonly ok: false; readonly message: string };

export type ProviderUse = {
  /** The provider id, or `<provider>@<first user>` when the provider is in use more than once. */
  readonly id: string;
  readonly provider: string;
  /** The catalog's name; undefined for an unknown provider. */
  readonly name: string | undefined;
  /** The first route that brought it in: what a live probe calls. */
  readonly route: ProviderRoute;
  /** `main`, `auxiliary.vision`, `fallback_providers[0]`, … */
  readonly usedBy: readonly string[];
  readonly authMode: 'api_key' | 'identity_token' | 'oauth';
  readonly credential: CredentialInfo;
  readonly endpoint: EndpointInfo;
};

/** The config's own place for a route; discovery and the aggregator stand-in are left out. */
function userOf(candidate: Candidate, slot: string): string | undefined {
  switch (candidate.reason) {
    case 'main':
      return 'main';
    case 'task':
      return `auxiliary.${slot}`;
    case 'task_fallback_chain':
    case 'fallback_providers':
    case 'fallback_model':
      return candidate.why;
    case 'auto':
    case 'aggregator_default':
    case 'discovery':
      return undefined;
  }
}

export function keyOrigin(variable: string, processEnv: Env): KeyOrigin {
  return processEnv[variable] !== undefined ? 'environment' : '.env';
}

function credentialInfo(route: ProviderRoute, usable: boolean, user: string, env: Env, processEnv: Env, oauth: OAuthView): CredentialInfo {
  const credential = resolveCredential(route, env, hasUsableOAuth(oauth, route.provider));
  const signIn = oauth.get(route.provider);
  switch (credential.kind) {
    case 'identity_token':
      return { kind: 'identity_token', scope: credential.scope };
    case 'oauth_token':
      return { kind: 'oauth_token', expiresAt: signIn?.expiresAt ?? null, refreshable: signIn?.refreshable ?? false };
    case 'api_key':
      return credential.source === 'config'
        ? { kind: 'api_key', variable: `${user}.api_key`, origin: 'config.yaml' }
        : { kind: 'api_key', variable: credential.source, origin: keyOrigin(credential.source, processEnv) };
    case 'none':
      if (!credential.missing) return { kind: 'none' };
      return { kind: 'missing', variable: credential.missing, optional: usable, ...(signIn && !signIn.usable ? { signInExpired: true as const } : {}) };
  }
}

function endpointInfo(route: ProviderRoute, env: Env, oauth: OAuthView): EndpointInfo {
  const plan = planEndpoint(route, env, { oauth: hasUsableOAuth(oauth, route.provider) });
  return plan.ok ? { ok: true, baseUrl: plan.baseUrl, modelsUrl: plan.modelsUrl } : { ok: false, message: plan.error.message };
}

/** Two routes are one use when a probe of one tells about the other: same endpoint, same credential. */
function useKey(provider: string, credential: CredentialInfo, endpoint: EndpointInfo, route: ProviderRoute): string {
  const where = endpoint.ok ? endpoint.modelsUrl : (route.baseUrl ?? '');
  const what = credential.kind === 'identity_token' ? credential.scope : 'variable' in credential ? credential.variable : credential.kind === 'oauth_token' ? 'auth.json' : '';
  return [provider, where, credential.kind, what].join('\u0000');
}

/**
 * `env` is the effective environment (process env over .env); `processEnv` the process's own,
 * to tell where a key came from; `oauth` the sign-ins of auth.json.
 */
export function findProvidersInUse(config: Readonly<Config>, env: Env, processEnv: Env, oauth: OAuthView = NO_OAUTH): ProviderUse[] {
  const uses = new Map<string, Omit<ProviderUse, 'id' | 'usedBy'> & { usedBy: string[] }>();
  for (const slot of SLOT_IDS) {
    for (const candidate of resolveCandidates(config, env, slot, oauth).candidates) {
      const user = userOf(candidate, slot);
      if (!user) continue;
      const route: ProviderRoute = candidate;
      const credential = credentialInfo(route, !candidate.unusable, user, env, processEnv, oauth);
      const endpoint = endpointInfo(route, env, oauth);
      const key = useKey(route.provider, credential, endpoint, route);
      const known = uses.get(key);
      if (known) {
        if (!known.usedBy.includes(user)) known.usedBy.push(user);
        continue;
      }
      uses.set(key, {
        provider: route.provider,
        name: providerSpec(route.provider)?.name,
        route,
        usedBy: [user],
        authMode: credential.kind === 'identity_token' ? 'identity_token' : credential.kind === 'oauth_token' ? 'oauth' : 'api_key',
        credential,
        endpoint,
      });
    }
  }
  // Main first, then the aux slots' own providers, then fallbacks: the order `iris auth` lists them.
  const rank = (user: string | undefined) => (user === 'main' ? 0 : user?.startsWith('auxiliary.') && !user.includes('fallback_chain') ? 1 : 2);
  const all = [...uses.values()].sort((a, b) => rank(a.usedBy[0]) - rank(b.usedBy[0]));
  return all.map((use) => {
    const shared = all.filter((other) => other.provider === use.provider).length > 1;
    return { id: shared ? `${use.provider}@${use.usedBy[0]}` : use.provider, ...use };
  });
}

/** How a credential reads in `iris auth` and `iris doctor`: the variable's name, never its value. */
export function keySourceText(credential: CredentialInfo): string {
  switch (credential.kind) {
    case 'api_key':
      return `${credential.variable} (from ${credential.origin === 'environment' ? 'the environment' : credential.origin})`;
    case 'missing':
      return `${credential.variable} (missing)`;
    case 'none':
      return 'none (not needed)';
    case 'identity_token':
      return 'none (identity token)';
    case 'oauth_token':
      return 'none (OAuth sign-in)';
  }
}
