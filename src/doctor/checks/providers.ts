// Each provider in use: is there a credential (named by its variable, never shown), can its
// endpoint be planned, and — unless --offline — does GET {base}/models answer. Pure: the probe's
// result comes in as a value; a 401/403 gets the hint that explains it.
import { PROVIDER_IDS } from '../../domain/provider-ids.js';
import { IDENTITY_401_HINT } from '../../providers/cloud/hints.js';
import type { ModelListResult } from '../../providers/list-models.js';
import { keySourceText, type ProviderUse } from '../providers-in-use.js';
import { fail, ok, warn, type CheckResult } from '../types.js';

export const PROBE_TIMEOUT_MS = 5_000;

const usedBy = (use: ProviderUse) => `used by ${use.usedBy.join(', ')}`;

export function checkCredential(use: ProviderUse): CheckResult {
  const id = `credential:${use.id}`;
  const name = `${use.id} credential`;
  if (!use.name) {
    const slot = /^auxiliary\.([a-z_]+)$/.exec(use.usedBy[0] ?? '')?.[1];
    const command = slot ? `iris model aux set ${slot} <provider> <model>` : 'iris model set <provider> <model>';
    return fail(id, name, `unknown provider "${use.provider}" (${usedBy(use)})`, `use one of ${PROVIDER_IDS.join(', ')}: ${command}`);
  }
  const { credential } = use;
  switch (credential.kind) {
    case 'api_key':
      return ok(id, name, `api key in ${keySourceText(credential)}; ${usedBy(use)}`);
    case 'identity_token':
      return ok(id, name, `identity token (model.auth_mode: identity_token), scope ${credential.scope}; ${usedBy(use)}`);
    case 'none':
      return ok(id, name, `no key (none needed); ${usedBy(use)}`);
    case 'oauth_token':
      return ok(id, name, `OAuth sign-in in auth.json (${credential.expiresAt ? `expires ${credential.expiresAt}` : 'no expiry given'}; not probed); ${usedBy(use)}`);
    case 'missing':
      if (credential.signInExpired) {
        return fail(id, name, `the OAuth sign-in has expired and ${credential.variable} is not set (${usedBy(use)})`, `iris auth login ${use.provider}`);
      }
      return credential.optional
        ? warn(id, name, `${credential.variable} is not set: requests go without a key (${usedBy(use)})`, `iris config set ${credential.variable} <key>, or drop key_env if the endpoint needs no key`)
        : fail(id, name, `no api key: ${credential.variable} is not set (${usedBy(use)})`, `iris config set ${credential.variable} <key>`);
  }
}

/** The config key of a user's base URL: `main` → `model.base_url`, `fallback_providers[0]` → `fallback_providers.0.base_url`. */
export function baseUrlKey(user: string): string {
  const key = user === 'main' ? 'model' : user.replace(/\[(\d+)\]/g, '.$1');
  return `${key}.base_url`;
}

/** Only when the endpoint cannot be planned (no or a bad base URL). */
export function checkEndpoint(use: ProviderUse): CheckResult | undefined {
  if (use.endpoint.ok || !use.name) return undefined;
  return fail(`endpoint:${use.id}`, `${use.id} endpoint`, use.endpoint.message, `iris config set ${baseUrlKey(use.usedBy[0] ?? 'main')} <url>`);
}

/**
 * Whether a live probe makes sense: a known provider, a planned endpoint, and a credential (or none
 * needed). An OAuth sign-in is not probed: the probe reads keys and identity tokens only.
 */
export function isProbeable(use: ProviderUse): boolean {
  if (!use.name || !use.endpoint.ok || use.credential.kind === 'oauth_token') return false;
  return use.credential.kind !== 'missing' || use.credential.optional;
}

function rejectedHint(use: ProviderUse, status: number): string {
  if (use.credential.kind === 'identity_token') return IDENTITY_401_HINT;
  if (use.credential.kind === 'api_key') {
    return (
      `the provider rejected the key in ${use.credential.variable} (${status}): it may be mistyped, revoked, expired or ` +
      `lack access; set a current one with iris config set ${use.credential.variable} <key>`
    );
  }
  return `the endpoint wants a credential (${status}): set one in a variable and name it in key_env`;
}

function probeFix(use: ProviderUse, result: Extract<ModelListResult, { ok: false }>): string {
  const base = use.endpoint.ok ? use.endpoint.baseUrl : '';
  const status = result.status;
  if (status === 401 || status === 403) return rejectedHint(use, status);
  if (status === 404) return `check the endpoint URL: ${base} has no /models (it should be the API's base URL)`;
  if (status === 429) return 'the provider is rate limiting: try again in a minute';
  if (status !== undefined && status >= 500) return `the provider is failing (${status}): try again later, or add a fallback in fallback_providers`;
  if (status !== undefined) return `check the endpoint URL (${base}) and the credential`;
  return `check that ${base} is reachable from this machine (network, HTTPS_PROXY) and that the endpoint URL is right`;
}

export function checkProbe(use: ProviderUse, result: ModelListResult): CheckResult {
  const id = `probe:${use.id}`;
  const name = `${use.id} probe`;
  if (result.ok) {
    const count = result.ids.length;
    return ok(id, name, `${count} model${count === 1 ? '' : 's'} listed at ${result.url}`);
  }
  const message = result.status !== undefined && !result.message.includes(String(result.status)) ? `${result.message} (${result.status})` : result.message;
  const where = result.url && !message.includes(result.url) ? `GET ${result.url}: ` : '';
  return fail(id, name, `${where}${message}`, probeFix(use, result));
}
