// The one fetch for every address a stranger named (a model's tool call, a payload, a chat message,
// a skills hub): GET over undici with our own dispatchers (the guarded lookup when connecting
// directly, the proxy otherwise), redirects followed by hand with every hop checked again, one
// deadline for the whole fetch, and reading stopped at the byte cap. Failures are values with a
// closed code; each caller words them for its reader.
import { Agent, ProxyAgent, request, type Dispatcher } from 'undici';
import { errnoMessage } from '../config/result.js';
import type { FetchGuard } from './fetch-guard.js';
import { decideHost } from './fetch-policy.js';
import { createGuardedLookup, RefusedAddressError, systemResolver } from './guarded-lookup.js';
import { proxyFor } from './proxy-route.js';
import { discard, readCapped } from './read-body.js';
import { checkScheme, decideHop } from './redirects.js';

/** DECISIONS.md § Sandbox and fetch guard: every hop is checked, at most 5. */
export const MAX_REDIRECTS = 5;

const CONNECT_MS = 10_000;

export type GuardedRequest = {
  /** The whole fetch: connecting, redirects, headers and body. */
  readonly timeoutMs: number;
  readonly maxBytes: number;
  /** Accept, User-Agent; Accept-Encoding is the client's, since it decodes. */
  readonly headers: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
};

export type FetchFailure =
  | { readonly code: 'invalid_url' }
  /** The first URL's scheme, or a redirect that cannot be followed (no Location, too many, other scheme). */
  | { readonly code: 'not_followed'; readonly message: string }
  /** The guard's sentence; on a later hop, `redirected to <url>: ` comes before it. */
  | { readonly code: 'refused'; readonly message: string }
  | { readonly code: 'status'; readonly status: number }
  | { readonly code: 'too_large' }
  | { readonly code: 'encoding'; readonly encoding: string }
  | { readonly code: 'timeout' }
  | { readonly code: 'cancelled' }
  | { readonly code: 'network'; readonly message: string };

export type Fetched = {
  /** Where the body came from in the end, after redirects. */
  readonly url: string;
  readonly contentType: string | undefined;
  readonly body: Buffer;
};

export type GuardedResult = { readonly ok: true; readonly response: Fetched } | { readonly ok: false; readonly failure: FetchFailure };

export type GuardedClient = {
  get(url: string, request: GuardedRequest): Promise<GuardedResult>;
  close(): Promise<void>;
};

export function openGuardedClient(guard: FetchGuard): GuardedClient {
  const connect = { timeout: CONNECT_MS, lookup: createGuardedLookup(guard.resolve ?? systemResolver, guard.policy) };
  // Timers are ours (one deadline per fetch); undici's own are off.
  const common = { headersTimeout: 0, bodyTimeout: 0 };
  const direct = new Agent({ ...common, connect });
  const proxies = new Map<string, Dispatcher>();
  const dispatcherFor = (proxyUrl: string | undefined): Dispatcher => {
    if (!proxyUrl) return direct;
    let proxied = proxies.get(proxyUrl);
    if (!proxied) {
      proxied = new ProxyAgent({ ...common, uri: proxyUrl, connect: { timeout: CONNECT_MS } });
      proxies.set(proxyUrl, proxied);
    }
    return proxied;
  };

  async function get(start: string, options: GuardedRequest): Promise<GuardedResult> {
    const fail = (failure: FetchFailure): GuardedResult => ({ ok: false, failure });
    if (!URL.canParse(start)) return fail({ code: 'invalid_url' });
    let url = new URL(start);
    const scheme = checkScheme(url);
    if (!scheme.ok) return fail({ code: 'not_followed', message: scheme.reason });
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
    let redirects = 0;
    const refused = (reason: string) => fail({ code: 'refused', message: redirects > 0 ? `redirected to ${url.href}: ${reason}` : reason });
    try {
      for (; ; redirects++) {
        const proxyUrl = proxyFor(url, guard.proxy);
        const host = decideHost(url.hostname, guard.policy, proxyUrl !== undefined);
        if (host.action === 'refuse') return refused(host.reason);
        const response = await request(url, {
          method: 'GET',
          dispatcher: dispatcherFor(proxyUrl),
          signal,
          headers: { ...options.headers, 'accept-encoding': 'gzip, deflate, br' },
        });
        const hop = decideHop(url, response.statusCode, header(response.headers, 'location'), redirects, MAX_REDIRECTS);
        if (hop.kind !== 'done') {
          discard(response.body);
          if (hop.kind === 'error') return fail({ code: 'not_followed', message: hop.message });
          url = hop.url;
          continue;
        }
        if (response.statusCode < 200 || response.statusCode > 299) {
          discard(response.body);
          return fail({ code: 'status', status: response.statusCode });
        }
        const read = await readCapped(response.body, header(response.headers, 'content-encoding'), header(response.headers, 'content-length'), options.maxBytes);
        if (!read.ok) return fail(read.failure);
        return { ok: true, response: { url: url.href, contentType: header(response.headers, 'content-type'), body: read.body } };
      }
    } catch (err) {
      if (deadline.signal.aborted) return fail({ code: 'timeout' });
      if (options.signal?.aborted) return fail({ code: 'cancelled' });
      const refusedBy = refusalIn(err);
      return refusedBy ? refused(refusedBy) : fail({ code: 'network', message: errnoMessage(err) });
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    get,
    async close() {
      await Promise.all([direct, ...proxies.values()].map((d) => d.destroy().catch(() => undefined)));
    },
  };
}

/** One fetch on a client of its own, closed after: for callers that fetch now and then. */
export async function guardedGet(guard: FetchGuard, url: string, request: GuardedRequest): Promise<GuardedResult> {
  const client = openGuardedClient(guard);
  try {
    return await client.get(url, request);
  } finally {
    await client.close();
  }
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The guarded lookup's sentence, when the lookup is what failed the request. */
function refusalIn(err: unknown): string | undefined {
  if (err instanceof RefusedAddressError) return err.message;
  const cause = (err as { cause?: unknown }).cause;
  return cause instanceof RefusedAddressError ? cause.message : undefined;
}
