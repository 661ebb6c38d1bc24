// The identity-token provider: the chain behind an in-memory cache. A token is reused until 2
// minutes before it expires; callers that arrive while a fetch is in flight share it; a failure is
// not cached, so the next request walks the chain again. Tokens live only in this closure: never
// persisted, never logged. Each caller may cancel its own wait; the shared fetch stops only when
// every caller waiting on it has given up, or at the overall timeout.
import type { Env } from '../../config/home.js';
import { STOP_REASONS } from './abort.js';
import { buildChain, walkChain } from './chain.js';
import type { AuthorityOptions } from './sdk-sources.js';
import { resolveIdentitySettings } from './settings.js';
import { errorText, safeMessage } from './source.js';
import type { IdentityToken, IdentityTokenProvider, TokenResult } from './types.js';

export const TOKEN_REFRESH_MARGIN_MS = 2 * 60_000;
/** Per chain walk. The setup wizard and `iris doctor` pass the spec's 10 s preflight instead. */
export const DEFAULT_IDENTITY_TIMEOUT_MS = 30_000;

export type IdentityProviderOptions = AuthorityOptions & {
  /** The environment to read (process.env merged with $IRIS_HOME/.env); the chain never reads process.env. */
  readonly env: Env;
  /** `model.identity.scope`; default DEFAULT_IDENTITY_SCOPE. */
  readonly scope?: string;
  /** From config (the setup wizard); wins over CLOUD_CLIENT_ID / AZURE_CLIENT_ID. */
  readonly clientId?: string;
  /** From config (the setup wizard); wins over CLOUD_TENANT_ID / AZURE_TENANT_ID. */
  readonly tenantId?: string;
  readonly now?: () => number;
  readonly platform?: NodeJS.Platform;
  readonly timeoutMs?: number;
};

/** `invalidate` drops the cached token (after the upstream rejected it with 401). */
export type CachingIdentityTokenProvider = IdentityTokenProvider & { invalidate(): void };

type InFlight = {
  readonly result: Promise<TokenResult>;
  readonly controller: AbortController;
  waiters: number;
};

const cancelled = (): TokenResult => ({
  ok: false,
  error: { code: 'cancelled', message: 'getting an identity token was cancelled', attempts: [] },
});

export function createIdentityTokenProvider(options: IdentityProviderOptions): CachingIdentityTokenProvider {
  const resolved = resolveIdentitySettings(options);
  if (!resolved.ok) {
    const error: TokenResult = { ok: false, error: { code: 'invalid_config', message: resolved.message, attempts: [] } };
    return { getToken: async () => error, invalidate: () => undefined };
  }
  const { settings } = resolved;
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? DEFAULT_IDENTITY_TIMEOUT_MS;
  const sources = buildChain(settings, {
    env: options.env,
    platform: options.platform ?? process.platform,
    authority: { httpsAgent: options.httpsAgent, disableInstanceDiscovery: options.disableInstanceDiscovery },
    processTimeoutMs: timeoutMs,
  });
  let cached: IdentityToken | undefined;
  let inFlight: InFlight | undefined;

  function start(): InFlight {
    const controller = new AbortController();
    const startedAt = Date.now();
    const timer = setTimeout(() => controller.abort(STOP_REASONS.timeout), timeoutMs);
    const result = walkChain(
      sources,
      {
        scope: settings.scope,
        resource: settings.resource,
        signal: controller.signal,
        remainingMs: () => Math.max(0, timeoutMs - (Date.now() - startedAt)),
        now,
      },
      { secrets: settings.secrets, timeoutMs },
    )
      .then((outcome) => {
        if (outcome.ok) cached = { token: outcome.token, expiresOnMs: outcome.expiresOnMs, source: outcome.source };
        return outcome;
      })
      // walkChain turns every source's failure into a value; this is only the last line of defence.
      .catch((err: unknown): TokenResult => ({
        ok: false,
        error: { code: 'auth_failed', message: safeMessage(errorText(err), settings.secrets), attempts: [] },
      }));
    const entry: InFlight = { result, controller, waiters: 0 };
    void result.finally(() => {
      clearTimeout(timer);
      if (inFlight === entry) inFlight = undefined;
    });
    return entry;
  }

  function wait(entry: InFlight, signal: AbortSignal | undefined): Promise<TokenResult> {
    entry.waiters += 1;
    if (!signal) return entry.result;
    return new Promise((resolve) => {
      const onAbort = () => {
        entry.waiters -= 1;
        if (entry.waiters === 0) {
          // Nobody wants this fetch any more; a caller arriving now starts a fresh one.
          if (inFlight === entry) inFlight = undefined;
          entry.controller.abort(STOP_REASONS.cancelled);
        }
        resolve(cancelled());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      void entry.result.then((outcome) => {
        signal.removeEventListener('abort', onAbort);
        resolve(outcome);
      });
    });
  }

  return {
    async getToken(signal) {
      if (signal?.aborted) return cancelled();
      if (cached && now() < cached.expiresOnMs - TOKEN_REFRESH_MARGIN_MS) return { ok: true, ...cached };
      inFlight ??= start();
      return wait(inFlight, signal);
    },
    // A fetch already in flight is left alone: it was started after the rejected token was issued.
    invalidate() {
      cached = undefined;
    },
  };
}
