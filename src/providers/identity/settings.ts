// What the credential chain reads, resolved once from the caller's environment map and the config:
// the spec's CLOUD_* names first, the cloud SDK's conventional AZURE_* names as fallbacks, and the
// config's client and tenant ids (set by the setup wizard) over both. Pure: no process.env, no I/O.
import type { Env } from '../../config/home.js';
import { DEFAULT_IDENTITY_SCOPE } from './types.js';

/** Each setting and the variables it is read from, first match wins. */
export const ENV_NAMES = {
  tenantId: ['CLOUD_TENANT_ID', 'AZURE_TENANT_ID'],
  clientId: ['CLOUD_CLIENT_ID', 'AZURE_CLIENT_ID'],
  clientSecret: ['CLOUD_CLIENT_SECRET', 'AZURE_CLIENT_SECRET'],
  certificatePath: ['CLOUD_CLIENT_CERTIFICATE_PATH', 'AZURE_CLIENT_CERTIFICATE_PATH'],
  federatedTokenFile: ['CLOUD_FEDERATED_TOKEN_FILE', 'AZURE_FEDERATED_TOKEN_FILE'],
  authorityHost: ['CLOUD_AUTHORITY_HOST', 'AZURE_AUTHORITY_HOST'],
} as const;

type EnvSetting = keyof typeof ENV_NAMES;

export const DEFAULT_AUTHORITY_HOST = 'https://login.microsoftonline.com';
export const DEFAULT_IMDS_HOST = 'http://169.254.169.254';

/** Where a managed identity would come from, decided by the variables the platform sets. */
export type ManagedIdentityTarget =
  | { readonly kind: 'app_platform'; readonly endpoint: string; readonly header: string }
  | { readonly kind: 'app_platform_legacy'; readonly endpoint: string; readonly secret: string }
  /** `probe`: the default address is checked with a short timeout first, since off a cloud VM it never answers. */
  | { readonly kind: 'imds'; readonly host: string; readonly probe: boolean }
  | { readonly kind: 'unsupported'; readonly reason: string };

export type IdentitySettings = Readonly<
  { [K in EnvSetting]: K extends 'authorityHost' ? string : string | undefined } & {
    scope: string;
    /** The scope without `/.default`: what managed identity and `az` ask for. */
    resource: string;
    managedIdentity: ManagedIdentityTarget;
    /** Every secret value found, so failure messages can be scrubbed of them. */
    secrets: readonly string[];
  }
>;

export type SettingsInput = {
  readonly env: Env;
  readonly scope?: string;
  readonly clientId?: string;
  readonly tenantId?: string;
};

export type SettingsResult =
  | { readonly ok: true; readonly settings: IdentitySettings }
  | { readonly ok: false; readonly message: string };

// The characters the SDK itself accepts in a scope and a tenant (they may become CLI arguments).
const SCOPE_PATTERN = /^[0-9a-zA-Z\-_.:/]+$/;
const TENANT_PATTERN = /^[0-9a-zA-Z\-.]+$/;

function clean(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

export function readEnvSetting(env: Env, setting: EnvSetting): string | undefined {
  for (const name of ENV_NAMES[setting]) {
    const value = clean(env[name]);
    if (value !== undefined) return value;
  }
  return undefined;
}

function httpUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Mirrors the order in which the cloud SDK picks a managed-identity flavour. */
export function resolveManagedIdentityTarget(env: Env): ManagedIdentityTarget {
  const identityEndpoint = clean(env.IDENTITY_ENDPOINT);
  const identityHeader = clean(env.IDENTITY_HEADER);
  const msiEndpoint = clean(env.MSI_ENDPOINT);
  const msiSecret = clean(env.MSI_SECRET);
  const unusable = (name: string) => ({ kind: 'unsupported', reason: `not available: ${name} is not an http(s) URL` }) as const;
  if (identityEndpoint && identityHeader && clean(env.IDENTITY_SERVER_THUMBPRINT)) {
    return { kind: 'unsupported', reason: 'not available: Service Fabric managed identity is not supported' };
  }
  if (identityEndpoint && identityHeader) {
    return httpUrl(identityEndpoint) ? { kind: 'app_platform', endpoint: identityEndpoint, header: identityHeader } : unusable('IDENTITY_ENDPOINT');
  }
  if (msiEndpoint && msiSecret) {
    return httpUrl(msiEndpoint) ? { kind: 'app_platform_legacy', endpoint: msiEndpoint, secret: msiSecret } : unusable('MSI_ENDPOINT');
  }
  if (msiEndpoint) {
    // Cloud Shell sets MSI_ENDPOINT alone; its `az` session is the cloud CLI source, later in the chain.
    return { kind: 'unsupported', reason: 'not available: MSI_ENDPOINT without MSI_SECRET (Cloud Shell) is not supported; the az CLI source covers it' };
  }
  if (identityEndpoint && clean(env.IMDS_ENDPOINT)) {
    return { kind: 'unsupported', reason: 'not available: Azure Arc managed identity is not supported' };
  }
  // The SDK's documented override of the metadata address (pod identity, and loopback fakes).
  const podHost = clean(env.AZURE_POD_IDENTITY_AUTHORITY_HOST);
  if (podHost) {
    return httpUrl(podHost) ? { kind: 'imds', host: podHost.replace(/\/+$/, ''), probe: false } : unusable('AZURE_POD_IDENTITY_AUTHORITY_HOST');
  }
  return { kind: 'imds', host: DEFAULT_IMDS_HOST, probe: true };
}

export function resolveIdentitySettings(input: SettingsInput): SettingsResult {
  const { env } = input;
  const scope = clean(input.scope) ?? DEFAULT_IDENTITY_SCOPE;
  if (!SCOPE_PATTERN.test(scope)) {
    return { ok: false, message: `model.identity.scope "${scope}" may contain only letters, digits and - _ . : /` };
  }
  const tenantId = clean(input.tenantId) ?? readEnvSetting(env, 'tenantId');
  if (tenantId !== undefined && !TENANT_PATTERN.test(tenantId)) {
    return { ok: false, message: `the tenant id "${tenantId}" may contain only letters, digits, - and .` };
  }
  const authorityHost = (readEnvSetting(env, 'authorityHost') ?? DEFAULT_AUTHORITY_HOST).replace(/\/+$/, '');
  if (httpUrl(authorityHost)?.protocol !== 'https:') {
    return { ok: false, message: `CLOUD_AUTHORITY_HOST "${authorityHost}" must be an https URL` };
  }
  const clientSecret = readEnvSetting(env, 'clientSecret');
  const managedIdentity = resolveManagedIdentityTarget(env);
  const secrets = [clientSecret, clean(env.IDENTITY_HEADER), clean(env.MSI_SECRET)].filter(
    (value): value is string => value !== undefined,
  );
  return {
    ok: true,
    settings: {
      scope,
      resource: scope.endsWith('/.default') ? scope.slice(0, -'/.default'.length) : scope,
      tenantId,
      clientId: clean(input.clientId) ?? readEnvSetting(env, 'clientId'),
      clientSecret,
      certificatePath: readEnvSetting(env, 'certificatePath'),
      federatedTokenFile: readEnvSetting(env, 'federatedTokenFile'),
      authorityHost,
      managedIdentity,
      secrets,
    },
  };
}
