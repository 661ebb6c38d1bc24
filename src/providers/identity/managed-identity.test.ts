import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { APP_PLATFORM_PATH, IMDS_PATH, startTokenEndpoint, type FakeTokenEndpoint } from '../../../test/fakes/token-endpoint.js';
import { managedIdentitySource, probeImds } from './managed-identity.js';
import { createIdentityTokenProvider } from './provider.js';
import type { SourceContext } from './source.js';
import { stringContaining, stringMatching } from '../../../test/helpers/documents.js';

let dir: string;
let fake: FakeTokenEndpoint;
const IDENTITY_HEADER = 'identity-header-value-8f2c';
const MSI_SECRET = 'legacy-msi-secret-4b1d';
const USER_ASSIGNED = '11111111-2222-3333-4444-555555555555';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'iris-mi-'));
  // The SDK's PowerShell source finds pwsh on process.env's PATH: an empty one keeps the walk hermetic.
  vi.stubEnv('PATH', dir);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => fake?.close());

async function start(options: Parameters<typeof startTokenEndpoint>[0] = {}) {
  fake = await startTokenEndpoint({ identityHeader: IDENTITY_HEADER, msiSecret: MSI_SECRET, userAssignedClientIds: [USER_ASSIGNED], ...options });
  return fake;
}

function provider(env: Record<string, string>, options: { clientId?: string } = {}) {
  return createIdentityTokenProvider({ env: { PATH: dir, ...env }, platform: 'linux', timeoutMs: 5000, ...options });
}

function issuedResult(index = 0) {
  const issued = fake.issued[index];
  if (!issued) throw new Error('the fake issued no token');
  return { ok: true, token: issued.token, expiresOnMs: issued.expiresOnSeconds * 1000, source: 'managed_identity' };
}

describe('managed identity: app platform endpoint (IDENTITY_ENDPOINT + IDENTITY_HEADER)', () => {
  it('asks for the resource with api-version 2019-08-01 and the identity header', async () => {
    await start();
    const result = await provider({ IDENTITY_ENDPOINT: `${fake.httpUrl}${APP_PLATFORM_PATH}`, IDENTITY_HEADER }).getToken();
    expect(result).toEqual(issuedResult());
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({
      method: 'GET',
      path: APP_PLATFORM_PATH,
      query: { 'api-version': '2019-08-01', resource: 'https://ai.azure.com' },
      headers: { 'x-identity-header': IDENTITY_HEADER },
    });
    expect(Object.keys(fake.requests[0]?.query ?? {}).sort()).toEqual(['api-version', 'resource']);
  });

  it('selects a user-assigned identity with CLOUD_CLIENT_ID', async () => {
    await start();
    const env = { IDENTITY_ENDPOINT: `${fake.httpUrl}${APP_PLATFORM_PATH}`, IDENTITY_HEADER, CLOUD_CLIENT_ID: USER_ASSIGNED };
    expect(await provider(env).getToken()).toEqual(issuedResult());
    expect(fake.requests[0]?.query).toEqual({ 'api-version': '2019-08-01', resource: 'https://ai.azure.com', client_id: USER_ASSIGNED });
  });

  it('fails, naming the answer, when the endpoint refuses the header', async () => {
    await start({ identityHeader: 'another-header' });
    const result = await provider({ IDENTITY_ENDPOINT: `${fake.httpUrl}${APP_PLATFORM_PATH}`, IDENTITY_HEADER }).getToken();
    expect(result).toMatchObject({ ok: false, error: { code: 'auth_failed' } });
    expect(result.ok ? [] : result.error.attempts.filter((a) => a.source === 'managed_identity')).toEqual([
      { source: 'managed_identity', message: stringMatching(/^failed: the managed identity endpoint answered 401: Unauthorized/) },
    ]);
  });

  it('uses the legacy MSI_ENDPOINT + MSI_SECRET protocol (api-version 2017-09-01, clientid)', async () => {
    await start();
    const env = { MSI_ENDPOINT: `${fake.httpUrl}${APP_PLATFORM_PATH}`, MSI_SECRET, CLOUD_CLIENT_ID: USER_ASSIGNED };
    expect(await provider(env).getToken()).toEqual(issuedResult());
    expect(fake.requests[0]).toMatchObject({
      query: { 'api-version': '2017-09-01', resource: 'https://ai.azure.com', clientid: USER_ASSIGNED },
      headers: { secret: MSI_SECRET },
    });
  });
});

