// `iris auth`: a block per provider in use — endpoint, auth mode, where the key comes from (the
// variable's name, never its value), in identity mode the scope, and for an OAuth sign-in that a
// token is stored and until when (never the token) — with no live probe (that is
// `iris doctor`'s job). Pure: providers in use in, entries and text out.
import { keySourceText, type ProviderUse } from './providers-in-use.js';
import { SET_UP_MODEL } from '../domain/setup-hint.js';

export const IDENTITY_STATUS = 'configured (live token probe skipped)';
export const KEY_STATUS = 'configured (live probe skipped)';
export const OAUTH_STATUS = 'signed in (iris auth login; live probe skipped)';

export type AuthEntry = {
  readonly id: string;
  readonly provider: string;
  readonly name: string | null;
  readonly used_by: readonly string[];
  /** The base URL calls would use; null when it cannot be planned (see `endpoint_error`). */
  readonly endpoint: string | null;
  readonly endpoint_error?: string;
  readonly auth_mode: 'api_key' | 'identity_token' | 'oauth';
  /** api_key mode: the variable (or config key) and where it was found; absent in identity mode. */
  readonly key?: { readonly variable: string; readonly source: string | null };
  /** identity mode: the token's scope. */
  readonly scope?: string;
  /** oauth mode: a token is stored (never shown); `expires_at` null when the server gave no lifetime. */
  readonly token?: { readonly stored: true; readonly expires_at: string | null; readonly refreshable: boolean };
  readonly configured: boolean;
  readonly status: string;
};

function statusOf(use: ProviderUse): { configured: boolean; status: string } {
  if (!use.name) return { configured: false, status: `not usable: unknown provider "${use.provider}"` };
  if (!use.endpoint.ok) return { configured: false, status: 'not usable: no endpoint (see Endpoint)' };
  const { credential } = use;
  if (credential.kind === 'identity_token') return { configured: true, status: IDENTITY_STATUS };
  if (credential.kind === 'oauth_token') return { configured: true, status: OAUTH_STATUS };
  if (credential.kind === 'missing' && credential.signInExpired) {
    return { configured: false, status: `not usable: the OAuth sign-in has expired: run iris auth login ${use.provider}` };
  }
  if (credential.kind === 'missing' && !credential.optional) {
    return { configured: false, status: `not usable: set the key with iris config set ${credential.variable} <key>` };
  }
  return { configured: true, status: KEY_STATUS };
}

function keyOf(use: ProviderUse): AuthEntry['key'] {
  const { credential } = use;
  switch (credential.kind) {
    case 'api_key':
      return { variable: credential.variable, source: credential.origin };
    case 'missing':
      return { variable: credential.variable, source: null };
    case 'none':
    case 'identity_token':
    case 'oauth_token':
      return undefined;
  }
}

export function buildAuthEntries(uses: readonly ProviderUse[]): AuthEntry[] {
  return uses.map((use) => {
    const key = keyOf(use);
    return {
      id: use.id,
      provider: use.provider,
      name: use.name ?? null,
      used_by: use.usedBy,
      endpoint: use.endpoint.ok ? use.endpoint.baseUrl : null,
      ...(use.endpoint.ok ? {} : { endpoint_error: use.endpoint.message }),
      auth_mode: use.authMode,
      ...(key ? { key } : {}),
      ...(use.credential.kind === 'identity_token' ? { scope: use.credential.scope } : {}),
      ...(use.credential.kind === 'oauth_token'
        ? { token: { stored: true as const, expires_at: use.credential.expiresAt, refreshable: use.credential.refreshable } }
        : {}),
      ...statusOf(use),
    };
  });
}

function tokenText(token: NonNullable<AuthEntry['token']>): string {
  const until = token.expires_at ? `expires ${token.expires_at}` : 'no expiry given';
  return `stored (${until}${token.refreshable ? ', refreshed automatically' : ''})`;
}

function blockLines(use: ProviderUse, entry: AuthEntry): string[] {
  return [
    `${entry.provider} (${entry.name ?? 'unknown provider'})`,
    `  Used by: ${entry.used_by.join(', ')}`,
    `  Endpoint: ${entry.endpoint ?? `none (${entry.endpoint_error ?? 'not set'})`}`,
    `  Auth mode: ${entry.auth_mode}`,
    entry.scope !== undefined
      ? `  Scope: ${entry.scope}`
      : entry.token
        ? `  Token: ${tokenText(entry.token)}`
        : `  Key: ${keySourceText(use.credential)}`,
    `  Status: ${entry.status}`,
  ];
}

export const NO_PROVIDERS_TEXT = `No provider is in use yet: ${SET_UP_MODEL}\n`;

export function formatAuthText(uses: readonly ProviderUse[]): string {
  if (uses.length === 0) return NO_PROVIDERS_TEXT;
  const entries = buildAuthEntries(uses);
  return `${uses.map((use, i) => blockLines(use, entries[i] as AuthEntry).join('\n')).join('\n\n')}\n`;
}
