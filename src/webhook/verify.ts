// Is a webhook request signed by someone who knows the route's secret? HMAC-SHA256 of the raw body
// (GitHub and friends) or a plain token (GitLab-style hosts), per DECISIONS.md step 5, compared
// with the project's one constant-time comparison (runtime/safe-equal.ts).
import { Buffer } from 'node:buffer';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { INSECURE_NO_AUTH } from '../config/secrets-policy.js';
import { safeEqual } from '../runtime/safe-equal.js';
import { headerValue, type HeaderBag } from './headers.js';

export type VerifyScheme = 'hmac' | 'token' | 'insecure';

export type VerifyResult =
  | { readonly ok: true; readonly scheme: VerifyScheme }
  | { readonly ok: false; readonly reason: 'missing' | 'mismatch' };

const SIGNATURE = /^sha256=([0-9a-fA-F]{64})$/;
const TOKEN_HEADERS = ['x-alt-forge-token', 'x-gitlab-token'] as const;

/** The `X-Hub-Signature-256` value for a body: `sha256=<hex HMAC-SHA256>`. */
export function signBody(rawBody: Buffer | string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/**
 * A signature header, when present, alone decides; else a token header alone decides. Neither is
 * `missing`. An empty secret never verifies: it would make any token of '' (or any HMAC keyed
 * with '') pass, and the caller is meant to have refused such a route already.
 */
export function verifyRequest(headers: HeaderBag, rawBody: Buffer, secret: string): VerifyResult {
  if (secret === INSECURE_NO_AUTH) return { ok: true, scheme: 'insecure' };
  if (secret === '') return { ok: false, reason: 'mismatch' };

  const signature = headerValue(headers, 'x-hub-signature-256');
  if (signature !== undefined) {
    const hex = SIGNATURE.exec(signature)?.[1];
    if (hex === undefined) return { ok: false, reason: 'mismatch' };
    const expected = createHmac('sha256', secret).update(rawBody).digest();
    // Two 32-byte digests: equal lengths by construction, so timingSafeEqual needs no hashing first.
    return timingSafeEqual(Buffer.from(hex, 'hex'), expected)
      ? { ok: true, scheme: 'hmac' }
      : { ok: false, reason: 'mismatch' };
  }

  const token = headerValue(headers, TOKEN_HEADERS[0]) ?? headerValue(headers, TOKEN_HEADERS[1]);
  if (token === undefined) return { ok: false, reason: 'missing' };
  // HTTP strips a header value's surrounding spaces, so a secret with them could never match
  // as sent: compare against the trimmed secret, and a blank one verifies nothing.
  const expected = secret.trim();
  return expected !== '' && safeEqual(token, expected)
    ? { ok: true, scheme: 'token' }
    : { ok: false, reason: 'mismatch' };
}