describe('managed identity: instance metadata endpoint', () => {
  it('asks with Metadata: true and api-version 2018-02-01 for the system-assigned identity', async () => {
    await start();
    const result = await provider({ AZURE_POD_IDENTITY_AUTHORITY_HOST: fake.httpUrl }).getToken();
    expect(result).toEqual(issuedResult());
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ method: 'GET', path: IMDS_PATH, headers: { metadata: 'true' } });
    expect(fake.requests[0]?.query).toEqual({ 'api-version': '2018-02-01', resource: 'https://ai.azure.com' });
  });

  it.each([
    ['CLOUD_CLIENT_ID', { CLOUD_CLIENT_ID: USER_ASSIGNED, AZURE_CLIENT_ID: 'not-this-one' }, {}],
    ['AZURE_CLIENT_ID as the fallback', { AZURE_CLIENT_ID: USER_ASSIGNED }, {}],
    ['the config client id over the environment', { CLOUD_CLIENT_ID: 'not-this-one' }, { clientId: USER_ASSIGNED }],
  ])('selects a user-assigned identity with %s', async (_name, ids, options) => {
    await start();
    const result = await provider({ AZURE_POD_IDENTITY_AUTHORITY_HOST: fake.httpUrl, ...ids }, options).getToken();
    expect(result).toEqual(issuedResult());
    expect(fake.requests[0]?.query).toEqual({ 'api-version': '2018-02-01', resource: 'https://ai.azure.com', client_id: USER_ASSIGNED });
    expect(fake.issued[0]?.clientId).toBe(USER_ASSIGNED);
  });

  it('reports a wrong user-assigned client id as a failure', async () => {
    await start();
    const result = await provider({ AZURE_POD_IDENTITY_AUTHORITY_HOST: fake.httpUrl, CLOUD_CLIENT_ID: 'unknown-client' }).getToken();
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'auth_failed', message: stringContaining('managed_identity failed: the managed identity endpoint answered 400: Identity not found') },
    });
  });

  it('treats a machine without an identity as "not available", not as a failure', async () => {
    await start({ systemAssigned: false });
    const result = await provider({ AZURE_POD_IDENTITY_AUTHORITY_HOST: fake.httpUrl }).getToken();
    expect(result).toMatchObject({ ok: false, error: { code: 'no_credential' } });
    expect(result.ok ? undefined : result.error.attempts.find((a) => a.source === 'managed_identity')).toEqual({
      source: 'managed_identity',
      message: 'not available: the managed identity endpoint answered 400: Identity not found',
    });
  });
});

describe('probing the default metadata address', () => {
  const context = (signal = new AbortController().signal): SourceContext => ({
    scope: 'https://ai.azure.com/.default',
    resource: 'https://ai.azure.com',
    signal,
    remainingMs: () => 5000,
    now: Date.now,
  });

  it('probes without the Metadata header or a query, then asks for the token', async () => {
    await start();
    const source = managedIdentitySource({ kind: 'imds', host: fake.httpUrl, probe: true }, undefined);
    const outcome = await source.getToken(context());
    expect(outcome).toEqual({ kind: 'token', token: fake.issued[0]?.token, expiresOnMs: (fake.issued[0]?.expiresOnSeconds ?? 0) * 1000 });
    expect(fake.requests.map((r) => [r.path, r.query, r.headers.metadata])).toEqual([
      [IMDS_PATH, {}, undefined],
      [IMDS_PATH, { 'api-version': '2018-02-01', resource: 'https://ai.azure.com' }, 'true'],
    ]);
  });

  it('moves on quickly when nothing answers at the address', async () => {
    await start();
    fake.delayMs = 10_000; // accepts the connection, never answers
    const began = Date.now();
    expect(await probeImds(fake.httpUrl, new AbortController().signal, 200)).toBe(false);
    expect(Date.now() - began).toBeLessThan(8_000); // the fake would answer after 10 s: the 200 ms probe gave up long before
    const source = managedIdentitySource({ kind: 'imds', host: fake.httpUrl, probe: true }, undefined);
    expect(await source.getToken(context())).toEqual({
      kind: 'unavailable',
      reason: `not available: no instance metadata endpoint answered at ${fake.httpUrl}`,
    });
  });
});
