// The environment credential (client secret, certificate) and workload identity, through the real
// SDK and MSAL, over TLS to the fake authority. The fake's certificate is trusted through the
// provider's https agent; instance discovery is off because no public cloud vouches for 127.0.0.1.
import { createHash, createPublicKey, verify, constants as cryptoConstants, X509Certificate } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  closedPortUrl,
  createSelfSignedCertificate,
  startTokenEndpoint,
  type FakeTokenEndpoint,
  type SelfSignedCertificate,
} from '../../../test/fakes/token-endpoint.js';
import { createIdentityTokenProvider } from './provider.js';
import { anyNumber, stringContaining } from '../../../test/helpers/documents.js';

const TENANT = 'contoso-tenant';
const SECRET_CLIENT = 'secret-client-id';
const SECRET = 'sp-secret-value-7Qm2';
const CERT_CLIENT = 'cert-client-id';
const WORKLOAD_CLIENT = 'workload-client-id';
const SCOPE = 'https://ai.azure.com/.default';
const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

let dir: string;
let tls: SelfSignedCertificate;
let spCertificate: SelfSignedCertificate;
let agent: Agent;
let deadImds: string;
let fake: FakeTokenEndpoint;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'iris-sp-'));
  [tls, spCertificate, deadImds] = await Promise.all([
    createSelfSignedCertificate(dir, 'tls'),
    createSelfSignedCertificate(dir, 'service-principal'),
    closedPortUrl(),
  ]);
  agent = new Agent({ ca: tls.cert });
  vi.stubEnv('PATH', dir); // the SDK's PowerShell source looks on process.env's PATH
});
afterAll(async () => {
  vi.unstubAllEnvs();
  agent.destroy();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  fake = await startTokenEndpoint({
    tls,
    clientSecrets: { [SECRET_CLIENT]: SECRET },
    assertionClients: [CERT_CLIENT, WORKLOAD_CLIENT],
    echoCredentialsInErrors: true,
  });
});
afterEach(() => fake.close());

function provider(env: Record<string, string>) {
  return createIdentityTokenProvider({
    env: { PATH: dir, AZURE_POD_IDENTITY_AUTHORITY_HOST: deadImds, CLOUD_AUTHORITY_HOST: fake.httpsUrl ?? '', ...env },
    platform: 'linux',
    httpsAgent: agent,
    disableInstanceDiscovery: true,
    timeoutMs: 10_000,
  });
}

function expectIssued(result: Awaited<ReturnType<ReturnType<typeof provider>['getToken']>>, source: string) {
  const issued = fake.issued[0];
  expect(fake.issued).toHaveLength(1);
  expect(result).toEqual({ ok: true, token: issued?.token, expiresOnMs: anyNumber(), source });
  // MSAL computes the expiry from expires_in on its own clock: within a few seconds of the fake's.
  expect(Math.abs((result.ok ? result.expiresOnMs : 0) - (issued?.expiresOnSeconds ?? 0) * 1000)).toBeLessThan(5000);
}

