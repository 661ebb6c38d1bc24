// Which addresses web_extract may connect to. Pure decisions over address text, so the table in
// the tests covers every rule; the DNS lookup that feeds them lives in guarded-lookup.ts.
import { isIPv4, isIPv6 } from 'node:net';

export type BlockedKind = 'private' | 'loopback' | 'link-local' | 'unspecified' | 'shared (CGNAT)';

export type AddressVerdict = { readonly allowed: true } | { readonly allowed: false; readonly kind: BlockedKind };

const ALLOWED: AddressVerdict = Object.freeze({ allowed: true });
const blocked = (kind: BlockedKind): AddressVerdict => ({ allowed: false, kind });

/** IPv4 prefixes as [first octets, prefix length, kind]. */
const IPV4_BLOCKS: ReadonlyArray<readonly [readonly number[], number, BlockedKind]> = [
  [[0], 8, 'unspecified'],
  [[10], 8, 'private'],
  [[100, 64], 10, 'shared (CGNAT)'],
  [[127], 8, 'loopback'],
  [[169, 254], 16, 'link-local'],
  [[172, 16], 12, 'private'],
  [[192, 168], 16, 'private'],
];

function inPrefix(bytes: readonly number[], prefix: readonly number[], bits: number): boolean {
  for (let bit = 0; bit < bits; bit++) {
    const mask = 0x80 >> bit % 8;
    const index = Math.floor(bit / 8);
    if (((bytes[index] ?? 0) & mask) !== ((prefix[index] ?? 0) & mask)) return false;
  }
  return true;
}

function classifyIPv4(bytes: readonly number[]): AddressVerdict {
  const hit = IPV4_BLOCKS.find(([prefix, bits]) => inPrefix(bytes, prefix, bits));
  return hit ? blocked(hit[2]) : ALLOWED;
}

function parseIPv4(text: string): number[] {
  return text.split('.').map(Number);
}

/** 16 bytes; `text` must already pass isIPv6 (zone ids are dropped first). */
function parseIPv6(text: string): number[] {
  let body = text;
  const tail: number[] = [];
  // An embedded IPv4 tail (::ffff:127.0.0.1) becomes the last two groups.
  const lastColon = body.lastIndexOf(':');
  if (body.slice(lastColon + 1).includes('.')) {
    tail.push(...parseIPv4(body.slice(lastColon + 1)));
    body = `${body.slice(0, lastColon + 1)}0:0`;
  }
  const [head = '', rest] = body.split('::') as [string, string | undefined];
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const front = groups(head);
  const back = rest === undefined ? [] : groups(rest);
  const words = [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  const bytes = words.flatMap((w) => [w >> 8, w & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

function classifyIPv6(bytes: readonly number[]): AddressVerdict {
  if (bytes.every((b) => b === 0)) return blocked('unspecified');
  if (bytes.slice(0, 15).every((b) => b === 0) && bytes[15] === 1) return blocked('loopback');
  // IPv4-mapped (::ffff:a.b.c.d) reaches the IPv4 address itself.
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return classifyIPv4(bytes.slice(12));
  if (inPrefix(bytes, [0xfc], 7)) return blocked('private');
  if (inPrefix(bytes, [0xfe, 0x80], 10)) return blocked('link-local');
  return ALLOWED;
}

/** An IP address as text (as DNS returns it, or a URL host without brackets); undefined when it is not one. */
export function classifyAddress(address: string): AddressVerdict | undefined {
  if (isIPv4(address)) return classifyIPv4(parseIPv4(address));
  const bare = address.replace(/%.*$/, '');
  if (isIPv6(bare)) return classifyIPv6(parseIPv6(bare));
  return undefined;
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
 * What to do with a URL's host before connecting. Through a proxy, the proxy resolves names
 * (enterprise hosts often cannot resolve outside names), so only literal addresses and
 * always-local names can be judged here.
 */
export function decideHost(hostname: string, options: { readonly allowPrivate: boolean; readonly viaProxy: boolean }): HostDecision {
  if (options.allowPrivate) return { action: 'connect' };
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const verdict = classifyAddress(host);
  if (verdict) return verdict.allowed ? { action: 'connect' } : { action: 'refuse', reason: refusal(host, verdict.kind) };
  if (isAlwaysLocalName(host)) return { action: 'refuse', reason: refusal(host, 'loopback') };
  return options.viaProxy ? { action: 'connect' } : { action: 'check-on-connect' };
}

/** Every address a name resolved to must pass: one private answer is enough to refuse. */
export function decideAddresses(hostname: string, addresses: readonly string[]): { readonly ok: true } | { readonly ok: false; readonly reason: string } {
  if (addresses.length === 0) return { ok: false, reason: `${hostname} did not resolve to any address` };
  for (const address of addresses) {
    const verdict = classifyAddress(address);
    if (!verdict) return { ok: false, reason: `${hostname} resolved to "${address}", which is not an IP address` };
    if (!verdict.allowed) return { ok: false, reason: refusal(`${hostname} (${address})`, verdict.kind) };
  }
  return { ok: true };
}

function refusal(what: string, kind: BlockedKind): string {
  return `refused: ${what} is not a public address (${kind}); set tools.web.allow_private: true to allow it`;
}
