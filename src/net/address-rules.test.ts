// The address rules over a table: every range of the IANA special-purpose registries (IPv4, IPv6)
// that is not globally reachable, plus multicast, broadcast and IPv6 outside 2000::/3, with the
// edges on both sides. Pure: nothing here connects anywhere.
import { describe, expect, it } from 'vitest';
import { parseAddress } from '../domain/ip-address.js';
import { classifyAddress, embeddedIPv4, type AddressKind, type Translation } from './address-rules.js';

const REFUSED_IPV4: ReadonlyArray<readonly [string, AddressKind]> = [
  ['0.0.0.0', 'unspecified (this network)'],
  ['0.255.255.255', 'unspecified (this network)'],
  ['10.0.0.0', 'private'],
  ['10.255.255.255', 'private'],
  ['100.64.0.0', 'shared address space (CGNAT)'],
  ['100.127.255.255', 'shared address space (CGNAT)'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.255', 'loopback'],
  ['169.254.0.0', 'link-local'],
  ['169.254.169.254', 'link-local'],
  ['172.16.0.0', 'private'],
  ['172.31.255.255', 'private'],
  ['192.0.0.0', 'IETF protocol assignments'],
  ['192.0.0.255', 'IETF protocol assignments'],
  ['192.0.2.0', 'documentation'],
  ['192.0.2.255', 'documentation'],
  ['192.88.99.0', '6to4 relay anycast'],
  ['192.88.99.255', '6to4 relay anycast'],
  ['192.168.0.0', 'private'],
  ['192.168.255.255', 'private'],
  ['198.18.0.0', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['198.51.100.0', 'documentation'],
  ['198.51.100.255', 'documentation'],
  ['203.0.113.0', 'documentation'],
  ['203.0.113.255', 'documentation'],
  ['224.0.0.0', 'multicast'],
  ['239.255.255.255', 'multicast'],
  ['240.0.0.0', 'reserved'],
  ['255.255.255.254', 'reserved'],
  ['255.255.255.255', 'broadcast'],
];

const REFUSED_IPV6: ReadonlyArray<readonly [string, AddressKind | Translation]> = [
  ['::', 'unspecified'],
  ['0:0:0:0:0:0:0:0', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['100::', 'discard-only'],
  ['100::ffff:ffff:ffff:ffff', 'discard-only'],
  ['2001::', 'Teredo'],
  ['2001:0:ffff:ffff:ffff:ffff:ffff:ffff', 'Teredo'],
  ['2001:2::', 'benchmarking'],
  ['2001:2:0:ffff:ffff:ffff:ffff:ffff', 'benchmarking'],
  ['2001:1::1', 'IETF protocol assignments'],
  ['2001:3::1', 'IETF protocol assignments'],
  ['2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff', 'IETF protocol assignments'],
  ['2001:db8::', 'documentation'],
  ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'],
  ['3fff::', 'documentation'],
  ['3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'],
  ['fc00::', 'unique local (private)'],
  ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique local (private)'],
  ['fe80::', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'link-local'],
  ['fec0::1', 'site-local'],
  ['ff00::', 'multicast'],
  ['ff02::1', 'multicast'],
  ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'multicast'],
  // Outside 2000::/3 (global unicast) and every named block: unassigned or reserved.
  ['1fff:ffff::1', 'reserved'],
  ['4000::1', 'reserved'],
  ['5f00::1', 'reserved'],
  ['fbff::1', 'reserved'],
  ['::ffff:0:0:1', 'reserved'],
  // Translated forms whose IPv4 is public: the range itself is not globally reachable.
  ['::ffff:8.8.8.8', 'IPv4-mapped'],
  ['::8.8.8.8', 'IPv4-compatible'],
  ['64:ff9b:1::808:808', 'local-use NAT64'],
  ['64:ff9b:1:ffff:ffff:ffff:808:808', 'local-use NAT64'],
  ['2002:808:808::', '6to4'],
  ['2002:808:808:ffff:ffff:ffff:ffff:ffff', '6to4'],
];

// The IPv4 inside a translated form is judged as IPv4: the refusal names its class.
const TRANSLATED: ReadonlyArray<readonly [string, AddressKind, Translation, string]> = [
  ['::ffff:127.0.0.1', 'loopback', 'IPv4-mapped', '127.0.0.1'],
  ['::ffff:7f00:1', 'loopback', 'IPv4-mapped', '127.0.0.1'],
  ['0:0:0:0:0:ffff:a9fe:a9fe', 'link-local', 'IPv4-mapped', '169.254.169.254'],
  ['::ffff:0.0.0.0', 'unspecified (this network)', 'IPv4-mapped', '0.0.0.0'],
  ['::127.0.0.1', 'loopback', 'IPv4-compatible', '127.0.0.1'],
  ['::2', 'unspecified (this network)', 'IPv4-compatible', '0.0.0.2'],
  ['::a00:1', 'private', 'IPv4-compatible', '10.0.0.1'],
  ['64:ff9b::7f00:1', 'loopback', 'NAT64', '127.0.0.1'],
  ['64:ff9b::169.254.169.254', 'link-local', 'NAT64', '169.254.169.254'],
  ['64:ff9b::c612:1', 'benchmarking', 'NAT64', '198.18.0.1'],
  ['64:ff9b::e000:1', 'multicast', 'NAT64', '224.0.0.1'],
  ['64:ff9b::ffff:ffff', 'broadcast', 'NAT64', '255.255.255.255'],
  ['64:ff9b:1::a9fe:a9fe', 'link-local', 'local-use NAT64', '169.254.169.254'],
  ['2002:7f00:1::', 'loopback', '6to4', '127.0.0.1'],
  ['2002:a9fe:a9fe::1', 'link-local', '6to4', '169.254.169.254'],
  ['2002:c0a8:101::', 'private', '6to4', '192.168.1.1'],
];

const GLOBAL = [
  '1.1.1.1',
  '8.8.8.8',
  '9.255.255.255',
  '11.0.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '126.255.255.255',
  '128.0.0.0',
  '169.253.255.255',
  '169.255.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '191.255.255.255',
  '192.0.1.0',
  '192.0.3.0',
  '192.88.98.255',
  '192.88.100.0',
  '192.167.255.255',
  '192.169.0.0',
  '198.17.255.255',
  '198.20.0.0',
  '198.51.99.255',
  '198.51.101.0',
  '203.0.112.255',
  '203.0.114.0',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2000::1',
  '2001:200::1',
  '2001:db7:ffff::1',
  '2001:db9::1',
  '3ffe::1',
  '3fff:1000::1',
  '2003::1',
  // NAT64 of a public address: the well-known prefix is globally reachable (DNS64 answers with it).
  '64:ff9b::808:808',
  '64:ff9b::1.1.1.1',
];

describe('classifyAddress', () => {
  it.each(REFUSED_IPV4)('refuses %s (%s)', (address, kind) => {
    expect(classifyAddress(address)).toEqual({ global: false, kind });
  });

  it.each(REFUSED_IPV6)('refuses %s (%s)', (address, kind) => {
    expect(classifyAddress(address)).toEqual({ global: false, kind });
  });

  it.each(TRANSLATED)('refuses %s as %s (%s of %s)', (address, kind, form, ipv4) => {
    expect(classifyAddress(address)).toEqual({ global: false, kind, inside: { form, ipv4 } });
  });

  it.each(GLOBAL)('passes %s', (address) => {
    expect(classifyAddress(address)).toEqual({ global: true });
  });

  it.each(['localhost', 'example.com', '1.2.3', '127.1', '0x7f000001', '2130706433', '0177.0.0.1', '', '::ffff:300.0.0.1', '[::1]'])(
    'says %j is not an address (URL parsing normalises the odd IPv4 spellings first)',
    (text) => {
      expect(classifyAddress(text)).toBeUndefined();
    },
  );
});

describe('embeddedIPv4', () => {
  it('finds the IPv4 where each form keeps it, and none in :: and ::1', () => {
    const inside = (text: string) => embeddedIPv4(parseAddress(text)!);
    expect(inside('2002:a9fe:a9fe::1')).toEqual({ form: '6to4', bytes: [169, 254, 169, 254], reachable: false });
    expect(inside('64:ff9b::808:808')).toEqual({ form: 'NAT64', bytes: [8, 8, 8, 8], reachable: true });
    expect(inside('::')).toBeUndefined();
    expect(inside('::1')).toBeUndefined();
    expect(inside('2606:4700:4700::1111')).toBeUndefined();
    expect(embeddedIPv4(parseAddress('127.0.0.1')!)).toBeUndefined();
  });
});
