// The URLs a listener can be reached at, from the address it bound. Pure: the interface list is
// passed in (os.networkInterfaces() at the edge), so the rule is testable on any machine.
import type { NetworkInterfaceInfo } from 'node:os';

const WILDCARDS: Readonly<Record<string, string>> = { '0.0.0.0': '127.0.0.1', '::': '::1' };

function urlFor(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The URL a client on this machine uses; a wildcard bind is reached through loopback. */
export function listenerUrl(host: string, port: number): string {
  return urlFor(WILDCARDS[host] ?? host, port);
}

/** `0.0.0.0:8644`, `[::]:8644`: the bound address as it would be written in a URL. */
export function boundAddress(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export type ReachableUrls = {
  /** From this machine. */
  readonly local: string;
  /** From other machines: the non-internal addresses a wildcard bind covers (none for a specific host). */
  readonly network: readonly string[];
};

/**
 * Where the listener answers. A wildcard bind answers on every interface: `0.0.0.0` on each IPv4
 * address, `::` on every address (IPv6 sockets take IPv4 too on Linux). Link-local IPv6
 * addresses are left out: a URL to one needs a zone id no code host can use.
 */
export function reachableUrls(host: string, port: number, interfaces: Readonly<Record<string, readonly NetworkInterfaceInfo[] | undefined>>): ReachableUrls {
  const local = listenerUrl(host, port);
  if (!(host in WILDCARDS)) return { local, network: [] };
  const network: string[] = [];
  for (const entries of Object.values(interfaces)) {
    for (const entry of entries ?? []) {
      if (entry.internal) continue;
      if (entry.family === 'IPv6' && (host === '0.0.0.0' || entry.address.toLowerCase().startsWith('fe80:'))) continue;
      const url = urlFor(entry.address, port);
      if (!network.includes(url)) network.push(url);
    }
  }
  return { local, network };
}
