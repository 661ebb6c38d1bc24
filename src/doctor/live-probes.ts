// The doctor's live probes of a provider in use: in identity mode the 10 s token probe first
// (through the same chain calls use), then GET {base}/models with a 5 s timeout, reusing that
// token. Loaded only when the doctor is not --offline: it brings in the HTTP client.
import type { Env } from '../config/home.js';
import { createIdentityTokenProvider } from '../providers/identity/index.js';
import type { TokenResult } from '../providers/identity/types.js';
import { listModels, type ModelListResult } from '../providers/list-models.js';
import { isProbeable, PROBE_TIMEOUT_MS } from './checks/providers.js';
import type { ProviderUse } from './providers-in-use.js';

export type LiveProbe = {
  /** Identity mode only. */
  readonly token?: TokenResult;
  /** Absent when there was nothing to probe (no endpoint, no credential, no token). */
  readonly models?: ModelListResult;
};

export async function probeProvider(use: ProviderUse, env: Env, identityTimeoutMs: number): Promise<LiveProbe> {
  if (use.credential.kind !== 'identity_token') {
    return isProbeable(use) ? { models: await listModels(use.route, { env, timeoutMs: PROBE_TIMEOUT_MS }) } : {};
  }
  const { route } = use;
  const identity = createIdentityTokenProvider({
    env,
    scope: use.credential.scope,
    ...(route.identityClientId ? { clientId: route.identityClientId } : {}),
    ...(route.identityTenantId ? { tenantId: route.identityTenantId } : {}),
    timeoutMs: identityTimeoutMs,
  });
  const token = await identity.getToken();
  if (!token.ok || !isProbeable(use)) return { token };
  // The provider caches the token it just fetched: the model probe does not walk the chain again.
  return { token, models: await listModels(route, { env, timeoutMs: PROBE_TIMEOUT_MS, identity }) };
}
