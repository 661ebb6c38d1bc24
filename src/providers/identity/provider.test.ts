// The chain as a whole: order and fall-through, what is reported, caching and coalescing,
// timeout and cancellation, and that no secret reaches an error message.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  APP_PLATFORM_PATH,
  closedPortUrl,
  createSelfSignedCertificate,
  IMDS_PATH,
  startTokenEndpoint,
  writeFakeCli,
  type FakeTokenEndpoint,
  type SelfSignedCertificate,
} from '../../../test/fakes/token-endpoint.js';
import { brokerSource } from './chain.js';
import { createIdentityTokenProvider, TOKEN_REFRESH_MARGIN_MS, type IdentityProviderOptions } from './provider.js';
import type { TokenResult } from './types.js';
import { anyNumber, stringContaining, stringMatching } from '../../../test/helpers/documents.js';

const TENANT = 'chain-tenant';
const CLIENT = 'chain-client';
const SECRET = 'right-secret-Zx81qP';
const WRONG_SECRET = 'wrong-secret-Hq27vN';
const IDENTITY_HEADER = 'platform-header-3kd9';

let dir: string;
let tls: SelfSignedCertificate;
let agent: Agent;
let deadImds: string;
let fake: FakeTokenEndpoint;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'iris-chain-'));
  [tls, deadImds] = await Promise.all([createSelfSignedCertificate(dir, 'tls'), closedPortUrl()]);
  agent = new Agent({ ca: tls.cert });
  vi.stubEnv('PATH', dir); // the SDK's PowerShell source looks on process.env's PATH
});
afterAll(async () => {
  vi.unstubAllEnvs();
  agent.destroy();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  fake = await startTokenEndpoint({ tls, clientSecrets: { [CLIENT]: SECRET }, identityHeader: 'the-right-header', echoCredentialsInErrors: true });
});
afterEach(() => fake.close());

function provider(env: Record<string, string>, options: Partial<IdentityProviderOptions> = {}) {
  return createIdentityTokenProvider({
    env: { PATH: dir, AZURE_POD_IDENTITY_AUTHORITY_HOST: deadImds, CLOUD_AUTHORITY_HOST: fake.httpsUrl ?? '', ...env },
    platform: 'linux',
    httpsAgent: agent,
    disableInstanceDiscovery: true,
    timeoutMs: 10_000,
    ...options,
  });
}

const servicePrincipal = (secret: string) => ({ CLOUD_TENANT_ID: TENANT, CLOUD_CLIENT_ID: CLIENT, CLOUD_CLIENT_SECRET: secret });
const imds = () => ({ AZURE_POD_IDENTITY_AUTHORITY_HOST: fake.httpUrl });
const imdsRequests = () => fake.requests.filter((r) => r.path === IMDS_PATH);
const errorOf = (result: TokenResult) => (result.ok ? undefined : result.error);

