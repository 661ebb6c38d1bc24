import { describe, expect, it } from 'vitest';
import { DEFAULT_AUTHORITY_HOST, resolveIdentitySettings, resolveManagedIdentityTarget, type IdentitySettings } from './settings.js';
import { DEFAULT_IDENTITY_SCOPE } from './types.js';
import { stringContaining } from '../../../test/helpers/documents.js';

function settingsOf(input: Parameters<typeof resolveIdentitySettings>[0]): IdentitySettings {
  const result = resolveIdentitySettings(input);
  if (!result.ok) throw new Error(`unexpected: ${result.message}`);
  return result.settings;
}

describe('resolveIdentitySettings', () => {
  it('reads the CLOUD_* names before the AZURE_* names, for every setting', () => {
    const env = {
      CLOUD_TENANT_ID: 'cloud-tenant', AZURE_TENANT_ID: 'azure-tenant',
      CLOUD_CLIENT_ID: 'cloud-client', AZURE_CLIENT_ID: 'azure-client',
      CLOUD_CLIENT_SECRET: 'cloud-secret', AZURE_CLIENT_SECRET: 'azure-secret',
      CLOUD_CLIENT_CERTIFICATE_PATH: '/cloud.pem', AZURE_CLIENT_CERTIFICATE_PATH: '/azure.pem',
      CLOUD_FEDERATED_TOKEN_FILE: '/cloud.jwt', AZURE_FEDERATED_TOKEN_FILE: '/azure.jwt',
      CLOUD_AUTHORITY_HOST: 'https://login.microsoftonline.us', AZURE_AUTHORITY_HOST: 'https://login.chinacloudapi.cn',
    };
    expect(settingsOf({ env })).toMatchObject({
      tenantId: 'cloud-tenant',
      clientId: 'cloud-client',
      clientSecret: 'cloud-secret',
      certificatePath: '/cloud.pem',
      federatedTokenFile: '/cloud.jwt',
      authorityHost: 'https://login.microsoftonline.us',
    });
  });

  it('falls back to the AZURE_* names, treating blank CLOUD_* values as unset', () => {
    const env = {
      CLOUD_TENANT_ID: '  ', AZURE_TENANT_ID: 'azure-tenant',
      CLOUD_CLIENT_ID: '', AZURE_CLIENT_ID: 'azure-client',
      AZURE_CLIENT_SECRET: 'azure-secret',
      AZURE_CLIENT_CERTIFICATE_PATH: '/azure.pem',
      AZURE_FEDERATED_TOKEN_FILE: '/azure.jwt',
      AZURE_AUTHORITY_HOST: 'https://login.chinacloudapi.cn/',
    };
    expect(settingsOf({ env })).toMatchObject({
      tenantId: 'azure-tenant',
      clientId: 'azure-client',
      clientSecret: 'azure-secret',
      certificatePath: '/azure.pem',
      federatedTokenFile: '/azure.jwt',
      authorityHost: 'https://login.chinacloudapi.cn',
    });
  });

  it('lets the config client and tenant ids win over the environment', () => {
    const env = { CLOUD_TENANT_ID: 'env-tenant', CLOUD_CLIENT_ID: 'env-client' };
    expect(settingsOf({ env, tenantId: 'config-tenant', clientId: 'config-client' })).toMatchObject({
      tenantId: 'config-tenant',
      clientId: 'config-client',
    });
  });

  it('defaults the scope and the authority, and derives the resource from the scope', () => {
    const settings = settingsOf({ env: {} });
    expect(settings).toMatchObject({
      scope: DEFAULT_IDENTITY_SCOPE,
      resource: 'https://ai.azure.com',
      authorityHost: DEFAULT_AUTHORITY_HOST,
      tenantId: undefined,
      clientId: undefined,
      secrets: [],
    });
    expect(settingsOf({ env: {}, scope: 'api://custom-audience' }).resource).toBe('api://custom-audience');
  });

  it('collects every secret value for scrubbing', () => {
    const env = { CLOUD_CLIENT_SECRET: 'the-secret', IDENTITY_ENDPOINT: 'http://127.0.0.1:1/msi', IDENTITY_HEADER: 'the-header', MSI_SECRET: 'the-msi-secret' };
    expect(settingsOf({ env }).secrets).toEqual(['the-secret', 'the-header', 'the-msi-secret']);
  });

  it.each([
    [{ env: {}, scope: 'https://ai.azure.com/.default --tenant x' }, 'model.identity.scope'],
    [{ env: {}, scope: 'https://ai.azure.com/.default&x' }, 'model.identity.scope'],
    [{ env: { CLOUD_TENANT_ID: 'tenant;rm -rf' } }, 'tenant id'],
    [{ env: {}, tenantId: '../tenant' }, 'tenant id'],
    [{ env: { CLOUD_AUTHORITY_HOST: 'http://login.example.test' } }, 'must be an https URL'],
    [{ env: { CLOUD_AUTHORITY_HOST: 'login.microsoftonline.us' } }, 'must be an https URL'],
  ])('refuses unusable input %j', (input, wording) => {
    const result = resolveIdentitySettings(input);
    expect(result.ok).toBe(false);
    expect(result).toMatchObject({ message: stringContaining(wording) });
  });
});

