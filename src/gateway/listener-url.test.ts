import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { boundAddress, listenerUrl, reachableUrls } from './listener-url.js';

const v4 = (address: string, internal = false): NetworkInterfaceInfo => ({ address, netmask: '255.255.255.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal, cidr: `${address}/24` });
const v6 = (address: string, internal = false): NetworkInterfaceInfo => ({ address, netmask: 'ffff:ffff:ffff:ffff::', family: 'IPv6', mac: '00:00:00:00:00:00', internal, cidr: `${address}/64`, scopeid: 0 });

const INTERFACES = {
  lo: [v4('127.0.0.1', true), v6('::1', true)],
  eth0: [v4('10.1.2.3'), v6('fe80::1'), v6('2001:db8::7')],
  wlan0: [v4('192.168.5.9')],
  down: undefined,
};

describe('listenerUrl', () => {
  it('reaches a wildcard bind through loopback, and brackets IPv6', () => {
    expect(listenerUrl('0.0.0.0', 8644)).toBe('http://127.0.0.1:8644');
    expect(listenerUrl('::', 8644)).toBe('http://[::1]:8644');
    expect(listenerUrl('127.0.0.1', 9)).toBe('http://127.0.0.1:9');
    expect(listenerUrl('fd00::5', 80)).toBe('http://[fd00::5]:80');
    expect(listenerUrl('gateway.lan', 8644)).toBe('http://gateway.lan:8644');
  });
});

describe('boundAddress', () => {
  it('is host:port, IPv6 in brackets', () => {
    expect(boundAddress('0.0.0.0', 8644)).toBe('0.0.0.0:8644');
    expect(boundAddress('::', 8644)).toBe('[::]:8644');
  });
});

describe('reachableUrls', () => {
  it('0.0.0.0: loopback, then every non-internal IPv4 address', () => {
    expect(reachableUrls('0.0.0.0', 8644, INTERFACES)).toEqual({ local: 'http://127.0.0.1:8644', network: ['http://10.1.2.3:8644', 'http://192.168.5.9:8644'] });
  });

  it('::: every non-internal address except link-local IPv6', () => {
    expect(reachableUrls('::', 8644, INTERFACES)).toEqual({
      local: 'http://[::1]:8644',
      network: ['http://10.1.2.3:8644', 'http://[2001:db8::7]:8644', 'http://192.168.5.9:8644'],
    });
  });

  it('a specific host: that address only', () => {
    expect(reachableUrls('127.0.0.1', 8644, INTERFACES)).toEqual({ local: 'http://127.0.0.1:8644', network: [] });
    expect(reachableUrls('10.1.2.3', 8644, INTERFACES)).toEqual({ local: 'http://10.1.2.3:8644', network: [] });
  });

  it('a machine with loopback only: no network URL', () => {
    expect(reachableUrls('0.0.0.0', 1, { lo: [v4('127.0.0.1', true)] })).toEqual({ local: 'http://127.0.0.1:1', network: [] });
  });
});