describe('chain order', () => {
  it('stops at the first source that returns a token', async () => {
    const bin = join(dir, 'bin-order');
    await mkdir(bin);
    const az = await writeFakeCli(bin, 'az', { stdout: '{"accessToken":"az-token","expires_on":1900000000}' });
    const result = await provider({ ...servicePrincipal(SECRET), ...imds(), PATH: bin }).getToken();
    expect(result).toMatchObject({ ok: true, source: 'environment', token: fake.issued[0]?.token });
    expect(imdsRequests()).toEqual([]);
    expect(await az.runs()).toEqual([]);
  });

  it('falls through a failing source to the next, in order', async () => {
    await fake.close();
    // CLOUD_CLIENT_ID serves both: the service principal, and the user-assigned identity it selects.
    fake = await startTokenEndpoint({ tls, clientSecrets: { [CLIENT]: SECRET }, systemAssigned: false, userAssignedClientIds: [CLIENT] });
    const result = await provider({ ...servicePrincipal(WRONG_SECRET), ...imds() }).getToken();
    expect(result).toMatchObject({ ok: true, source: 'managed_identity', token: fake.issued[0]?.token });
    expect(fake.tokenRequests().map((r) => `${r.method} ${r.path}`)).toEqual([`POST /${TENANT}/oauth2/v2.0/token`, `GET ${IMDS_PATH}`]);
    expect(imdsRequests()[0]?.query.client_id).toBe(CLIENT);
  });

  it('reports every source, in order, when none returns a token', async () => {
    const result = await provider(servicePrincipal(WRONG_SECRET)).getToken();
    expect(errorOf(result)).toEqual({
      code: 'auth_failed',
      message: stringMatching(/^no credential source returned a token; environment failed: .*AADSTS7000215: Invalid client secret provided/),
      attempts: [
        { source: 'environment', message: stringMatching(/^failed: .*invalid_client/) },
        { source: 'workload_identity', message: 'not configured: CLOUD_FEDERATED_TOKEN_FILE is not set' },
        { source: 'managed_identity', message: `not available: could not reach ${deadImds}: ECONNREFUSED` },
        { source: 'editor', message: stringMatching(/^not available: Visual Studio Code Authentication is not available/) },
        { source: 'cloud_cli', message: 'not installed: az was not found on PATH' },
        { source: 'developer_cli', message: 'not installed: azd was not found on PATH' },
        { source: 'powershell', message: stringMatching(/^not available: .*PowerShell/) },
        { source: 'broker', message: 'not available on this platform (the broker is Windows and WSL only)' },
      ],
    });
  });

  it('says no credential was found when nothing is configured', async () => {
    const error = errorOf(await provider({}).getToken());
    expect(error?.code).toBe('no_credential');
    expect(error?.message).toMatch(/^no identity credential found: set CLOUD_TENANT_ID, CLOUD_CLIENT_ID and CLOUD_CLIENT_SECRET/);
    expect(error?.attempts[0]).toEqual({
      source: 'environment',
      message: 'not configured: set CLOUD_TENANT_ID, CLOUD_CLIENT_ID and CLOUD_CLIENT_SECRET or CLOUD_CLIENT_CERTIFICATE_PATH',
    });
    expect(error?.attempts).toHaveLength(8);
  });

  it.each([
    [{ CLOUD_CLIENT_SECRET: SECRET }, 'environment', 'not configured: a client secret is set but CLOUD_TENANT_ID and CLOUD_CLIENT_ID are not set'],
    [{ AZURE_CLIENT_CERTIFICATE_PATH: '/x.pem', CLOUD_TENANT_ID: TENANT }, 'environment', 'not configured: a client certificate path is set but CLOUD_CLIENT_ID is not set'],
    [{ CLOUD_FEDERATED_TOKEN_FILE: '/token', CLOUD_CLIENT_ID: CLIENT }, 'workload_identity', 'not configured: a federated token file is set but CLOUD_TENANT_ID is not set'],
  ])('names what is missing from a half-configured source: %j', async (env, source, message) => {
    const result = await provider(env).getToken();
    expect(errorOf(result)?.attempts.find((a) => a.source === source)).toEqual({ source, message });
    expect(fake.tokenRequests()).toEqual([]);
  });

  it('refuses an unusable scope before trying any source', async () => {
    const result = await provider(imds(), { scope: 'https://ai.azure.com/.default&x=1' }).getToken();
    expect(errorOf(result)).toEqual({ code: 'invalid_config', message: stringContaining('model.identity.scope'), attempts: [] });
    expect(fake.requests).toEqual([]);
  });

  it.each([
    ['win32', {}, 'not available: the broker needs the optional @azure/identity-broker plugin, which is not installed'],
    ['linux', { WSL_DISTRO_NAME: 'Ubuntu' }, 'not available: the broker needs the optional @azure/identity-broker plugin, which is not installed'],
    ['darwin', {}, 'not available on this platform (the broker is Windows and WSL only)'],
  ] as const)('the broker on %s %j', async (platform, env, reason) => {
    expect(await brokerSource(platform, env).getToken({} as never)).toEqual({ kind: 'unavailable', reason });
  });
});

