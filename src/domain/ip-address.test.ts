import { isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseAddress, parseCidr } from './ip-address.js';

// Addresses and near misses: the parser must agree with node:net on which are addresses.
const SPELLINGS = [
  '0.0.0.0', '127.0.0.1', '255.255.255.255', '256.0.0.1', '1.2.3', '1.2.3.4.5', '01.2.3.4', '127.1', '0x7f000001', '2130706433', '1.2.3.4 ', '',
  '::', '::1', '1::', '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7::', '::2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8:9', '1::2::3', ':::', ':1', '1:', '12345::',
  '::ffff:127.0.0.1', '::ffff:7f00:1', '64:ff9b::1.2.3.4', '1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:7:1.2.3.4', '::ffff:300.0.0.1', '::1.2.3',
  'fe80::1', 'FE80::ABCD', 'g::1', '[::1]', 'localhost', 'example.com',
];

describe('parseAddress', () => {
  it.each(SPELLINGS)('agrees with node:net on %j', (text) => {
    expect(parseAddress(text)?.family ?? 0).toBe(isIP(text));
  });

  it('reads the bytes, IPv4 tails and zones included', () => {
    expect(parseAddress('10.1.2.3')).toEqual({ family: 4, bytes: [10, 1, 2, 3] });
    expect(parseAddress('::ffff:127.0.0.1')).toEqual({ family: 6, bytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1] });
    expect(parseAddress('2001:db8::1')?.bytes).toEqual([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseAddress('fe80::1%eth0')).toEqual(parseAddress('fe80::1'));
  });
});

describe('parseCidr', () => {
  it.each([
    ['10.0.0.0/8', 4, 8],
    [' 127.0.0.1 ', 4, 32],
    ['0.0.0.0/0', 4, 0],
    ['fd00::/8', 6, 8],
    ['::1', 6, 128],
  ])('reads %j', (text, family, prefix) => {
    expect(parseCidr(text)).toMatchObject({ family, prefix });
  });

  it.each(['', 'example.com', '10.0.0.0/33', 'fd00::/129', '10.0.0.0/8/8', '10.0.0.0/', '10.0.0.0/x', '127.1', '[::1]', 'fe80::1%eth0/64'])('refuses %j', (text) => {
    expect(parseCidr(text)).toBeUndefined();
  });
});
