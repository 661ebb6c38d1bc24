// Following redirects by hand, so every hop goes back through the address check and the count
// is ours: at most `maxRedirects` hops (5 for every guarded fetch).

export type HopDecision =
  | { readonly kind: 'done' }
  | { readonly kind: 'follow'; readonly url: URL }
  | { readonly kind: 'error'; readonly message: string };

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** After a response: stop (`done`), follow the Location, or fail. `redirectsSoFar` excludes this one. */
export function decideHop(current: URL, status: number, location: string | undefined, redirectsSoFar: number, maxRedirects: number): HopDecision {
  if (!REDIRECT_STATUSES.has(status)) return { kind: 'done' };
  if (!location) return { kind: 'error', message: `HTTP ${status} redirect without a Location header` };
  if (redirectsSoFar >= maxRedirects) return { kind: 'error', message: `more than ${maxRedirects} redirects` };
  let next: URL;
  try {
    next = new URL(location, current);
  } catch {
    return { kind: 'error', message: `HTTP ${status} redirect to an invalid URL "${location}"` };
  }
  const scheme = checkScheme(next);
  if (!scheme.ok) return { kind: 'error', message: `redirected to ${next.href}: ${scheme.reason}` };
  return { kind: 'follow', url: next };
}

export function checkScheme(url: URL): { readonly ok: true } | { readonly ok: false; readonly reason: string } {
  return url.protocol === 'http:' || url.protocol === 'https:' ? { ok: true } : { ok: false, reason: `only http and https URLs are fetched, not ${url.protocol.replace(/:$/, '')}` };
}
