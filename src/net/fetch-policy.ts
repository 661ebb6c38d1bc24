// What the fetch guard lets through: the address rules, opened by the owner's settings
// (`tools.web.allow_private` opens everything, `tools.web.allow_cidrs` only the ranges listed),
// and the sentence a refusal is told with. Settings arrive as plain values. Pure.
import { parseAddress, parseCidr, type Cidr, type ParsedAddress } from '../domain/ip-address.js';
import { classify, embeddedIPv4, inPrefix, type AddressVerdict } from './address-rules.js';

export type FetchGuardSettings = { readonly allowPrivate: boolean; readonly allowCidrs: readonly string[] };

export type FetchPolicy = { readonly allowPrivate: boolean; readonly ranges: readonly Cidr[] };

/** Nothing opened: the policy when no setting says otherwise. */
export const STRICT_POLICY: FetchPolicy = Object.freeze({ allowPrivate: false, ranges: [] });

/** Entries that are not ranges are left out here: config reports them when it reads the file. */
export function resolveFetchPolicy(settings: FetchGuardSettings): FetchPolicy {
  const ranges = settings.allowCidrs.flatMap((text) => parseCidr(text) ?? []);
  return { allowPrivate: settings.allowPrivate, ranges };
}

/** A translated form is opened by a range holding it or the IPv4 it carries. */
function opened(address: ParsedAddress, ranges: readonly Cidr[]): boolean {
  const inner = embeddedIPv4(address);
  const forms: ParsedAddress[] = inner ? [address, { family: 4, bytes: inner.bytes }] : [address];
  return ranges.some((range) => forms.some((form) => form.family === range.family && inPrefix(form.bytes, range.bytes, range.prefix)));
}

export type AddressCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

const PASS: AddressCheck = Object.freeze({ ok: true });

/** undefined when `address` is not an IP address. `label` names the place in a refusal. */
export function checkAddress(address: string, policy: FetchPolicy, label: string = address): AddressCheck | undefined {
  const parsed = parseAddress(address);
  if (!parsed) return undefined;
  if (policy.allowPrivate) return PASS;
  const verdict = classify(parsed);
  if (verdict.global || opened(parsed, policy.ranges)) return PASS;
  return { ok: false, reason: refusal(label, verdict) };
}

/** "refused: 169.254.169.254 is link-local"; "… is loopback (NAT64 of 127.0.0.1)" for a translated form. */
export function refusal(label: string, verdict: Exclude<AddressVerdict, { global: true }>): string {
  const inside = verdict.inside;
  const carried = inside ? ` (${inside.form === 'IPv4-mapped' || inside.form === 'IPv4-compatible' ? inside.form : `${inside.form} of`} ${inside.ipv4})` : '';
  return `refused: ${label} is ${verdict.kind}${carried}`;
}

/** Names that are local wherever they are resolved, even by a proxy (RFC 6761). */
export function isAlwaysLocalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || name === 'localhost.localdomain';
}

export type HostDecision =
  | { readonly action: 'connect' }
  /** A name to resolve here and check address by address when connecting. */
  | { readonly action: 'check-on-connect' }
  | { readonly action: 'refuse'; readonly reason: string };

/**
 * What to do with a URL's host (`URL.hostname`, brackets and all) before connecting. Through a
 * proxy, the proxy resolves names (enterprise hosts often cannot resolve outside names), so only
 * literal addresses and always-local names can be judged here.
 */
export function decideHost(hostname: string, policy: FetchPolicy, viaProxy: boolean): HostDecision {
  if (policy.allowPrivate) return { action: 'connect' };
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const check = checkAddress(host, policy);
  if (check) return check.ok ? { action: 'connect' } : { action: 'refuse', reason: check.reason };
  // Opened ranges may hold what localhost resolves to here; a proxy's localhost is its own.
  if (isAlwaysLocalName(host) && (viaProxy || policy.ranges.length === 0)) return { action: 'refuse', reason: `refused: ${host} is loopback` };
  return viaProxy ? { action: 'connect' } : { action: 'check-on-connect' };
}

/** Every address a name resolved to must pass: one refused answer refuses the name. */
export function decideAddresses(hostname: string, addresses: readonly string[], policy: FetchPolicy): AddressCheck {
  if (addresses.length === 0) return { ok: false, reason: `${hostname} did not resolve to any address` };
  for (const address of addresses) {
    const check = checkAddress(address, policy, `${hostname} (${address})`);
    if (!check) return { ok: false, reason: `${hostname} resolved to "${address}", which is not an IP address` };
    if (!check.ok) return check;
  }
  return PASS;
}
