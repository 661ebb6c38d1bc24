// Which addresses a fetch may reach when a stranger named the place: every address the IANA
// special-purpose registries (IPv4 and IPv6) do not mark globally reachable is refused, and so are
// multicast, broadcast and IPv6 outside global unicast (2000::/3). The IPv6 forms that carry an
// IPv4 address are judged by that IPv4 too, so ::ffff:127.0.0.1 and 64:ff9b::7f00:1 are loopback.
// Pure decisions over address text; which ranges a setting opens is fetch-policy.ts.
import { parseAddress, type ParsedAddress } from '../domain/ip-address.js';

export type AddressKind =
  | 'unspecified'
  | 'unspecified (this network)'
  | 'private'
  | 'shared address space (CGNAT)'
  | 'loopback'
  | 'link-local'
  | 'site-local'
  | 'unique local (private)'
  | 'IETF protocol assignments'
  | 'documentation'
  | 'benchmarking'
  | '6to4 relay anycast'
  | 'Teredo'
  | 'discard-only'
  | 'multicast'
  | 'broadcast'
  | 'reserved';

/** An IPv6 form that carries an IPv4 address. */
export type Translation = 'IPv4-mapped' | 'IPv4-compatible' | 'NAT64' | 'local-use NAT64' | '6to4';

export type AddressVerdict =
  | { readonly global: true }
  /** `inside`: the refusal is the class of the IPv4 that this translated form carries. */
  | { readonly global: false; readonly kind: AddressKind | Translation; readonly inside?: { readonly form: Translation; readonly ipv4: string } };

type Block = readonly [prefix: readonly number[], bits: number, kind: AddressKind];

// More specific ranges first: the first match names the class.
const IPV4_BLOCKS: readonly Block[] = [
  [[0], 8, 'unspecified (this network)'],
  [[10], 8, 'private'],
  [[100, 64], 10, 'shared address space (CGNAT)'],
  [[127], 8, 'loopback'],
  [[169, 254], 16, 'link-local'],
  [[172, 16], 12, 'private'],
  [[192, 0, 0], 24, 'IETF protocol assignments'],
  [[192, 0, 2], 24, 'documentation'],
  [[192, 88, 99], 24, '6to4 relay anycast'],
  [[192, 168], 16, 'private'],
  [[198, 18], 15, 'benchmarking'],
  [[198, 51, 100], 24, 'documentation'],
  [[203, 0, 113], 24, 'documentation'],
  [[224], 4, 'multicast'],
  [[255, 255, 255, 255], 32, 'broadcast'],
  [[240], 4, 'reserved'],
];

const IPV6_BLOCKS: readonly Block[] = [
  [[0x01, 0x00], 64, 'discard-only'],
  // 2001::/23 has a few globally reachable /32s and /48s (AMT, AS112, ORCHIDv2…); nothing a
  // stranger's link needs, so the whole block is refused rather than trusting a list of holes.
  [[0x20, 0x01, 0x00, 0x00], 32, 'Teredo'],
  [[0x20, 0x01, 0x00, 0x02, 0x00, 0x00], 48, 'benchmarking'],
  [[0x20, 0x01, 0x00, 0x00], 23, 'IETF protocol assignments'],
  [[0x20, 0x01, 0x0d, 0xb8], 32, 'documentation'],
  [[0x3f, 0xff], 20, 'documentation'],
  [[0xfc], 7, 'unique local (private)'],
  [[0xfe, 0x80], 10, 'link-local'],
  [[0xfe, 0xc0], 10, 'site-local'],
  [[0xff], 8, 'multicast'],
];

/** Where each translated form keeps its IPv4; `reachable`: the range itself is globally reachable. */
const EMBEDDINGS: ReadonlyArray<{ readonly prefix: readonly number[]; readonly bits: number; readonly form: Translation; readonly at: number; readonly reachable: boolean }> = [
  { prefix: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], bits: 96, form: 'IPv4-mapped', at: 12, reachable: false },
  // Checked after :: and ::1, which sit inside ::/96 with classes of their own.
  { prefix: [], bits: 96, form: 'IPv4-compatible', at: 12, reachable: false },
  // DNS64 answers with 64:ff9b::/96 on IPv6-only hosts, so NAT64 of a public address passes.
  { prefix: [0x00, 0x64, 0xff, 0x9b], bits: 96, form: 'NAT64', at: 12, reachable: true },
  { prefix: [0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], bits: 48, form: 'local-use NAT64', at: 12, reachable: false },
  { prefix: [0x20, 0x02], bits: 16, form: '6to4', at: 2, reachable: false },
];

const GLOBAL: AddressVerdict = Object.freeze({ global: true });

export function inPrefix(bytes: readonly number[], prefix: readonly number[], bits: number): boolean {
  for (let bit = 0; bit < bits; bit++) {
    const mask = 0x80 >> bit % 8;
    const index = Math.floor(bit / 8);
    if (((bytes[index] ?? 0) & mask) !== ((prefix[index] ?? 0) & mask)) return false;
  }
  return true;
}

export const formatIPv4 = (bytes: readonly number[]): string => bytes.join('.');

function classifyIPv4(bytes: readonly number[]): AddressVerdict {
  const hit = IPV4_BLOCKS.find(([prefix, bits]) => inPrefix(bytes, prefix, bits));
  return hit ? { global: false, kind: hit[2] } : GLOBAL;
}

/** The IPv4 address a translated IPv6 form carries, if it is one. */
export function embeddedIPv4(address: ParsedAddress): { readonly form: Translation; readonly bytes: readonly number[]; readonly reachable: boolean } | undefined {
  if (address.family !== 6) return undefined;
  const { bytes } = address;
  if (bytes.slice(0, 15).every((b) => b === 0) && (bytes[15] ?? 0) <= 1) return undefined;
  const hit = EMBEDDINGS.find((e) => inPrefix(bytes, e.prefix, e.bits));
  return hit ? { form: hit.form, bytes: bytes.slice(hit.at, hit.at + 4), reachable: hit.reachable } : undefined;
}

function classifyIPv6(address: ParsedAddress): AddressVerdict {
  const { bytes } = address;
  if (bytes.every((b) => b === 0)) return { global: false, kind: 'unspecified' };
  if (bytes.slice(0, 15).every((b) => b === 0) && bytes[15] === 1) return { global: false, kind: 'loopback' };
  const embedded = embeddedIPv4(address);
  if (embedded) {
    const inner = classifyIPv4(embedded.bytes);
    if (!inner.global) return { ...inner, inside: { form: embedded.form, ipv4: formatIPv4(embedded.bytes) } };
    return embedded.reachable ? GLOBAL : { global: false, kind: embedded.form };
  }
  const hit = IPV6_BLOCKS.find(([prefix, bits]) => inPrefix(bytes, prefix, bits));
  if (hit) return { global: false, kind: hit[2] };
  // Only 2000::/3 is global unicast; the rest of the space is unassigned or reserved by the IETF.
  return inPrefix(bytes, [0x20], 3) ? GLOBAL : { global: false, kind: 'reserved' };
}

export function classify(address: ParsedAddress): AddressVerdict {
  return address.family === 4 ? classifyIPv4(address.bytes) : classifyIPv6(address);
}

/** An IP address as text (as DNS returns it, or a URL host without brackets); undefined when it is not one. */
export function classifyAddress(text: string): AddressVerdict | undefined {
  const parsed = parseAddress(text);
  return parsed ? classify(parsed) : undefined;
}