describe('resolveManagedIdentityTarget', () => {
  it.each([
    [{}, { kind: 'imds', host: 'http://169.254.169.254', probe: true }],
    [{ AZURE_POD_IDENTITY_AUTHORITY_HOST: 'http://127.0.0.1:9/' }, { kind: 'imds', host: 'http://127.0.0.1:9', probe: false }],
    [
      { IDENTITY_ENDPOINT: 'http://127.0.0.1:41/msi/token', IDENTITY_HEADER: 'h' },
      { kind: 'app_platform', endpoint: 'http://127.0.0.1:41/msi/token', header: 'h' },
    ],
    [
      { MSI_ENDPOINT: 'http://127.0.0.1:41/msi/token', MSI_SECRET: 's' },
      { kind: 'app_platform_legacy', endpoint: 'http://127.0.0.1:41/msi/token', secret: 's' },
    ],
    // The app platform's current variables win over the legacy ones, as in the SDK.
    [
      { IDENTITY_ENDPOINT: 'http://127.0.0.1:41/a', IDENTITY_HEADER: 'h', MSI_ENDPOINT: 'http://127.0.0.1:41/b', MSI_SECRET: 's' },
      { kind: 'app_platform', endpoint: 'http://127.0.0.1:41/a', header: 'h' },
    ],
  ])('picks the flavour from %j', (env, expected) => {
    expect(resolveManagedIdentityTarget(env)).toEqual(expected);
  });

  it.each([
    [{ IDENTITY_ENDPOINT: 'http://x', IDENTITY_HEADER: 'h', IDENTITY_SERVER_THUMBPRINT: 't' }, 'Service Fabric'],
    [{ MSI_ENDPOINT: 'http://localhost:50342/oauth2/token' }, 'Cloud Shell'],
    [{ IDENTITY_ENDPOINT: 'http://localhost:40342/metadata/identity/oauth2/token', IMDS_ENDPOINT: 'http://localhost:40342' }, 'Azure Arc'],
    [{ IDENTITY_ENDPOINT: 'not a url', IDENTITY_HEADER: 'h' }, 'IDENTITY_ENDPOINT is not an http(s) URL'],
    [{ AZURE_POD_IDENTITY_AUTHORITY_HOST: 'ftp://x' }, 'AZURE_POD_IDENTITY_AUTHORITY_HOST is not an http(s) URL'],
  ])('names what it does not support: %j', (env, wording) => {
    expect(resolveManagedIdentityTarget(env)).toEqual({ kind: 'unsupported', reason: stringContaining(wording) });
  });
});
