// Who is asking (DECISIONS § Dashboard sign-in and roles). Pure decisions over the request's
// peer address and headers; the server holds the session store and applies them.
import type { HeaderBag } from '../../webhook/headers.js';
import { headerValue } from '../../webhook/headers.js';
import { cookieValue, SESSION_COOKIE, type SessionStore } from './sessions.js';
import { plainAddress, type TrustedProxy } from './trusted-proxy.js';

/**
 * `token`: loopback and no password: the page carries the token, as the spec says.
 * `sign-in`: a password, a trusted proxy or both; nothing carries the token before sign-in.
 */
export type SignInMode =
  | { readonly kind: 'token' }
  | { readonly kind: 'sign-in'; readonly passwordHash: string | undefined; readonly proxy: TrustedProxy | undefined };

export type Identity = { readonly actor: string; readonly via: 'local' | 'password' | 'proxy'; readonly sessionId?: string };

/** Why the dashboard may not listen where it was asked to, or undefined. Pure. */
export function exposureProblem(host: string, loopback: boolean, passwordSet: boolean, proxySet: boolean): string | undefined {
  if (loopback || passwordSet || proxySet) return undefined;
  return [
    `${host} is not a loopback address, and other machines must sign in to reach the dashboard there.`,
    'Set a password with `iris dashboard password`, or put it behind a reverse proxy that signs people in',
    '(`dashboard.trusted_proxy` in config.yaml: docs/security.md).',
  ].join(' ');
}

export function signInMode(loopback: boolean, passwordHash: string | undefined, proxy: TrustedProxy | undefined): SignInMode {
  if (loopback && passwordHash === undefined && proxy === undefined) return { kind: 'token' };
  return { kind: 'sign-in', passwordHash, proxy };
}

export type RequestFacts = { readonly remoteAddress: string | undefined; readonly headers: HeaderBag; readonly encrypted: boolean };

/** The signed-in person, or undefined. A session found is touched (its 12 h start again). */
export function identify(mode: SignInMode, request: RequestFacts, sessions: SessionStore): Identity | undefined {
  if (mode.kind === 'token') return { actor: 'local', via: 'local' };
  if (mode.proxy?.trusts(request.remoteAddress)) {
    const user = headerValue(request.headers, mode.proxy.header)?.trim();
    if (user) return { actor: `proxy:${user.slice(0, 128)}`, via: 'proxy' };
  }
  const sessionId = cookieValue(headerValue(request.headers, 'cookie'), SESSION_COOKIE);
  const actor = sessions.touch(sessionId);
  return actor === undefined || sessionId === undefined ? undefined : { actor, via: 'password', sessionId };
}

/**
 * The address sign-in failures are counted against: the peer, or behind a trusted proxy the
 * address the proxy appended last to X-Forwarded-For (so one guesser does not lock out everyone
 * behind the proxy, and a client cannot pick its own address by sending the header directly).
 */
export function clientAddress(mode: SignInMode, request: RequestFacts): string {
  const peer = plainAddress(request.remoteAddress ?? 'unknown');
  if (mode.kind !== 'sign-in' || !mode.proxy?.trusts(request.remoteAddress)) return peer;
  const forwarded = headerValue(request.headers, 'x-forwarded-for')?.split(',').pop()?.trim();
  return forwarded ? plainAddress(forwarded).slice(0, 64) : peer;
}

/** Did the request reach us over https, directly or (from a trusted proxy) as X-Forwarded-Proto says? */
export function cameOverHttps(mode: SignInMode, request: RequestFacts): boolean {
  if (request.encrypted) return true;
  if (mode.kind !== 'sign-in' || !mode.proxy?.trusts(request.remoteAddress)) return false;
  return headerValue(request.headers, 'x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase() === 'https';
}
