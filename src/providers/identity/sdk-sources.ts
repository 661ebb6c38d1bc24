// The chain's links that are the cloud SDK's own credential classes (@azure/identity), given the
// settings as explicit options so the SDK never falls back to its own reading of process.env:
// service principal by secret or certificate, workload identity, the code-editor account, and
// the PowerShell session. MSAL inside them does the real work (authority metadata, signed client
// assertions, its in-memory token cache).
import type { Agent } from 'node:https';
import type { TokenCredential } from '@azure/identity';
import type { IdentitySettings } from './settings.js';
import { errorText, failed, unavailable, type CredentialSource } from './source.js';
import type { TokenSource } from './types.js';

/** How the SDK reaches the authority. Both exist for private clouds, and for a loopback test authority. */
export type AuthorityOptions = {
  /** Trusts a private CA for the authority's TLS; the SDK otherwise uses its own agent and the system CAs. */
  readonly httpsAgent?: Agent;
  /** Skips MSAL's instance discovery, which cannot vouch for a private or loopback authority host. */
  readonly disableInstanceDiscovery?: boolean;
};

// Loaded on first use: the SDK is large, and most commands never need a token.
const loadSdk = () => import('@azure/identity');
type Sdk = Awaited<ReturnType<typeof loadSdk>>;

/**
 * `configured`: the user set this source up, so any error is a failure worth reporting. Otherwise
 * (editor, PowerShell) the SDK's "unavailable" means only that the tool is not there.
 */
function sdkSource(source: TokenSource, configured: boolean, make: (sdk: Sdk) => TokenCredential): CredentialSource {
  let credential: TokenCredential | undefined; // kept: MSAL's client and cache live in it
  return {
    source,
    async getToken({ scope, signal }) {
      try {
        credential ??= make(await loadSdk());
        const token = await credential.getToken(scope, { abortSignal: signal });
        if (!token) return failed('the SDK returned no token');
        return { kind: 'token', token: token.token, expiresOnMs: token.expiresOnTimestamp };
      } catch (err) {
        const unavailableError = (err as Error | undefined)?.name === 'CredentialUnavailableError';
        return !configured && unavailableError ? unavailable(`not available: ${errorText(err)}`) : failed(errorText(err));
      }
    },
  };
}

const notConfigured = (source: TokenSource, reason: string): CredentialSource => ({
  source,
  getToken: async () => unavailable(`not configured: ${reason}`),
});

/** "CLOUD_TENANT_ID is not set", "CLOUD_TENANT_ID and CLOUD_CLIENT_ID are not set". */
function missing(names: Readonly<Record<string, string | undefined>>): string {
  const absent = Object.entries(names)
    .filter(([, value]) => value === undefined)
    .map(([name]) => name);
  return `${absent.join(' and ')} ${absent.length > 1 ? 'are' : 'is'} not set`;
}

export function environmentSource(settings: IdentitySettings, authority: AuthorityOptions): CredentialSource {
  const { tenantId, clientId, clientSecret, certificatePath, federatedTokenFile } = settings;
  if (clientSecret === undefined && certificatePath === undefined) {
    return notConfigured(
      'environment',
      federatedTokenFile !== undefined
        ? 'no secret or certificate (the federated token file is used by workload identity)'
        : 'set CLOUD_TENANT_ID, CLOUD_CLIENT_ID and CLOUD_CLIENT_SECRET or CLOUD_CLIENT_CERTIFICATE_PATH',
    );
  }
  if (tenantId === undefined || clientId === undefined) {
    const what = clientSecret !== undefined ? 'a client secret' : 'a client certificate path';
    return notConfigured('environment', `${what} is set but ${missing({ CLOUD_TENANT_ID: tenantId, CLOUD_CLIENT_ID: clientId })}`);
  }
  const options = sdkOptions(settings, authority);
  return sdkSource('environment', true, (sdk) =>
    clientSecret !== undefined
      ? new sdk.ClientSecretCredential(tenantId, clientId, clientSecret, options)
      : new sdk.ClientCertificateCredential(tenantId, clientId, { certificatePath: certificatePath ?? '' }, options),
  );
}

export function workloadIdentitySource(settings: IdentitySettings, authority: AuthorityOptions): CredentialSource {
  const { tenantId, clientId, federatedTokenFile } = settings;
  if (federatedTokenFile === undefined) return notConfigured('workload_identity', 'CLOUD_FEDERATED_TOKEN_FILE is not set');
  if (tenantId === undefined || clientId === undefined) {
    return notConfigured(
      'workload_identity',
      `a federated token file is set but ${missing({ CLOUD_TENANT_ID: tenantId, CLOUD_CLIENT_ID: clientId })}`,
    );
  }
  return sdkSource('workload_identity', true, (sdk) =>
    new sdk.WorkloadIdentityCredential({ ...sdkOptions(settings, authority), tenantId, clientId, tokenFilePath: federatedTokenFile }),
  );
}

/** Needs the SDK's optional VS Code plugin; without it the SDK reports "not available" at once. */
export function editorSource(settings: IdentitySettings): CredentialSource {
  return sdkSource('editor', false, (sdk) => new sdk.VisualStudioCodeCredential(tenantOption(settings)));
}

export function powerShellSource(settings: IdentitySettings, processTimeoutMs: number): CredentialSource {
  return sdkSource('powershell', false, (sdk) =>
    new sdk.AzurePowerShellCredential({ ...tenantOption(settings), processTimeoutInMs: processTimeoutMs }),
  );
}

function tenantOption(settings: IdentitySettings): { tenantId?: string } {
  return settings.tenantId === undefined ? {} : { tenantId: settings.tenantId };
}

function sdkOptions(settings: IdentitySettings, authority: AuthorityOptions) {
  return {
    // Always explicit: left out, the SDK would read AZURE_AUTHORITY_HOST from process.env itself.
    authorityHost: settings.authorityHost,
    ...(authority.disableInstanceDiscovery ? { disableInstanceDiscovery: true } : {}),
    ...(authority.httpsAgent ? { agent: authority.httpsAgent } : {}),
  };
}
