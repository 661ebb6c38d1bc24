// A reverse proxy that signs people in instead of a password (`dashboard.trusted_proxy`): the
// header it sets names the user, and it is believed only on a connection from one of the listed
// addresses; from anywhere else the header is ignored (anyone can send a header). Pure.
import { BlockList, isIP } from 'node:net';

export type TrustedProxySetting = { readonly header: string; readonly from: readonly string[] };

export type TrustedProxy = {
  readonly header: string;
  /** Is the connection's peer one of the proxy's addresses? */
  readonly trusts: (remoteAddress: string | undefined) => boolean;
};

/** `::ffff:127.0.0.1` (an IPv4 client on a dual-stack socket) is 127.0.0.1. */
export function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/** The setting as a matcher, or the first entry that is not an address or CIDR range. */
export function resolveTrustedProxy(setting: TrustedProxySetting): { ok: true; proxy: TrustedProxy } | { ok: false; error: string } {
  const header = setting.header.trim().toLowerCase();
  if (!/^[a-z0-9-]{1,64}$/.test(header)) return { ok: false, error: `dashboard.trusted_proxy.header "${setting.header}" is not a header name` };
  if (setting.from.length === 0) return { ok: false, error: 'dashboard.trusted_proxy.from is empty: list the proxy\'s addresses (e.g. 127.0.0.1/32)' };
  const list = new BlockList();
  for (const entry of setting.from) {
    const [address = '', bits, extra] = entry.trim().split('/');
    const family = isIP(address);
    const width = family === 4 ? 32 : 128;
    const prefix = bits === undefined ? width : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
    if (family === 0 || extra !== undefined || !(prefix >= 0 && prefix <= width)) {
      return { ok: false, error: `dashboard.trusted_proxy.from: "${entry}" is not an IP address or CIDR range` };
    }
    list.addSubnet(address, prefix, family === 4 ? 'ipv4' : 'ipv6');
  }
  return {
    ok: true,
    proxy: {
      header,
      trusts(remoteAddress) {
        if (!remoteAddress) return false;
        const address = plainAddress(remoteAddress);
        const family = isIP(address);
        return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
      },
    },
  };
}