describe('cache', () => {
  it('reuses a token until 2 minutes before it expires, then fetches a new one', async () => {
    let clock = Date.now();
    const iris = provider(imds(), { now: () => clock });
    const first = await iris.getToken();
    const expiresOnMs = (fake.issued[0]?.expiresOnSeconds ?? 0) * 1000;
    expect(first).toEqual({ ok: true, token: fake.issued[0]?.token, expiresOnMs, source: 'managed_identity' });
    clock = expiresOnMs - TOKEN_REFRESH_MARGIN_MS - 1;
    expect(await iris.getToken()).toEqual(first);
    expect(imdsRequests()).toHaveLength(1);
    clock = expiresOnMs - TOKEN_REFRESH_MARGIN_MS;
    const second = await iris.getToken();
    expect(imdsRequests()).toHaveLength(2);
    expect(second).toMatchObject({ ok: true, token: fake.issued[1]?.token });
    expect(second.ok && second.token).not.toBe(first.ok && first.token);
  });

  it('fetches again after invalidate (the upstream rejected the token)', async () => {
    const iris = provider(imds());
    const first = await iris.getToken();
    iris.invalidate();
    const second = await iris.getToken();
    expect(imdsRequests()).toHaveLength(2);
    expect(second).toMatchObject({ ok: true, token: fake.issued[1]?.token });
    expect(second.ok && second.token).not.toBe(first.ok && first.token);
  });

  it('does not cache a failure', async () => {
    const iris = provider(imds());
    fake.outage = { status: 500, body: { error: 'server_error', error_description: 'try again' } };
    expect(errorOf(await iris.getToken())?.code).toBe('auth_failed');
    fake.outage = undefined;
    expect(await iris.getToken()).toMatchObject({ ok: true, token: fake.issued[0]?.token });
    expect(imdsRequests()).toHaveLength(2);
  });

  it('shares one request among concurrent callers', async () => {
    const iris = provider(imds());
    fake.delayMs = 150;
    const results = await Promise.all(Array.from({ length: 5 }, () => iris.getToken()));
    expect(imdsRequests()).toHaveLength(1);
    for (const result of results) expect(result).toEqual({ ok: true, token: fake.issued[0]?.token, expiresOnMs: anyNumber(), source: 'managed_identity' });
    await iris.getToken();
    expect(imdsRequests()).toHaveLength(1);
  });
});

// The fakes answer after 5 s: finishing well before that proves the timeout (or the abort) cut
// the wait, with room for a loaded machine (the exact timings belong to bench/, not here).
const BEFORE_THE_FAKE_ANSWERS_MS = 4_500;

