// The credential chain in the spec's order (TOKEN_SOURCES), stopping at the first source that
// returns a token. Unlike the SDK's DefaultAzureCredential, a configured source that fails does not
// end the walk: the next source may still work, and the failure is kept for the report. There is
// deliberately no interactive browser source: a service must never open a browser.
import type { Env } from '../../config/home.js';
import { ABORTED, raceAbort, stopReason, type StopReason } from './abort.js';
import { cloudCliSource, developerCliSource } from './cli-sources.js';
import { managedIdentitySource } from './managed-identity.js';
import {
  editorSource,
  environmentSource,
  powerShellSource,
  workloadIdentitySource,
  type AuthorityOptions,
} from './sdk-sources.js';
import type { IdentitySettings } from './settings.js';
import { errorText, failed, safeMessage, unavailable, type CredentialSource, type SourceContext } from './source.js';
import { TOKEN_SOURCES, type IdentityError, type TokenResult, type TokenSource } from './types.js';

export type ChainOptions = {
  readonly env: Env;
  readonly platform: NodeJS.Platform;
  readonly authority: AuthorityOptions;
  /** The PowerShell SDK credential's own process timeout (it cannot take our signal). */
  readonly processTimeoutMs: number;
};

export function buildChain(settings: IdentitySettings, options: ChainOptions): readonly CredentialSource[] {
  const cli = { env: options.env, platform: options.platform };
  // A Record, so a source added to TOKEN_SOURCES without an implementation fails to compile.
  const bySource: Readonly<Record<TokenSource, CredentialSource>> = {
    environment: environmentSource(settings, options.authority),
    workload_identity: workloadIdentitySource(settings, options.authority),
    managed_identity: managedIdentitySource(settings.managedIdentity, settings.clientId),
    editor: editorSource(settings),
    cloud_cli: cloudCliSource(settings, cli),
    developer_cli: developerCliSource(settings, cli),
    powershell: powerShellSource(settings, options.processTimeoutMs),
    broker: brokerSource(options.platform, options.env),
  };
  return TOKEN_SOURCES.map((source) => bySource[source]);
}

/**
 * The broker (WAM) exists only on Windows and WSL, and even there the SDK reaches it only through
 * its optional native plugin (@azure/identity-broker), which Iris does not bundle.
 */
export function brokerSource(platform: NodeJS.Platform, env: Env): CredentialSource {
  const wsl = platform === 'linux' && (env.WSL_DISTRO_NAME !== undefined || env.WSL_INTEROP !== undefined);
  const reason =
    platform === 'win32' || wsl
      ? 'not available: the broker needs the optional @azure/identity-broker plugin, which is not installed'
      : 'not available on this platform (the broker is Windows and WSL only)';
  return { source: 'broker', getToken: async () => unavailable(reason) };
}

export type WalkOptions = { readonly secrets: readonly string[]; readonly timeoutMs: number };

type Attempt = IdentityError['attempts'][number];

export async function walkChain(
  sources: readonly CredentialSource[],
  context: SourceContext,
  options: WalkOptions,
): Promise<TokenResult> {
  const attempts: Attempt[] = [];
  let firstFailure: Attempt | undefined;
  for (const link of sources) {
    const stopped = stopReason(context.signal);
    if (stopped) return stop(stopped, attempts, undefined, options.timeoutMs);
    const outcome = await raceAbort(link.getToken(context), context.signal).catch((err: unknown) => failed(errorText(err)));
    const stoppedNow = stopReason(context.signal);
    if (outcome === ABORTED || (stoppedNow && outcome.kind !== 'token')) {
      return stop(stoppedNow ?? 'cancelled', attempts, link.source, options.timeoutMs);
    }
    if (outcome.kind === 'token') {
      return { ok: true, token: outcome.token, expiresOnMs: outcome.expiresOnMs, source: link.source };
    }
    const message = safeMessage(outcome.kind === 'failed' ? `failed: ${outcome.reason}` : outcome.reason, options.secrets);
    const attempt = { source: link.source, message };
    attempts.push(attempt);
    if (outcome.kind === 'failed') firstFailure ??= attempt;
  }
  if (firstFailure) {
    return fail('auth_failed', `no credential source returned a token; ${firstFailure.source} ${firstFailure.message}`, attempts);
  }
  return fail(
    'no_credential',
    'no identity credential found: set CLOUD_TENANT_ID, CLOUD_CLIENT_ID and CLOUD_CLIENT_SECRET (or a certificate or a federated token file), run with a managed identity, or sign in with `az login`',
    attempts,
  );
}

function stop(reason: StopReason, attempts: Attempt[], during: TokenSource | undefined, timeoutMs: number): TokenResult {
  if (during) attempts.push({ source: during, message: reason === 'timeout' ? 'timed out' : 'cancelled' });
  const where = during ? ` (while trying ${during})` : '';
  return reason === 'timeout'
    ? fail('timeout', `getting an identity token timed out after ${timeoutMs} ms${where}`, attempts)
    : fail('cancelled', `getting an identity token was cancelled${where}`, attempts);
}

function fail(code: IdentityError['code'], message: string, attempts: readonly Attempt[]): TokenResult {
  return { ok: false, error: { code, message, attempts: [...attempts] } };
}
