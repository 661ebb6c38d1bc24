// The guard's decisions before and at connect time, and the sentences a refusal is told with.
// Pure: hosts and DNS answers are plain text here, nothing connects.
import { describe, expect, it } from 'vitest';
import { checkAddress, decideAddresses, decideHost, isAlwaysLocalName, resolveFetchPolicy, STRICT_POLICY } from './fetch-policy.js';

const hostOf = (url: string) => new URL(url).hostname;

describe('decideHost', () => {
  it('refuses with a sentence that names the class', () => {
    expect(decideHost('169.254.169.254', STRICT_POLICY, false)).toEqual({ action: 'refuse', reason: 'refused: 169.254.169.254 is link-local' });
    expect(decideHost('[fd00::1]', STRICT_POLICY, false)).toEqual({ action: 'refuse', reason: 'refused: fd00::1 is unique local (private)' });
    expect(decideHost('198.18.0.1', STRICT_POLICY, false)).toEqual({ action: 'refuse', reason: 'refused: 198.18.0.1 is benchmarking' });
  });

  it('names the class of the IPv4 inside a translated form', () => {
    expect(decideHost(hostOf('http://[64:ff9b::127.0.0.1]/'), STRICT_POLICY, false)).toEqual({ action: 'refuse', reason: 'refused: 64:ff9b::7f00:1 is loopback (NAT64 of 127.0.0.1)' });
    expect(decideHost(hostOf('http://[::ffff:169.254.169.254]/'), STRICT_POLICY, false)).toEqual({ action: 'refuse', reason: 'refused: ::ffff:a9fe:a9fe is link-local (IPv4-mapped 169.254.169.254)' });
    expect(decideHost(hostOf('http://[::127.0.0.1]/'), STRICT_POLICY, false)).toEqual({ action: 'refuse', reason: 'refused: ::7f00:1 is loopback (IPv4-compatible 127.0.0.1)' });
    expect(decideHost('[2002:a00:1::]', STRICT_POLICY, false)).toEqual({ action: 'refuse', reason: 'refused: 2002:a00:1:: is private (6to4 of 10.0.0.1)' });
    expect(decideHost('[64:ff9b:1::a00:1]', STRICT_POLICY, false)).toEqual({ action: 'refuse', reason: 'refused: 64:ff9b:1::a00:1 is private (local-use NAT64 of 10.0.0.1)' });
    expect(decideHost('[2002:808:808::]', STRICT_POLICY, false)).toEqual({ action: 'refuse', reason: 'refused: 2002:808:808:: is 6to4' });
  });

  // What WHATWG URL turns each spelling into is what undici connects to, so that is what is judged.
  it.each([
    ['http://127.1/', 'refused: 127.0.0.1 is loopback'],
    ['http://0x7f000001/', 'refused: 127.0.0.1 is loopback'],
    ['http://2130706433/', 'refused: 127.0.0.1 is loopback'],
    ['http://0177.0.0.1/', 'refused: 127.0.0.1 is loopback'],
    ['http://0x7f.1/', 'refused: 127.0.0.1 is loopback'],
    ['http://127.0.0.1./', 'refused: 127.0.0.1 is loopback'],
    ['http://0/', 'refused: 0.0.0.0 is unspecified (this network)'],
    ['http://[0:0:0:0:0:ffff:7f00:1]/', 'refused: ::ffff:7f00:1 is loopback (IPv4-mapped 127.0.0.1)'],
    ['http://[::ffff:127.0.0.1]/', 'refused: ::ffff:7f00:1 is loopback (IPv4-mapped 127.0.0.1)'],
  ])('%s → %s', (url, reason) => {
    expect(decideHost(hostOf(url), STRICT_POLICY, false)).toEqual({ action: 'refuse', reason });
  });

  it('judges literal addresses the same behind a proxy, and passes public ones', () => {
    expect(decideHost('[::1]', STRICT_POLICY, true)).toEqual({ action: 'refuse', reason: 'refused: ::1 is loopback' });
    expect(decideHost('8.8.8.8', STRICT_POLICY, false)).toEqual({ action: 'connect' });
    expect(decideHost('[2606:4700:4700::1111]', STRICT_POLICY, true)).toEqual({ action: 'connect' });
    expect(decideHost('[64:ff9b::808:808]', STRICT_POLICY, false)).toEqual({ action: 'connect' });
  });

  it('refuses always-local names, even behind a proxy', () => {
    expect(decideHost('localhost', STRICT_POLICY, true)).toEqual({ action: 'refuse', reason: 'refused: localhost is loopback' });
    expect(decideHost('app.localhost', STRICT_POLICY, false)).toEqual({ action: 'refuse', reason: 'refused: app.localhost is loopback' });
  });

  it('leaves other names to the check at connect time, or to the proxy', () => {
    expect(decideHost('example.com', STRICT_POLICY, false)).toEqual({ action: 'check-on-connect' });
    expect(decideHost('example.com', STRICT_POLICY, true)).toEqual({ action: 'connect' });
  });

  it('with allow_private, lets every host through', () => {
    const open = resolveFetchPolicy({ allowPrivate: true, allowCidrs: [] });
    for (const host of ['127.0.0.1', 'localhost', '[::1]', '169.254.169.254', '[64:ff9b::7f00:1]', 'example.com']) {
      expect(decideHost(host, open, false)).toEqual({ action: 'connect' });
    }
  });

  it('with allow_cidrs, opens the ranges listed and nothing else', () => {
    const policy = resolveFetchPolicy({ allowPrivate: false, allowCidrs: ['10.0.0.0/8', '127.0.0.1', 'fd00::/8', 'not a range'] });
    expect(decideHost('10.20.30.40', policy, false)).toEqual({ action: 'connect' });
    expect(decideHost('127.0.0.1', policy, false)).toEqual({ action: 'connect' });
    expect(decideHost('[fd12::1]', policy, false)).toEqual({ action: 'connect' });
    // The IPv4 a translated form carries is what a range opens.
    expect(decideHost('[::ffff:a14:1e28]', policy, false)).toEqual({ action: 'connect' });
    expect(decideHost('127.0.0.2', policy, false)).toEqual({ action: 'refuse', reason: 'refused: 127.0.0.2 is loopback' });
    expect(decideHost('11.0.0.1', policy, false)).toEqual({ action: 'connect' });
    expect(decideHost('192.168.1.1', policy, false)).toEqual({ action: 'refuse', reason: 'refused: 192.168.1.1 is private' });
    expect(decideHost('[fc00::1]', policy, false)).toEqual({ action: 'refuse', reason: 'refused: fc00::1 is unique local (private)' });
    // localhost is resolved here and judged answer by answer; a proxy's localhost is its own.
    expect(decideHost('localhost', policy, false)).toEqual({ action: 'check-on-connect' });
    expect(decideHost('localhost', policy, true)).toEqual({ action: 'refuse', reason: 'refused: localhost is loopback' });
  });
});

