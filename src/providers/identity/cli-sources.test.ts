// The cloud CLI and developer CLI sources against stand-in `az` / `azd` scripts on the PATH of the
// environment map the provider is given (POSIX shell scripts, so not on Windows).
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { closedPortUrl, writeFakeCli } from '../../../test/fakes/token-endpoint.js';
import { createIdentityTokenProvider } from './provider.js';

const TOKEN = 'eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.eyJhdWQiOiJodHRwczovL2FpLmF6dXJlLmNvbSJ9.c2lnbmF0dXJlLWZyb20tYXo';
const EXPIRES_ON = 1_900_000_000;
const AZ_ARGS = ['account', 'get-access-token', '--output', 'json', '--resource', 'https://ai.azure.com'];
const AZD_ARGS = ['auth', 'token', '--output', 'json', '--no-prompt', '--scope', 'https://ai.azure.com/.default'];

let root: string;
let bin: string;
let deadImds: string;
let runs = 0;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'iris-cli-'));
  deadImds = await closedPortUrl();
  vi.stubEnv('PATH', root); // the SDK's PowerShell source looks on process.env's PATH
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(root, { recursive: true, force: true });
});
beforeEach(async () => {
  runs += 1;
  bin = join(root, `bin-${runs}`);
  await mkdir(bin);
});

function provider(env: Record<string, string> = {}, options: { tenantId?: string } = {}) {
  return createIdentityTokenProvider({
    env: { PATH: bin, AZURE_POD_IDENTITY_AUTHORITY_HOST: deadImds, ...env },
    platform: 'linux',
    timeoutMs: 10_000,
    ...options,
  });
}

const attemptsOf = (result: Awaited<ReturnType<ReturnType<typeof provider>['getToken']>>) => (result.ok ? [] : result.error.attempts);

describe.skipIf(process.platform === 'win32')('cloud CLI (az)', () => {
  it('runs `az account get-access-token` for the resource and reads the token and expires_on', async () => {
    const az = await writeFakeCli(bin, 'az', {
      stdout: JSON.stringify({ accessToken: TOKEN, expiresOn: '2030-01-01 00:00:00.000000', expires_on: EXPIRES_ON, subscription: 'sub', tenant: 't', tokenType: 'Bearer' }),
    });
    expect(await provider().getToken()).toEqual({ ok: true, token: TOKEN, expiresOnMs: EXPIRES_ON * 1000, source: 'cloud_cli' });
    expect(await az.runs()).toEqual([AZ_ARGS]);
  });

  it('passes the tenant, the config tenant over CLOUD_TENANT_ID', async () => {
    const az = await writeFakeCli(bin, 'az', { stdout: JSON.stringify({ accessToken: TOKEN, expires_on: EXPIRES_ON }) });
    await provider({ CLOUD_TENANT_ID: 'env-tenant' }).getToken();
    await provider({ CLOUD_TENANT_ID: 'env-tenant' }, { tenantId: 'config-tenant' }).getToken();
    expect(await az.runs()).toEqual([
      [...AZ_ARGS, '--tenant', 'env-tenant'],
      [...AZ_ARGS, '--tenant', 'config-tenant'],
    ]);
  });

  it('reads the local-time expiresOn of older az versions', async () => {
    await writeFakeCli(bin, 'az', { stdout: JSON.stringify({ accessToken: TOKEN, expiresOn: '2030-01-01 08:30:00.000000' }) });
    expect(await provider().getToken()).toMatchObject({ ok: true, expiresOnMs: new Date(2030, 0, 1, 8, 30, 0).getTime() });
  });

  it('falls through to the developer CLI when az is logged out', async () => {
    const az = await writeFakeCli(bin, 'az', { stderr: "ERROR: Please run 'az login' to setup account.", exitCode: 1 });
    const azd = await writeFakeCli(bin, 'azd', { stdout: JSON.stringify({ token: TOKEN, expiresOn: '2030-01-01T00:00:00Z' }) });
    expect(await provider().getToken()).toEqual({ ok: true, token: TOKEN, expiresOnMs: Date.UTC(2030, 0, 1), source: 'developer_cli' });
    expect(await az.runs()).toEqual([AZ_ARGS]);
    expect(await azd.runs()).toEqual([AZD_ARGS]);
  });

  it('records "not logged in" and "not installed" without calling them failures', async () => {
    await writeFakeCli(bin, 'az', { stderr: "ERROR: Please run 'az login' to setup account.", exitCode: 1 });
    await writeFakeCli(bin, 'azd', { stderr: 'ERROR: not logged in, run `azd auth login` to login', exitCode: 1 });
    const result = await provider().getToken();
    expect(result).toMatchObject({ ok: false, error: { code: 'no_credential' } });
    expect(attemptsOf(result).filter((a) => a.source.endsWith('_cli'))).toEqual([
      { source: 'cloud_cli', message: 'not logged in: run `az login`' },
      { source: 'developer_cli', message: 'not logged in: run `azd auth login`' },
    ]);
    const missing = await provider({ PATH: join(root, 'no-such-dir') }).getToken();
    expect(attemptsOf(missing).filter((a) => a.source.endsWith('_cli'))).toEqual([
      { source: 'cloud_cli', message: 'not installed: az was not found on PATH' },
      { source: 'developer_cli', message: 'not installed: azd was not found on PATH' },
    ]);
  });

  it('reports a real az error (consent for the scope) as a failure with its ERROR line', async () => {
    await writeFakeCli(bin, 'az', {
      stderr: 'WARNING: something\nERROR: AADSTS65001: consent required. Run `az login --scope https://ai.azure.com/.default`',
      exitCode: 1,
    });
    const result = await provider().getToken();
    expect(result).toMatchObject({ ok: false, error: { code: 'auth_failed' } });
    expect(attemptsOf(result).find((a) => a.source === 'cloud_cli')).toEqual({
      source: 'cloud_cli',
      message: 'failed: az failed: ERROR: AADSTS65001: consent required. Run `az login --scope https://ai.azure.com/.default`',
    });
  });

  it('never quotes output that is not the expected JSON, since it may hold the token', async () => {
    await writeFakeCli(bin, 'az', { stdout: `{"accessToken": "${TOKEN}", oops` });
    const result = await provider().getToken();
    expect(attemptsOf(result).find((a) => a.source === 'cloud_cli')).toEqual({
      source: 'cloud_cli',
      message: 'failed: az printed something other than the expected JSON',
    });
    expect(JSON.stringify(result)).not.toContain(TOKEN.slice(0, 20));
  });
});
