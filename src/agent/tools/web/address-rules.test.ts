import { describe, expect, it } from 'vitest';
import { classifyAddress, decideAddresses, decideHost, isAlwaysLocalName, type BlockedKind } from './address-rules.js';
import { stringContaining } from '../../../../test/helpers/documents.js';

// One row per rule, with the edges on both sides of each range.
const BLOCKED: ReadonlyArray<readonly [string, BlockedKind]> = [
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['100.64.0.1', 'shared (CGNAT)'],
  ['100.127.255.254', 'shared (CGNAT)'],
  ['127.0.0.1', 'loopback'],
  ['127.8.9.10', 'loopback'],
  ['169.254.169.254', 'link-local'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['fc00::1', 'private'],
  ['fd12:3456:789a::1', 'private'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf:ffff::1', 'link-local'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:10.1.2.3', 'private'],
  ['::ffff:a9fe:a9fe', 'link-local'],
  ['::ffff:0.0.0.0', 'unspecified'],
  ['::ffff:100.64.0.1', 'shared (CGNAT)'],
];

const PUBLIC = [
  '1.1.1.1',
  '8.8.8.8',
  '9.255.255.255',
  '11.0.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '126.255.255.255',
  '128.0.0.1',
  '169.253.255.255',
  '169.255.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '192.167.255.255',
  '192.169.0.0',
  '93.184.215.14',
  '2606:4700:4700::1111',
  '2001:db8::1',
  '::2',
  'fbff::1',
  'fec0::1',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
];

describe('classifyAddress', () => {
  it.each(BLOCKED)('refuses %s (%s)', (address, kind) => {
    expect(classifyAddress(address)).toEqual({ allowed: false, kind });
  });

  it.each(PUBLIC)('allows %s', (address) => {
    expect(classifyAddress(address)).toEqual({ allowed: true });
  });

  it.each(['localhost', 'example.com', '1.2.3', '', '::ffff:300.0.0.1'])('says %j is not an address', (text) => {
    expect(classifyAddress(text)).toBeUndefined();
  });
});

describe('isAlwaysLocalName', () => {
  it.each([
    ['localhost', true],
    ['LOCALHOST.', true],
    ['api.localhost', true],
    ['localhost.localdomain', true],
    ['localhost.example.com', false],
    ['mylocalhost', false],
  ])('%s → %s', (name, local) => {
    expect(isAlwaysLocalName(name)).toBe(local);
  });
});

describe('decideHost', () => {
  const direct = { allowPrivate: false, viaProxy: false };
  const proxied = { allowPrivate: false, viaProxy: true };

  it('judges literal addresses at once, with or without a proxy', () => {
    expect(decideHost('127.0.0.1', direct)).toEqual({
      action: 'refuse',
      reason: 'refused: 127.0.0.1 is not a public address (loopback); set tools.web.allow_private: true to allow it',
    });
    expect(decideHost('[::ffff:7f00:1]', proxied)).toMatchObject({ action: 'refuse', reason: stringContaining('::ffff:7f00:1 is not a public address (loopback)') });
    expect(decideHost('[fe80::1]', proxied)).toMatchObject({ action: 'refuse' });
    expect(decideHost('8.8.8.8', direct)).toEqual({ action: 'connect' });
    expect(decideHost('[2606:4700:4700::1111]', proxied)).toEqual({ action: 'connect' });
  });

  it('refuses always-local names even behind a proxy', () => {
    expect(decideHost('localhost', proxied)).toMatchObject({ action: 'refuse', reason: stringContaining('localhost is not a public address') });
    expect(decideHost('app.localhost', direct)).toMatchObject({ action: 'refuse' });
  });

  it('leaves other names to the check at connect time, or to the proxy', () => {
    expect(decideHost('example.com', direct)).toEqual({ action: 'check-on-connect' });
    expect(decideHost('example.com', proxied)).toEqual({ action: 'connect' });
  });

  it('allows everything with allow_private', () => {
    for (const host of ['127.0.0.1', 'localhost', '[::1]', 'example.com']) {
      expect(decideHost(host, { allowPrivate: true, viaProxy: false })).toEqual({ action: 'connect' });
    }
  });
});

describe('decideAddresses', () => {
  it('passes a name whose every address is public', () => {
    expect(decideAddresses('example.com', ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'])).toEqual({ ok: true });
  });

  it('refuses a name when any one address is not public', () => {
    expect(decideAddresses('rebind.example', ['93.184.215.14', '10.0.0.5'])).toEqual({
      ok: false,
      reason: 'refused: rebind.example (10.0.0.5) is not a public address (private); set tools.web.allow_private: true to allow it',
    });
  });

  it('refuses no answer and answers that are not addresses', () => {
    expect(decideAddresses('empty.example', [])).toEqual({ ok: false, reason: 'empty.example did not resolve to any address' });
    expect(decideAddresses('odd.example', ['not-an-ip'])).toMatchObject({ ok: false });
  });
});
