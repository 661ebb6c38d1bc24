// Which authorization server a provider's sign-in talks to: the catalog's, or the one stored with
// `iris auth add --issuer`; and which providers may sign in at all. The spec keeps
// consumer-subscription OAuth away from hosted endpoints, so `cloud-hosted` (and `custom`, which
// has no provider behind it) are refused. Pure.
import { providerSpec, type ProviderOAuth } from '../providers/catalog.js';
import type { AuthEntry } from './store.js';

/** Used with `--issuer` for a provider the catalog knows no sign-in for. */
export const DEFAULT_OAUTH_PATHS = Object.freeze({ deviceAuthorizationPath: '/oauth/device/code', tokenPath: '/oauth/token' });

export const NO_OAUTH_PROVIDERS: Readonly<Record<string, string>> = Object.freeze({
  'cloud-hosted': 'cloud-hosted endpoints take an API key or an identity token, never a consumer-subscription sign-in',
  custom: 'a custom endpoint has no provider sign-in: set its key with key_env, or none',
});

export type AuthServer = {
  readonly deviceAuthorizationUrl: string;
  readonly tokenUrl: string;
  readonly scope: string | undefined;
};

export type OAuthCheck = { readonly ok: true; readonly catalog: ProviderOAuth | undefined } | { readonly ok: false; readonly message: string };

/** Whether `provider` may sign in with OAuth at all. */
export function checkOAuthProvider(provider: string): OAuthCheck {
  const spec = providerSpec(provider);
  if (!spec) return { ok: false, message: `unknown provider "${provider}"` };
  const refused = NO_OAUTH_PROVIDERS[provider];
  if (refused) return { ok: false, message: `${provider} cannot use iris auth: ${refused}` };
  return { ok: true, catalog: spec.oauth };
}

function join(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** The endpoints for a stored entry, or why there are none. */
export function resolveAuthServer(provider: string, entry: AuthEntry): { ok: true; server: AuthServer } | { ok: false; message: string } {
  const check = checkOAuthProvider(provider);
  if (!check.ok) return check;
  const issuer = entry.issuer ?? check.catalog?.issuer;
  if (!issuer) {
    return { ok: false, message: `${provider} has no known authorization server: run iris auth add ${provider} --client-id <id> --issuer <url>` };
  }
  const paths = check.catalog ?? DEFAULT_OAUTH_PATHS;
  return {
    ok: true,
    server: {
      deviceAuthorizationUrl: join(issuer, paths.deviceAuthorizationPath),
      tokenUrl: join(issuer, paths.tokenPath),
      scope: entry.scope ?? check.catalog?.scope,
    },
  };
}
