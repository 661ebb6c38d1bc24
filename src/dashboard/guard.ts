// Who may use the dashboard API: a request that carries this start's session token, sent to a
// Host the server answers for. Pure checks; the server applies them to every request.
import { safeEqual } from '../runtime/safe-equal.js';
import type { HeaderBag } from '../webhook/headers.js';
import { headerValue } from '../webhook/headers.js';

export const TOKEN_HEADER = 'x-service-session-token';

export function hasSessionToken(headers: HeaderBag, token: string): boolean {
  const given = headerValue(headers, TOKEN_HEADER) ?? /^Bearer\s+(\S+)$/i.exec(headerValue(headers, 'authorization') ?? '')?.[1];
  return given !== undefined && safeEqual(given, token);
}

/** `[::1]` for an IPv6 literal, the name itself otherwise; lowercase. */
function hostForm(host: string): string {
  const lower = host.trim().toLowerCase();
  return lower.includes(':') && !lower.startsWith('[') ? `[${lower}]` : lower;
}

/** `host[:port]` split; `[v6]:port` understood. */
function splitHostHeader(value: string): { host: string; port: string | undefined } {
  const text = value.trim().toLowerCase();
  const v6 = /^(\[[^\]]*\])(?::(\d+))?$/.exec(text);
  if (v6) return { host: v6[1]!, port: v6[2] };
  const colon = text.lastIndexOf(':');
  if (colon > 0 && /^\d+$/.test(text.slice(colon + 1))) return { host: text.slice(0, colon), port: text.slice(colon + 1) };
  return { host: text, port: undefined };
}

/**
 * Against DNS rebinding: a page on evil.example that resolves to this machine sends `Host:
 * evil.example`. Answered: localhost, 127.0.0.1, [::1] and the bound address, with the port; and
 * `publicHosts` (on a non-loopback address: `dashboard.public_hosts`, by default the machine's
 * name and addresses), each with any port unless the entry names one.
 */
export function hostAllowed(hostHeader: string | undefined, boundHost: string, port: number, publicHosts: readonly string[] = []): boolean {
  if (!hostHeader) return false;
  const given = splitHostHeader(hostHeader);
  const exact = new Set([`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `${hostForm(boundHost)}:${port}`]);
  if (given.port !== undefined && exact.has(`${given.host}:${given.port}`)) return true;
  return publicHosts.some((entry) => {
    // A bare IPv6 address (more than one colon, no brackets) has no port; anything else may.
    const bareV6 = !entry.trim().startsWith('[') && (entry.match(/:/g) ?? []).length > 1;
    const allowed = splitHostHeader(bareV6 ? hostForm(entry) : entry);
    return allowed.host === given.host && (allowed.port === undefined || allowed.port === given.port);
  });
}
