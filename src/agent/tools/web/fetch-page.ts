// Fetching one page for web_extract: undici with our own dispatchers (a guarded lookup when
// connecting directly, the proxy otherwise), redirects followed by hand with the address check
// on every hop, one deadline for the whole page, and reading stopped at the byte cap.
import { STATUS_CODES } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Agent, ProxyAgent, request, type Dispatcher } from 'undici';
import { errnoMessage } from '../../../config/result.js';
import type { ProxySettings } from '../../../providers/wire/network.js';
import { decideHost } from './address-rules.js';
import { createGuardedLookup, RefusedAddressError, type Resolver } from './guarded-lookup.js';
import { proxyFor } from './proxy-route.js';
import { checkScheme, decideHop } from './redirects.js';

export type WebClientOptions = {
  readonly allowPrivate: boolean;
  readonly proxy: ProxySettings;
  readonly resolve: Resolver;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly maxRedirects: number;
  readonly userAgent: string;
};

export type FetchedPage = {
  /** Where the page was in the end, after redirects. */
  readonly url: string;
  readonly contentType: string | undefined;
  readonly body: Uint8Array;
};

export type PageResult = { readonly ok: true; readonly page: FetchedPage } | { readonly ok: false; readonly error: string };

export type WebClient = {
  fetchPage(url: string, signal?: AbortSignal): Promise<PageResult>;
  close(): Promise<void>;
};

export function openWebClient(options: WebClientOptions): WebClient {
  const connect = { timeout: options.timeoutMs, lookup: createGuardedLookup(options.resolve, { allowPrivate: options.allowPrivate }) };
  // Timers are ours (one deadline per page); undici's own are off.
  const common = { headersTimeout: 0, bodyTimeout: 0 };
  const direct = new Agent({ ...common, connect });
  const proxies = new Map<string, Dispatcher>();
  const dispatcherFor = (proxyUrl: string | undefined): Dispatcher => {
    if (!proxyUrl) return direct;
    let proxied = proxies.get(proxyUrl);
    if (!proxied) {
      proxied = new ProxyAgent({ ...common, uri: proxyUrl, connect: { timeout: options.timeoutMs } });
      proxies.set(proxyUrl, proxied);
    }
    return proxied;
  };

  async function fetchPage(start: string, outer?: AbortSignal): Promise<PageResult> {
    let url: URL;
    try {
      url = new URL(start);
    } catch {
      return { ok: false, error: 'not a valid URL' };
    }
    const scheme = checkScheme(url);
    if (!scheme.ok) return { ok: false, error: scheme.reason };
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
    const signal = outer ? AbortSignal.any([outer, deadline.signal]) : deadline.signal;
    let redirects = 0;
    try {
      for (; ; redirects++) {
        const proxyUrl = proxyFor(url, options.proxy);
        const host = decideHost(url.hostname, { allowPrivate: options.allowPrivate, viaProxy: proxyUrl !== undefined });
        if (host.action === 'refuse') return { ok: false, error: redirects > 0 ? `redirected to ${url.href}: ${host.reason}` : host.reason };
        const response = await request(url, {
          method: 'GET',
          dispatcher: dispatcherFor(proxyUrl),
          signal,
          headers: { 'user-agent': options.userAgent, accept: 'text/html, text/plain, application/json;q=0.9, */*;q=0.5', 'accept-encoding': 'gzip, deflate, br' },
        });
        const location = header(response.headers, 'location');
        const hop = decideHop(url, response.statusCode, location, redirects, options.maxRedirects);
        if (hop.kind !== 'done') {
          discard(response.body);
          if (hop.kind === 'error') return { ok: false, error: hop.message };
          url = hop.url;
          continue;
        }
        if (response.statusCode < 200 || response.statusCode > 299) {
          discard(response.body);
          return { ok: false, error: `HTTP ${response.statusCode}${STATUS_CODES[response.statusCode] ? ` ${STATUS_CODES[response.statusCode]}` : ''}` };
        }
        const read = await readCapped(response.body, header(response.headers, 'content-encoding'), header(response.headers, 'content-length'), options.maxBytes);
        if (!read.ok) return read;
        return { ok: true, page: { url: url.href, contentType: header(response.headers, 'content-type'), body: read.body } };
      }
    } catch (err) {
      if (deadline.signal.aborted) return { ok: false, error: `timed out: no complete page within ${formatSeconds(options.timeoutMs)}` };
      if (outer?.aborted) return { ok: false, error: 'cancelled' };
      const error = describeNetworkError(err);
      return { ok: false, error: redirects > 0 && error.startsWith('refused: ') ? `redirected to ${url.href}: ${error}` : error };
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    fetchPage,
    async close() {
      await Promise.all([direct, ...proxies.values()].map((d) => d.destroy().catch(() => undefined)));
    },
  };
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Drops a body we will not read; undici reports that as an abort, which nobody needs to hear. */
function discard(stream: Readable): void {
  stream.on('error', () => undefined);
  stream.destroy();
}

type ReadResult = { readonly ok: true; readonly body: Uint8Array } | { readonly ok: false; readonly error: string };

/** Reads the (decoded) body up to `maxBytes`; one byte more and reading stops, the socket is dropped. */
async function readCapped(body: Readable, encoding: string | undefined, length: string | undefined, maxBytes: number): Promise<ReadResult> {
  const tooLarge = { ok: false, error: `the page is larger than ${formatBytes(maxBytes)} (reading stopped at the cap)` } as const;
  if (length !== undefined && Number(length) > maxBytes && !encoding) {
    discard(body);
    return tooLarge;
  }
  const decoder = decoderFor(encoding);
  if (decoder === null) {
    discard(body);
    return { ok: false, error: `unsupported content encoding "${encoding ?? ''}"` };
  }
  const stream: Readable = decoder ? body.pipe(decoder) : body;
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) return tooLarge;
      chunks.push(chunk);
    }
  } finally {
    // Leaving the loop early (the cap) must not keep downloading.
    discard(body);
    if (decoder) discard(decoder);
  }
  return { ok: true, body: Buffer.concat(chunks) };
}

/** undefined: no decoding; null: an encoding we do not read. */
function decoderFor(encoding: string | undefined): Transform | undefined | null {
  const name = encoding?.trim().toLowerCase();
  if (!name || name === 'identity') return undefined;
  if (name === 'gzip' || name === 'x-gzip') return createGunzip();
  if (name === 'deflate') return createInflate();
  if (name === 'br') return createBrotliDecompress();
  return null;
}

function describeNetworkError(err: unknown): string {
  if (err instanceof RefusedAddressError) return err.message;
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof RefusedAddressError) return cause.message;
  return `could not fetch: ${errnoMessage(err)}`;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;
}