describe('decideAddresses', () => {
  it('passes a name whose every answer is global', () => {
    expect(decideAddresses('example.com', ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'], STRICT_POLICY)).toEqual({ ok: true });
  });

  it('refuses a name when any one answer is refused, naming it and the answer', () => {
    expect(decideAddresses('rebind.example', ['93.184.215.14', '10.0.0.5'], STRICT_POLICY)).toEqual({ ok: false, reason: 'refused: rebind.example (10.0.0.5) is private' });
    expect(decideAddresses('nat.example', ['64:ff9b::a9fe:a9fe'], STRICT_POLICY)).toEqual({ ok: false, reason: 'refused: nat.example (64:ff9b::a9fe:a9fe) is link-local (NAT64 of 169.254.169.254)' });
  });

  it('refuses no answer and answers that are not addresses', () => {
    expect(decideAddresses('empty.example', [], STRICT_POLICY)).toEqual({ ok: false, reason: 'empty.example did not resolve to any address' });
    expect(decideAddresses('odd.example', ['not-an-ip'], STRICT_POLICY)).toEqual({ ok: false, reason: 'odd.example resolved to "not-an-ip", which is not an IP address' });
  });

  it('lets allow_cidrs open an answer', () => {
    const policy = resolveFetchPolicy({ allowPrivate: false, allowCidrs: ['127.0.0.1/32'] });
    expect(decideAddresses('images.example.test', ['127.0.0.1'], policy)).toEqual({ ok: true });
    expect(decideAddresses('images.example.test', ['127.0.0.1', '::1'], policy)).toEqual({ ok: false, reason: 'refused: images.example.test (::1) is loopback' });
  });
});

describe('checkAddress', () => {
  it('is undefined for text that is not an address', () => {
    expect(checkAddress('example.com', STRICT_POLICY)).toBeUndefined();
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
