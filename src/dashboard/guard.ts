// Who may use the dashboard API: a request that carries this start's session token, sent to a
// Host the server answers for. Pure checks; the server applies them to every request.
import { isLoopbackHost } from '../webhook/route-checks.js';
import { safeEqual } from '../webhook/verify.js';
import type { HeaderBag } from '../webhook/headers.js';
import { headerValue } from '../webhook/headers.js';

export const TOKEN_HEADER = 'x-service-session-token';

export function hasSessionToken(headers: HeaderBag, token: string): boolean {
  const given = headerValue(headers, TOKEN_HEADER) ?? /^Bearer\s+(\S+)$/i.exec(headerValue(headers, 'authorization') ?? '')?.[1];
  return given !== undefined && safeEqual(given, token);
}

/**
 * Against DNS rebinding: a page on evil.example that resolves to 127.0.0.1 sends `Host:
 * evil.example`. Only the bound address, localhost and 127.0.0.1 (with the port) are answered;
 * a server bound to a non-loopback address on purpose (`--allow-remote`) answers any Host, and
 * relies on the token alone.
 */
export function hostAllowed(hostHeader: string | undefined, boundHost: string, port: number, allowRemote: boolean): boolean {
  if (allowRemote && !isLoopbackHost(boundHost)) return true;
  if (!hostHeader) return false;
  const allowed = new Set([`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]);
  allowed.add(boundHost.includes(':') && !boundHost.startsWith('[') ? `[${boundHost}]:${port}` : `${boundHost}:${port}`);
  return allowed.has(hostHeader.trim().toLowerCase());
}