describe('timeout and cancellation', () => {
  it('gives up at the overall timeout, naming the source it was waiting on', async () => {
    fake.delayMs = 5000;
    const began = Date.now();
    const result = await provider(imds(), { timeoutMs: 300 }).getToken();
    expect(Date.now() - began).toBeLessThan(BEFORE_THE_FAKE_ANSWERS_MS);
    expect(errorOf(result)).toEqual({
      code: 'timeout',
      message: 'getting an identity token timed out after 300 ms (while trying managed_identity)',
      attempts: [
        { source: 'environment', message: stringContaining('not configured') },
        { source: 'workload_identity', message: stringContaining('not configured') },
        { source: 'managed_identity', message: 'timed out' },
      ],
    });
  });

  it('times out an SDK source that cannot be cancelled from outside', async () => {
    fake.delayMs = 5000;
    const began = Date.now();
    const result = await provider(servicePrincipal(SECRET), { timeoutMs: 400 }).getToken();
    expect(Date.now() - began).toBeLessThan(BEFORE_THE_FAKE_ANSWERS_MS);
    expect(errorOf(result)).toMatchObject({ code: 'timeout', attempts: [{ source: 'environment', message: 'timed out' }] });
  });

  it.skipIf(process.platform === 'win32')('stops a CLI that hangs, at the overall timeout', async () => {
    const bin = join(dir, 'bin-hang');
    await mkdir(bin);
    const az = await writeFakeCli(bin, 'az', { hang: true, stdout: '{"accessToken":"late","expires_on":1900000000}' });
    const began = Date.now();
    const result = await provider({ PATH: bin }, { timeoutMs: 600 }).getToken();
    expect(Date.now() - began).toBeLessThan(BEFORE_THE_FAKE_ANSWERS_MS);
    expect(errorOf(result)).toMatchObject({ code: 'timeout', message: stringContaining('(while trying cloud_cli)') });
    expect(errorOf(result)?.attempts.at(-1)).toEqual({ source: 'cloud_cli', message: 'timed out' });
    expect(await az.runs()).toEqual([['account', 'get-access-token', '--output', 'json', '--resource', 'https://ai.azure.com']]);
  });

  it('returns "cancelled" at once when the caller aborts', async () => {
    fake.delayMs = 5000;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const began = Date.now();
    const result = await provider(imds()).getToken(controller.signal);
    expect(Date.now() - began).toBeLessThan(BEFORE_THE_FAKE_ANSWERS_MS);
    expect(errorOf(result)?.code).toBe('cancelled');
  });

  it('does nothing for a signal that is already aborted', async () => {
    const result = await provider(imds()).getToken(AbortSignal.abort());
    expect(errorOf(result)?.code).toBe('cancelled');
    expect(fake.requests).toEqual([]);
  });

  it('keeps a shared fetch going for the callers that still wait', async () => {
    fake.delayMs = 200;
    const iris = provider(imds());
    const controller = new AbortController();
    const leaving = iris.getToken(controller.signal);
    const staying = iris.getToken();
    controller.abort();
    expect(errorOf(await leaving)?.code).toBe('cancelled');
    expect(await staying).toMatchObject({ ok: true, token: fake.issued[0]?.token });
    expect(imdsRequests()).toHaveLength(1);
  });

  it('stops the shared fetch when every caller has left, and starts afresh for the next', async () => {
    fake.delayMs = 300;
    const iris = provider(imds());
    const controller = new AbortController();
    const leaving = iris.getToken(controller.signal);
    await vi.waitFor(() => expect(imdsRequests()).toHaveLength(1));
    controller.abort();
    expect(errorOf(await leaving)?.code).toBe('cancelled');
    expect(await iris.getToken()).toMatchObject({ ok: true, token: fake.issued.at(-1)?.token });
    expect(imdsRequests()).toHaveLength(2);
    expect(fake.issued).toHaveLength(1); // the first answer was never written: its client had hung up
  });
});

describe('secrets', () => {
  it('keeps secrets and tokens out of every message, even when the upstream repeats them', async () => {
    const result = await provider({
      ...servicePrincipal(WRONG_SECRET),
      IDENTITY_ENDPOINT: `${fake.httpUrl}${APP_PLATFORM_PATH}`,
      IDENTITY_HEADER,
    }).getToken();
    const error = errorOf(result);
    expect(error?.code).toBe('auth_failed');
    const everything = JSON.stringify(error);
    expect(everything).not.toContain(WRONG_SECRET);
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(IDENTITY_HEADER);
    // The upstream did repeat them: the messages show where they were cut out.
    expect(error?.attempts.find((a) => a.source === 'environment')?.message).toContain("(received '[redacted]')");
    expect(error?.attempts.find((a) => a.source === 'managed_identity')?.message).toContain("(received '[redacted]')");
  });

  it('keeps a federated assertion the upstream echoes out of the message', async () => {
    const assertion = `${Buffer.from('{"alg":"RS256","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"sub":"system:serviceaccount:default:iris"}').toString('base64url')}.c2lnbmF0dXJlLWJ5dGVz`;
    const tokenFile = join(dir, 'echoed-federated-token');
    await writeFile(tokenFile, assertion);
    const result = await provider({ CLOUD_TENANT_ID: TENANT, CLOUD_CLIENT_ID: 'not-federated', CLOUD_FEDERATED_TOKEN_FILE: tokenFile }).getToken();
    expect(fake.tokenRequests()[0]?.form.client_assertion).toBe(assertion);
    expect(JSON.stringify(result)).not.toContain(assertion.split('.')[1]);
    expect(errorOf(result)?.attempts.find((a) => a.source === 'workload_identity')?.message).toContain('AADSTS700213');
  });
});
