// IP addresses and ranges as text writes them (a DNS answer, a URL's host without brackets, a
// setting such as `tools.web.allow_cidrs`), read into bytes. Without node:net on purpose: config
// checks ranges when it is read, and every command reads config (node:net is a start-up cost).

export type ParsedAddress = { readonly family: 4 | 6; readonly bytes: readonly number[] };

/** A range: the first `prefix` bits of `bytes`. A bare address is a range of one. */
export type Cidr = ParsedAddress & { readonly prefix: number };

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** Four bytes for dotted decimal as DNS and URL parsing write it (no leading zeros, no short forms). */
function parseIPv4(text: string): number[] | undefined {
  return IPV4.test(text) ? text.split('.').map(Number) : undefined;
}

/** Sixteen bytes, or undefined when `text` is not IPv6 (with `::` at most once, an IPv4 tail allowed). */
function parseIPv6(text: string): number[] | undefined {
  const lastColon = text.lastIndexOf(':');
  if (lastColon < 0) return undefined;
  let body = text;
  let tail: number[] | undefined;
  // An IPv4 tail (::ffff:127.0.0.1) stands for the last two groups.
  if (text.slice(lastColon + 1).includes('.')) {
    tail = parseIPv4(text.slice(lastColon + 1));
    if (!tail) return undefined;
    body = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':'));
  const head = groupsOf(halves[0] ?? '');
  const rest = halves.length === 2 ? groupsOf(halves[1] ?? '') : [];
  const missing = 8 - head.length - rest.length;
  if (![...head, ...rest].every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return undefined;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const words = [...head, ...new Array<string>(missing).fill('0'), ...rest].map((group) => parseInt(group, 16));
  const bytes = words.flatMap((word) => [word >> 8, word & 0xff]);
  if (tail) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** An IPv6 zone (`fe80::1%eth0`) is dropped: it names a link, not an address. */
export function parseAddress(text: string): ParsedAddress | undefined {
  const v4 = parseIPv4(text);
  if (v4) return { family: 4, bytes: v4 };
  const v6 = parseIPv6(text.replace(/%.*$/, ''));
  return v6 ? { family: 6, bytes: v6 } : undefined;
}

/** `10.0.0.0/8`, `fd00::/8`, or a bare address; undefined for anything else. */
export function parseCidr(text: string): Cidr | undefined {
  const [address = '', bits, extra] = text.trim().split('/');
  const parsed = address.includes('%') ? undefined : parseAddress(address);
  if (!parsed || extra !== undefined) return undefined;
  const width = parsed.family === 4 ? 32 : 128;
  const prefix = bits === undefined ? width : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
  return prefix >= 0 && prefix <= width ? { ...parsed, prefix } : undefined;
}
