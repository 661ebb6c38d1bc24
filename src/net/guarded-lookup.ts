// The DNS edge of the fetch guard: a `lookup` for net.connect (through undici's connect options)
// that resolves a name once, refuses it when any answer is refused, and hands the socket exactly
// the addresses it checked, so a second lookup (DNS rebinding) cannot swap them.
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOneOptions, LookupAllOptions } from 'node:dns';
import { decideAddresses, type FetchPolicy } from './fetch-policy.js';

/** Resolves a name to its addresses; injectable so tests can give a public-looking name a local address. */
export type Resolver = (hostname: string) => Promise<readonly LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** Thrown into the socket, so undici fails the request with it; `code` tells it from network errors. */
export class RefusedAddressError extends Error {
  readonly code = 'EIRIS_REFUSED_ADDRESS';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type ConnectLookup = (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback) => void;

export function createGuardedLookup(resolve: Resolver, policy: FetchPolicy): ConnectLookup {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (found) => {
        const family = typeof options.family === 'number' ? options.family : 0;
        // Every answer is checked, not only the family asked for: the socket may try any of them.
        const decision = decideAddresses(hostname, found.map((a) => a.address), policy);
        if (!decision.ok) return callback(new RefusedAddressError(decision.reason), []);
        const usable = found.filter((a) => family === 0 || a.family === family);
        if (usable.length === 0) return callback(Object.assign(new Error(`${hostname}: no IPv${family} address`), { code: 'ENOTFOUND' }), []);
        if (options.all) return callback(null, [...usable]);
        const first = usable[0] as LookupAddress;
        return callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, []),
    );
  };
}