function decodeJwtPart(part: string | undefined): Record<string, unknown> {
  return JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

describe('environment credential', () => {
  it('sends the client secret to the tenant token endpoint of CLOUD_AUTHORITY_HOST', async () => {
    const result = await provider({ CLOUD_TENANT_ID: TENANT, CLOUD_CLIENT_ID: SECRET_CLIENT, CLOUD_CLIENT_SECRET: SECRET }).getToken();
    expectIssued(result, 'environment');
    // MSAL reads the tenant's OpenID metadata first, then posts to the token endpoint it names.
    expect(fake.requests.map((r) => `${r.listener} ${r.method} ${r.path}`)).toEqual([
      `https GET /${TENANT}/v2.0/.well-known/openid-configuration`,
      `https POST /${TENANT}/oauth2/v2.0/token`,
    ]);
    expect(fake.tokenRequests()[0]?.form).toMatchObject({
      grant_type: 'client_credentials',
      client_id: SECRET_CLIENT,
      client_secret: SECRET,
      scope: SCOPE,
    });
    expect(fake.tokenRequests()[0]?.form.client_assertion).toBeUndefined();
  });

  it('reads the CLOUD_* names over the AZURE_* names on the wire', async () => {
    const result = await provider({
      CLOUD_TENANT_ID: TENANT, AZURE_TENANT_ID: 'azure-tenant',
      CLOUD_CLIENT_ID: SECRET_CLIENT, AZURE_CLIENT_ID: 'azure-client',
      CLOUD_CLIENT_SECRET: SECRET, AZURE_CLIENT_SECRET: 'azure-secret-value',
      AZURE_AUTHORITY_HOST: 'https://login.invalid',
    }).getToken();
    expectIssued(result, 'environment');
    expect(fake.tokenRequests()[0]).toMatchObject({
      path: `/${TENANT}/oauth2/v2.0/token`,
      form: { client_id: SECRET_CLIENT, client_secret: SECRET },
    });
  });

  it('works from the AZURE_* names alone', async () => {
    const result = await provider({ AZURE_TENANT_ID: TENANT, AZURE_CLIENT_ID: SECRET_CLIENT, AZURE_CLIENT_SECRET: SECRET }).getToken();
    expectIssued(result, 'environment');
    expect(fake.tokenRequests()[0]?.form).toMatchObject({ client_id: SECRET_CLIENT, client_secret: SECRET });
  });

  it('signs a client assertion with the certificate at CLOUD_CLIENT_CERTIFICATE_PATH', async () => {
    const result = await provider({
      CLOUD_TENANT_ID: TENANT,
      CLOUD_CLIENT_ID: CERT_CLIENT,
      CLOUD_CLIENT_CERTIFICATE_PATH: spCertificate.pemPath,
    }).getToken();
    expectIssued(result, 'environment');
    const form = fake.tokenRequests()[0]?.form ?? {};
    expect(form).toMatchObject({ grant_type: 'client_credentials', client_id: CERT_CLIENT, scope: SCOPE, client_assertion_type: JWT_BEARER });
    expect(form.client_secret).toBeUndefined();
    const [header, payload, signature] = (form.client_assertion ?? '').split('.');
    const certificate = new X509Certificate(spCertificate.cert);
    expect(decodeJwtPart(header)).toMatchObject({
      alg: 'PS256',
      'x5t#S256': createHash('sha256').update(certificate.raw).digest('base64url'),
    });
    expect(decodeJwtPart(payload)).toMatchObject({
      iss: CERT_CLIENT,
      sub: CERT_CLIENT,
      aud: `${fake.httpsUrl}/${TENANT}/oauth2/v2.0/token`,
    });
    const signedWithTheCertificate = verify(
      'sha256',
      Buffer.from(`${header}.${payload}`),
      { key: createPublicKey(spCertificate.cert), padding: cryptoConstants.RSA_PKCS1_PSS_PADDING, saltLength: 32 },
      Buffer.from(signature ?? '', 'base64url'),
    );
    expect(signedWithTheCertificate).toBe(true);
  });
});

describe('workload identity', () => {
  it('sends the federated token file as the client assertion', async () => {
    const federated = `${Buffer.from('{"alg":"RS256"}').toString('base64url')}.${Buffer.from('{"sub":"system:serviceaccount:iris"}').toString('base64url')}.c2lnbmF0dXJl`;
    const tokenFile = join(dir, 'federated-token');
    await writeFile(tokenFile, `${federated}\n`);
    const iris = provider({ CLOUD_TENANT_ID: TENANT, CLOUD_CLIENT_ID: WORKLOAD_CLIENT, CLOUD_FEDERATED_TOKEN_FILE: tokenFile });
    const result = await iris.getToken();
    expectIssued(result, 'workload_identity');
    expect(fake.tokenRequests()).toHaveLength(1);
    expect(fake.tokenRequests()[0]).toMatchObject({
      path: `/${TENANT}/oauth2/v2.0/token`,
      form: {
        grant_type: 'client_credentials',
        client_id: WORKLOAD_CLIENT,
        scope: SCOPE,
        client_assertion_type: JWT_BEARER,
        client_assertion: federated,
      },
    });
  });

  it('is reported as the reason the environment credential was passed over', async () => {
    const tokenFile = join(dir, 'other-federated-token');
    await writeFile(tokenFile, 'federated-token-content');
    const iris = provider({ CLOUD_TENANT_ID: TENANT, CLOUD_CLIENT_ID: 'unknown-workload', CLOUD_FEDERATED_TOKEN_FILE: tokenFile });
    const result = await iris.getToken();
    expect(result.ok ? [] : result.error.attempts.slice(0, 2)).toEqual([
      { source: 'environment', message: 'not configured: no secret or certificate (the federated token file is used by workload identity)' },
      { source: 'workload_identity', message: stringContaining('failed: ') },
    ]);
  });
});
