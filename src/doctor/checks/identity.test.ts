import { describe, expect, it } from 'vitest';
import type { IdentityError, TokenResult } from '../../providers/identity/types.js';
import { checkIdentityToken, checkIdentityVariables, IDENTITY_VARIABLES, presentIdentityVariables, resolveIdentityTimeout } from './identity.js';

const SCOPE = 'https://ai.azure.com/.default';
const TEN_SECONDS = 10_000;

describe('identity variables', () => {
  it('covers the CLOUD_* names, their AZURE_* fallbacks and the managed-identity ones', () => {
    expect(IDENTITY_VARIABLES).toEqual(expect.arrayContaining(['CLOUD_TENANT_ID', 'AZURE_TENANT_ID', 'CLOUD_CLIENT_SECRET', 'CLOUD_FEDERATED_TOKEN_FILE', 'CLOUD_AUTHORITY_HOST', 'IDENTITY_ENDPOINT', 'MSI_ENDPOINT']));
  });

  it('names what is set, never a value, and ignores blank values and unrelated CLOUD_* keys', () => {
    const env = { CLOUD_CLIENT_ID: 'client-1', CLOUD_CLIENT_SECRET: 'very-secret-value', AZURE_TENANT_ID: '  ', IDENTITY_ENDPOINT: 'http://x', CLOUD_HOSTED_API_KEY: 'k' };
    expect(presentIdentityVariables(env)).toEqual(['CLOUD_CLIENT_ID', 'CLOUD_CLIENT_SECRET', 'IDENTITY_ENDPOINT']);
    const check = checkIdentityVariables(env);
    expect(check).toEqual({ id: 'identity_variables', name: 'identity variables', status: 'ok', finding: 'CLOUD_CLIENT_ID, CLOUD_CLIENT_SECRET, IDENTITY_ENDPOINT are set' });
    expect(JSON.stringify(check)).not.toContain('very-secret-value');
    expect(checkIdentityVariables({ MSI_ENDPOINT: 'http://y' }).finding).toBe('MSI_ENDPOINT is set');
    expect(checkIdentityVariables({}).finding).toBe('none set (a managed identity on a VM and an az login need none)');
  });
});

const failure = (code: IdentityError['code'], message: string, attempts: IdentityError['attempts'] = []): TokenResult => ({
  ok: false,
  error: { code, message, attempts },
});

describe('checkIdentityToken', () => {
  it('names the source that won', () => {
    expect(checkIdentityToken({ ok: true, token: 'eyJsecret', expiresOnMs: 1, source: 'managed_identity' }, SCOPE, TEN_SECONDS)).toEqual({
      id: 'identity_token',
      name: 'identity token',
      status: 'ok',
      finding: `managed_identity returned a token for ${SCOPE}`,
    });
  });

  it('lists what every source said, in order, with a fix for the first that failed', () => {
    const result = failure('auth_failed', 'no credential source returned a token; managed_identity failed: could not reach http://127.0.0.1:9: ECONNREFUSED', [
      { source: 'environment', message: 'not configured: set CLOUD_TENANT_ID, CLOUD_CLIENT_ID and CLOUD_CLIENT_SECRET or CLOUD_CLIENT_CERTIFICATE_PATH' },
      { source: 'managed_identity', message: 'failed: could not reach http://127.0.0.1:9: ECONNREFUSED' },
      { source: 'broker', message: 'not available on this platform (the broker is Windows and WSL only)' },
    ]);
    expect(checkIdentityToken(result, SCOPE, TEN_SECONDS)).toEqual({
      id: 'identity_token',
      name: 'identity token',
      status: 'fail',
      finding: 'no credential source returned a token; managed_identity failed: could not reach http://127.0.0.1:9: ECONNREFUSED',
      fix: 'fix what managed_identity reports, or unset its variables so the chain moves on; a user-assigned managed identity needs CLOUD_CLIENT_ID set to its client id',
      details: [
        'environment: not configured: set CLOUD_TENANT_ID, CLOUD_CLIENT_ID and CLOUD_CLIENT_SECRET or CLOUD_CLIENT_CERTIFICATE_PATH',
        'managed_identity: failed: could not reach http://127.0.0.1:9: ECONNREFUSED',
        'broker: not available on this platform (the broker is Windows and WSL only)',
      ],
    });
  });

  it.each([
    ['no_credential', 'set CLOUD_TENANT_ID, CLOUD_CLIENT_ID and CLOUD_CLIENT_SECRET (iris config set CLOUD_CLIENT_SECRET <secret>), run on a managed identity (a user-assigned one needs CLOUD_CLIENT_ID), or sign in with az login'],
    ['timeout', 'a source did not answer within 10 s: check that its endpoint is reachable from this machine, or unset its variables'],
    ['invalid_config', 'correct the value named above; model.identity.scope can be deleted to use the default scope'],
  ] as const)('%s has its own fix', (code, fix) => {
    expect(checkIdentityToken(failure(code, 'm'), SCOPE, TEN_SECONDS)).toEqual({ id: 'identity_token', name: 'identity token', status: 'fail', finding: 'm', fix });
  });

  it('the timeout fix names the time the probe had', () => {
    expect(checkIdentityToken(failure('timeout', 'm'), SCOPE, 3_000).fix).toBe(
      'a source did not answer within 3 s: check that its endpoint is reachable from this machine, or unset its variables',
    );
  });
});

describe('resolveIdentityTimeout', () => {
  it("is the spec's 10 s when --identity-timeout is not given", () => {
    expect(resolveIdentityTimeout(undefined)).toEqual({ ok: true, ms: 10_000 });
  });

  it.each([
    ['1', 1_000],
    ['2', 2_000],
    [' 30 ', 30_000],
    ['120', 120_000],
  ] as const)('takes %j seconds as %d ms', (seconds, ms) => {
    expect(resolveIdentityTimeout(seconds)).toEqual({ ok: true, ms });
  });

  it.each(['0', '121', '-1', '1.5', '2.0', '1e1', '', 'ten'])('refuses %j', (seconds) => {
    expect(resolveIdentityTimeout(seconds)).toEqual({ ok: false, message: `--identity-timeout must be a whole number of seconds from 1 to 120 (got "${seconds}")` });
  });
});
