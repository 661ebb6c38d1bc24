// A thin client for Discord's REST API: one `request` per call, JSON in, a result union out.
// Discord's own failures ({message, code}, 429 with {retry_after, global}) and the network's are
// values here, never exceptions, so the adapter decides on them with pure functions. Every answer
// carries the route's rate-limit headers (X-RateLimit-*) read into `rateLimit`.
//
// The token travels in the Authorization header (`Bot <token>`) only; anything that might quote it
// (an error message) passes through `redactToken`.

import { fetchWithin } from '../../runtime/fetch-within.js';
export type RateLimitHeaders = {
  /** X-RateLimit-Remaining: sends left in the window. */
  readonly remaining?: number;
  /** X-RateLimit-Reset-After, in ms (seconds with a fraction on the wire). */
  readonly resetAfterMs?: number;
  readonly bucket?: string;
};

export type RestFailure =
  | {
      readonly ok: false;
      readonly kind: 'api';
      readonly status: number;
      /** Discord's JSON error code (0 when none). */
      readonly code: number;
      readonly message: string;
      /** 429: the body's retry_after (seconds on the wire), else the Retry-After header. */
      readonly retryAfterMs?: number;
      readonly global?: boolean;
      readonly rateLimit: RateLimitHeaders;
    }
  | { readonly ok: false; readonly kind: 'network'; readonly reason: string; readonly timedOut: boolean };

export type RestResult<T = unknown> = { readonly ok: true; readonly status: number; readonly body: T; readonly rateLimit: RateLimitHeaders } | RestFailure;

export type RequestOptions = { readonly signal?: AbortSignal; readonly timeoutMs?: number; readonly body?: unknown };

export type DiscordRest = {
  request<T = unknown>(method: 'GET' | 'POST', path: string, options?: RequestOptions): Promise<RestResult<T>>;
};

export type DiscordRestOptions = {
  /** `platforms.discord.extra.api_base`, e.g. https://discord.com/api/v10. */
  readonly apiBase: string;
  readonly token: string;
  readonly fetch?: typeof fetch;
  readonly defaultTimeoutMs?: number;
};

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export function redactToken(text: string, token: string): string {
  return token === '' ? text : text.split(token).join('<redacted>');
}

function num(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** The X-RateLimit-* headers Iris acts on. Pure. */
export function readRateLimitHeaders(headers: { get(name: string): string | null }): RateLimitHeaders {
  const remaining = num(headers.get('x-ratelimit-remaining'));
  const resetAfter = num(headers.get('x-ratelimit-reset-after'));
  const bucket = headers.get('x-ratelimit-bucket');
  return {
    ...(remaining !== undefined ? { remaining } : {}),
    ...(resetAfter !== undefined ? { resetAfterMs: Math.ceil(resetAfter * 1000) } : {}),
    ...(bucket ? { bucket } : {}),
  };
}

export function createDiscordRest(options: DiscordRestOptions): DiscordRest {
  const doFetch = options.fetch ?? globalThis.fetch;
  const base = options.apiBase.replace(/\/+$/, '');
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;

  async function request<T>(method: 'GET' | 'POST', path: string, callOptions: RequestOptions = {}): Promise<RestResult<T>> {
    const headers = {
      authorization: `Bot ${options.token}`,
      'user-agent': 'DiscordBot (https://github.com/iris, 1) Iris',
      ...(callOptions.body !== undefined ? { 'content-type': 'application/json' } : {}),
    };
    const got = await fetchWithin(
      doFetch,
      `${base}${path}`,
      { method, headers, ...(callOptions.body !== undefined ? { body: JSON.stringify(callOptions.body) } : {}) },
      { timeoutMs: callOptions.timeoutMs ?? defaultTimeoutMs, ...(callOptions.signal ? { signal: callOptions.signal } : {}), redact: (text) => redactToken(text, options.token) },
    );
    return got.ok ? readAnswer<T>(got.status, got.headers, got.text, options.token) : got;
  }

  return { request };
}

type ErrorBody = { message?: unknown; code?: unknown; retry_after?: unknown; global?: unknown };

function readAnswer<T>(status: number, headers: Headers, text: string, token: string): RestResult<T> {
  const rateLimit = readRateLimitHeaders(headers);
  let body: unknown = null;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // A proxy's HTML page or a cut-off body: described by its status below.
  }
  // The caller names the shape it expects; Discord's answer is trusted as far as that.
  if (status >= 200 && status < 300) return { ok: true, status, body: body as T, rateLimit };
  const fields: ErrorBody = body !== null && typeof body === 'object' ? body : {};
  const retryAfter = typeof fields.retry_after === 'number' && fields.retry_after >= 0 ? fields.retry_after : num(headers.get('retry-after'));
  return {
    ok: false,
    kind: 'api',
    status,
    code: typeof fields.code === 'number' ? fields.code : 0,
    message: redactToken(typeof fields.message === 'string' ? fields.message : `HTTP ${status} without a Discord answer`, token),
    ...(status === 429 && retryAfter !== undefined ? { retryAfterMs: Math.ceil(retryAfter * 1000) } : {}),
    ...(fields.global === true ? { global: true } : {}),
    rateLimit,
  };
}
