import { describe, expect, it } from 'vitest';
import { createLoginLimiter } from './login-limiter.js';
import { hashPassword, parsePasswordHash, passwordProblem, verifyPassword } from './password-hash.js';
import { cookieValue, createSessionStore, sessionCookie } from './sessions.js';
import { cameOverHttps, clientAddress, exposureProblem, identify, signInMode } from './sign-in.js';
import { resolveTrustedProxy, type TrustedProxy } from './trusted-proxy.js';

// Small scrypt parameters keep these tests fast; the stored format carries them.
const FAST = { log2N: 10, r: 8, p: 1 };

describe('password hash', () => {
  it('verifies the right password and refuses others, keeping only a salted hash', async () => {
    const stored = await hashPassword('correct horse battery', FAST);
    expect(stored).toMatch(/^scrypt\$10\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(stored).not.toContain('correct');
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
    expect(await hashPassword('correct horse battery', FAST)).not.toBe(stored);
  });

  it('never matches a malformed or hostile stored value', async () => {
    for (const stored of ['', 'plain-text-password', 'scrypt$40$8$1$AAAAAAAAAAAAAAAAAAAAAA$' + 'A'.repeat(43), 'scrypt$10$8$1$short$' + 'A'.repeat(43), 'bcrypt$2b$10$xyz']) {
      expect(parsePasswordHash(stored)).toBeUndefined();
      expect(await verifyPassword('anything', stored)).toBe(false);
    }
  });

  it('names what is wrong with a password', () => {
    expect(passwordProblem('short')).toBe('the password must have at least 10 characters');
    expect(passwordProblem('x'.repeat(1025))).toBe('the password may have at most 1024 characters');
    expect(passwordProblem('line one\nline two')).toBe('the password cannot contain line breaks or NUL');
    expect(passwordProblem('a good long one')).toBeUndefined();
  });
});

describe('sessions', () => {
  it('slide for 12 hours from the last request, and end on sign-out', () => {
    let now = 0;
    let n = 0;
    const sessions = createSessionStore({ now: () => now, newId: () => `id${++n}` });
    const id = sessions.create('password');
    now = 11 * 3600_000;
    expect(sessions.touch(id)).toBe('password');
    now += 11 * 3600_000; // 22 h after creation, 11 h after the last request
    expect(sessions.touch(id)).toBe('password');
    now += 12 * 3600_000 + 1;
    expect(sessions.touch(id)).toBeUndefined();
    const other = sessions.create('password');
    sessions.end(other);
    expect(sessions.touch(other)).toBeUndefined();
    expect(sessions.touch(undefined)).toBeUndefined();
    expect(sessions.touch('forged')).toBeUndefined();
  });

  it('keeps at most `max`, dropping the one unused longest', () => {
    let n = 0;
    const sessions = createSessionStore({ max: 2, newId: () => `id${++n}` });
    const a = sessions.create('x');
    const b = sessions.create('x');
    expect(sessions.touch(a)).toBe('x');
    sessions.create('x');
    expect(sessions.size()).toBe(2);
    expect(sessions.touch(b)).toBeUndefined();
    expect(sessions.touch(a)).toBe('x');
  });

  it('reads and writes the cookie', () => {
    expect(cookieValue('a=1; iris_session=abc; b=2', 'iris_session')).toBe('abc');
    expect(cookieValue('xiris_session=abc', 'iris_session')).toBeUndefined();
    expect(cookieValue(undefined, 'iris_session')).toBeUndefined();
    expect(sessionCookie('abc', false)).toBe('iris_session=abc; HttpOnly; SameSite=Strict; Path=/');
    expect(sessionCookie('abc', true)).toBe('iris_session=abc; HttpOnly; SameSite=Strict; Path=/; Secure');
    expect(sessionCookie(undefined, false)).toBe('iris_session=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0');
  });
});

describe('login limiter', () => {
  it('refuses the 6th failure within 60 s with the seconds until a slot frees', () => {
    let now = 1_000_000;
    const limiter = createLoginLimiter({ now: () => now });
    for (let i = 0; i < 5; i++) {
      expect(limiter.begin('10.0.0.1')).toEqual({ ok: true });
      limiter.settle('10.0.0.1', true);
      now += 1_000;
    }
    expect(limiter.begin('10.0.0.1')).toEqual({ ok: false, retryAfterSeconds: 55 });
    expect(limiter.begin('10.0.0.2')).toEqual({ ok: true }); // another address is not affected
    now += 55_000;
    expect(limiter.begin('10.0.0.1')).toEqual({ ok: true });
  });

  it('counts tries still being checked, so a burst cannot slip past', () => {
    const limiter = createLoginLimiter({ now: () => 0 });
    for (let i = 0; i < 5; i++) expect(limiter.begin('a')).toEqual({ ok: true });
    expect(limiter.begin('a').ok).toBe(false);
    limiter.settle('a', false); // a success frees its place
    expect(limiter.begin('a')).toEqual({ ok: true });
  });
});

describe('trusted proxy', () => {
  const proxy = (from: string[]): TrustedProxy => {
    const resolved = resolveTrustedProxy({ header: 'X-Forwarded-User', from });
    if (!resolved.ok) throw new Error(resolved.error);
    return resolved.proxy;
  };

  it('trusts only the listed addresses and ranges, IPv4-mapped forms included', () => {
    const p = proxy(['127.0.0.1/32', '10.1.0.0/16', 'fd00::/8']);
    expect(p.header).toBe('x-forwarded-user');
    expect(['127.0.0.1', '::ffff:127.0.0.1', '10.1.200.3', 'fd12::1'].map(p.trusts)).toEqual([true, true, true, true]);
    expect(['127.0.0.2', '10.2.0.1', '::1', 'fe80::1', undefined, 'garbage'].map(p.trusts)).toEqual([false, false, false, false, false, false]);
  });

  it('refuses a setting that is not addresses', () => {
    expect(resolveTrustedProxy({ header: 'X-User', from: ['proxy.lan'] })).toEqual({ ok: false, error: 'dashboard.trusted_proxy.from: "proxy.lan" is not an IP address or CIDR range' });
    expect(resolveTrustedProxy({ header: 'X-User', from: ['10.0.0.0/33'] }).ok).toBe(false);
    expect(resolveTrustedProxy({ header: 'X-User', from: [] }).ok).toBe(false);
    expect(resolveTrustedProxy({ header: 'X User', from: ['127.0.0.1'] }).ok).toBe(false);
  });
});

describe('who is asking', () => {
  const proxy = (() => {
    const resolved = resolveTrustedProxy({ header: 'X-Forwarded-User', from: ['127.0.0.1'] });
    if (!resolved.ok) throw new Error(resolved.error);
    return resolved.proxy;
  })();

  it('needs a way to sign in on a non-loopback address', () => {
    expect(exposureProblem('0.0.0.0', false, false, false)).toContain('iris dashboard password');
    expect(exposureProblem('0.0.0.0', false, false, false)).toContain('dashboard.trusted_proxy');
    expect(exposureProblem('0.0.0.0', false, true, false)).toBeUndefined();
    expect(exposureProblem('0.0.0.0', false, false, true)).toBeUndefined();
    expect(exposureProblem('127.0.0.1', true, false, false)).toBeUndefined();
    expect(signInMode(true, undefined, undefined)).toEqual({ kind: 'token' });
    expect(signInMode(true, 'h', undefined)).toEqual({ kind: 'sign-in', passwordHash: 'h', proxy: undefined });
  });

  it('believes the proxy header only from the proxy, and a cookie only when its session lives', () => {
    const sessions = createSessionStore({ newId: () => 'sid' });
    const mode = signInMode(false, 'hash', proxy);
    const fromProxy = { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-user': 'ada' }, encrypted: false };
    expect(identify(mode, fromProxy, sessions)).toEqual({ actor: 'proxy:ada', via: 'proxy' });
    expect(identify(mode, { ...fromProxy, remoteAddress: '127.0.0.2' }, sessions)).toBeUndefined();
    expect(identify(mode, { ...fromProxy, headers: { cookie: 'iris_session=sid' } }, sessions)).toBeUndefined();
    sessions.create('password');
    expect(identify(mode, { remoteAddress: '127.0.0.2', headers: { cookie: 'iris_session=sid' }, encrypted: false }, sessions)).toEqual({ actor: 'password', via: 'password', sessionId: 'sid' });
    expect(identify({ kind: 'token' }, { remoteAddress: '127.0.0.1', headers: {}, encrypted: false }, sessions)).toEqual({ actor: 'local', via: 'local' });
  });

  it('takes the client address and https from the proxy only', () => {
    const mode = signInMode(false, 'hash', proxy);
    const viaProxy = { remoteAddress: '::ffff:127.0.0.1', headers: { 'x-forwarded-for': '1.2.3.4, 203.0.113.9', 'x-forwarded-proto': 'https' }, encrypted: false };
    expect(clientAddress(mode, viaProxy)).toBe('203.0.113.9');
    expect(cameOverHttps(mode, viaProxy)).toBe(true);
    const direct = { ...viaProxy, remoteAddress: '198.51.100.7' };
    expect(clientAddress(mode, direct)).toBe('198.51.100.7');
    expect(cameOverHttps(mode, direct)).toBe(false);
    expect(cameOverHttps(mode, { ...direct, encrypted: true })).toBe(true);
  });
});
