// Is an inbound request signed by Twilio? Twilio's scheme (docs: usage/security#validating-requests,
// and twilio-node's src/webhooks/webhooks.ts): the full URL it posted to, then every POST parameter
// as name followed by value with no separators, parameters sorted by name; HMAC-SHA1 keyed with
// the account's auth token; base64. Pure.
import { createHmac } from 'node:crypto';
import { safeEqual } from '../../runtime/safe-equal.js';

/** Form parameters in arrival order; a name may repeat. */
export type FormParams = ReadonlyArray<readonly [name: string, value: string]>;

export type SignatureCheck = { readonly ok: true } | { readonly ok: false; readonly reason: 'missing' | 'mismatch' };

// Code-unit order, not the locale's: Twilio sorts case-sensitively ("Unix-style"), so `To` comes
// before `body` and `From` before `FromCity`.
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The string Twilio signs: URL, then name+value of each parameter, sorted by name (then value). */
export function signedText(url: string, params: FormParams): string {
  const sorted = [...params].sort(([nameA, valueA], [nameB, valueB]) => byCodeUnits(nameA, nameB) || byCodeUnits(valueA, valueB));
  let text = url;
  let previous: readonly [string, string] | undefined;
  for (const pair of sorted) {
    // The SDKs collapse a repeated identical pair into one (a Set over a name's values).
    if (previous && previous[0] === pair[0] && previous[1] === pair[1]) continue;
    text += pair[0] + pair[1];
    previous = pair;
  }
  return text;
}

/** The X-Twilio-Signature value for a POST of `params` to `url`. */
export function twilioSignature(authToken: string, url: string, params: FormParams): string {
  return createHmac('sha1', authToken).update(signedText(url, params), 'utf8').digest('base64');
}

/**
 * The spellings of one URL that Twilio may have signed. Twilio's own validator accepts the URL
 * with and without the scheme's default port ("signature generation on the back end is
 * inconsistent"), so a `public_url` written either way verifies.
 */
export function signatureUrls(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [url];
  }
  const defaultPort = parsed.protocol === 'https:' ? '443' : parsed.protocol === 'http:' ? '80' : undefined;
  const variants = [url, parsed.toString()];
  if (defaultPort !== undefined && parsed.port === '') {
    const auth = parsed.username || parsed.password ? `${parsed.username}${parsed.password ? `:${parsed.password}` : ''}@` : '';
    variants.push(`${parsed.protocol}//${auth}${parsed.host}:${defaultPort}${parsed.pathname}${parsed.search}${parsed.hash}`);
  }
  return [...new Set(variants)];
}

/**
 * Checks `header` against the signature of `params` posted to `url`, in constant time. An empty
 * token verifies nothing: an HMAC keyed with '' is one anybody can make.
 */
export function verifyTwilioSignature(authToken: string, url: string, params: FormParams, header: string | undefined): SignatureCheck {
  if (header === undefined || header === '') return { ok: false, reason: 'missing' };
  if (authToken === '') return { ok: false, reason: 'mismatch' };
  // Every variant is compared (no early exit), so the time taken does not say which one was close.
  let matched = false;
  for (const candidate of signatureUrls(url)) {
    if (safeEqual(header, twilioSignature(authToken, candidate, params))) matched = true;
  }
  return matched ? { ok: true } : { ok: false, reason: 'mismatch' };
}
