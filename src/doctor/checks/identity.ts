// Identity mode (`model.auth_mode: identity_token` on cloud-hosted): which of the chain's variables
// are set (names only: the spec lets the doctor read them for exactly this), and what the 10 s
// token probe found — the source that won, or what each source said. Pure.
import type { Env } from '../../config/home.js';
import { ENV_NAMES } from '../../providers/identity/settings.js';
import type { TokenResult } from '../../providers/identity/types.js';
import { fail, ok, plural, type CheckResult } from '../types.js';

/** The spec's preflight limit for the token probe: the default of `iris doctor --identity-timeout`. */
export const IDENTITY_PROBE_TIMEOUT_MS = 10_000;
const MAX_IDENTITY_TIMEOUT_S = 120;

/**
 * `--identity-timeout <s>` as the probe's time limit: absent means the 10 s default (this is the
 * one place that picks it); otherwise whole seconds from 1 to 120.
 */
export function resolveIdentityTimeout(seconds: string | undefined): { ok: true; ms: number } | { ok: false; message: string } {
  if (seconds === undefined) return { ok: true, ms: IDENTITY_PROBE_TIMEOUT_MS };
  const n = /^\d+$/.test(seconds.trim()) ? Number(seconds) : Number.NaN;
  if (!(n >= 1 && n <= MAX_IDENTITY_TIMEOUT_S)) {
    return { ok: false, message: `--identity-timeout must be a whole number of seconds from 1 to ${MAX_IDENTITY_TIMEOUT_S} (got "${seconds}")` };
  }
  return { ok: true, ms: n * 1000 };
}

/** Every variable the chain reads: the CLOUD_* names, their AZURE_* fallbacks, the managed-identity ones. */
export const IDENTITY_VARIABLES: readonly string[] = [
  ...Object.values(ENV_NAMES).flat(),
  'IDENTITY_ENDPOINT',
  'IDENTITY_HEADER',
  'MSI_ENDPOINT',
  'MSI_SECRET',
  'IMDS_ENDPOINT',
  'AZURE_POD_IDENTITY_AUTHORITY_HOST',
];

export function presentIdentityVariables(env: Env): string[] {
  return IDENTITY_VARIABLES.filter((name) => (env[name] ?? '').trim() !== '');
}

export function checkIdentityVariables(env: Env): CheckResult {
  const present = presentIdentityVariables(env);
  const finding =
    present.length === 0
      ? 'none set (a managed identity on a VM and an az login need none)'
      : `${present.join(', ')} ${plural(present.length, 'is', 'are')} set`;
  return ok('identity_variables', 'identity variables', finding);
}

const NO_CREDENTIAL_FIX =
  'set CLOUD_TENANT_ID, CLOUD_CLIENT_ID and CLOUD_CLIENT_SECRET (iris config set CLOUD_CLIENT_SECRET <secret>), ' +
  'run on a managed identity (a user-assigned one needs CLOUD_CLIENT_ID), or sign in with az login';

function tokenFix(error: Extract<TokenResult, { ok: false }>['error'], timeoutMs: number): string {
  switch (error.code) {
    case 'no_credential':
      return NO_CREDENTIAL_FIX;
    case 'auth_failed': {
      const failed = error.attempts.find((a) => a.message.startsWith('failed:'));
      return (
        `fix what ${failed?.source ?? 'the failing source'} reports, or unset its variables so the chain moves on; ` +
        'a user-assigned managed identity needs CLOUD_CLIENT_ID set to its client id'
      );
    }
    case 'timeout':
      return `a source did not answer within ${timeoutMs / 1000} s: check that its endpoint is reachable from this machine, or unset its variables`;
    case 'invalid_config':
      return 'correct the value named above; model.identity.scope can be deleted to use the default scope';
    case 'cancelled':
      return 'run iris doctor again';
  }
}

/** `timeoutMs`: how long the probe was given (see resolveIdentityTimeout). */
export function checkIdentityToken(result: TokenResult, scope: string, timeoutMs: number): CheckResult {
  const id = 'identity_token';
  const name = 'identity token';
  if (result.ok) return ok(id, name, `${result.source} returned a token for ${scope}`);
  const details = result.error.attempts.map((a) => `${a.source}: ${a.message}`);
  return fail(id, name, result.error.message, tokenFix(result.error, timeoutMs), details);
}
