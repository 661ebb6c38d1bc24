// What every guarded fetch is given, as plain values: the policy (tools.web's settings) and the
// proxy (HTTP(S)_PROXY, NO_PROXY); callers read config and the environment, src/net never does.
import { resolveFetchPolicy, STRICT_POLICY, type FetchGuardSettings, type FetchPolicy } from './fetch-policy.js';
import type { Resolver } from './guarded-lookup.js';
import type { ProxySettings } from './proxy-route.js';

export type FetchGuard = {
  readonly policy: FetchPolicy;
  readonly proxy: ProxySettings;
  /** DNS for direct connections; tests give public-looking names local addresses with it. */
  readonly resolve?: Resolver;
};

/** For a tool built without settings (a toolset listing, a test): nothing opened, no proxy. */
export const STRICT_GUARD: FetchGuard = Object.freeze({ policy: STRICT_POLICY, proxy: {} });

export function buildFetchGuard(settings: FetchGuardSettings, proxy: ProxySettings): FetchGuard {
  return { policy: resolveFetchPolicy(settings), proxy };
}
