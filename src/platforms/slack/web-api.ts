// A thin client for the Slack Web API: one `call` per method (POST <api_base>/<method>, JSON body,
// `Authorization: Bearer <token>`), the answer as a value. Slack reports most failures as HTTP 200
// with `{ok:false,error:"<code>"}`; a rate limit is HTTP 429 with a `Retry-After` header (seconds).
// Network failures are values too, so the socket loop and `send` decide with pure functions.
//
// Tokens travel only in the Authorization header; anything that might quote one in a log line
// goes through `redactSlackTokens`.

import { fetchWithin } from '../../runtime/fetch-within.js';
export type WebApiFailure =
  /** Slack (or something in front of it) answered, with ok:false or a non-2xx status. */
  | {
      readonly ok: false;
      readonly kind: 'api';
      readonly status: number;
      /** Slack's `error` code (invalid_auth, channel_not_found, ratelimited…); `http_<status>` without one. */
      readonly error: string;
      /** From the Retry-After header. */
      readonly retryAfterMs?: number;
    }
  /** No answer: refused, reset, timed out or aborted. `reason` is safe to log. */
  | { readonly ok: false; readonly kind: 'network'; readonly reason: string; readonly timedOut: boolean };

/** `body` is the whole answer (Slack puts its fields at the top level, next to `ok`). */
export type WebApiResult<T = Record<string, unknown>> = { readonly ok: true; readonly body: T } | WebApiFailure;

export type WebCallOptions = { readonly signal?: AbortSignal; readonly timeoutMs?: number };

export type WebApi = {
  call<T = Record<string, unknown>>(method: string, token: string, params?: Readonly<Record<string, unknown>>, options?: WebCallOptions): Promise<WebApiResult<T>>;
};

export type WebApiOptions = {
  /** `platforms.slack.extra.api_base`, https://slack.com/api (a fake in tests). */
  readonly apiBase: string;
  readonly fetch?: typeof fetch;
  readonly defaultTimeoutMs?: number;
};

export const DEFAULT_WEB_TIMEOUT_MS = 30_000;

/** Replaces anything shaped like a Slack token (xoxb-, xoxp-, xapp-, xoxe-…). */
export function redactSlackTokens(text: string): string {
  return text.replace(/\bx(?:ox[a-z]|app)-[A-Za-z0-9-]+/g, '<redacted>');
}

export function createWebApi(options: WebApiOptions): WebApi {
  const doFetch = options.fetch ?? globalThis.fetch;
  const base = options.apiBase.replace(/\/+$/, '');
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_WEB_TIMEOUT_MS;

  async function call<T>(method: string, token: string, params: Readonly<Record<string, unknown>> = {}, callOptions: WebCallOptions = {}): Promise<WebApiResult<T>> {
    const got = await fetchWithin(
      doFetch,
      `${base}/${method}`,
      { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(params) },
      { timeoutMs: callOptions.timeoutMs ?? defaultTimeoutMs, ...(callOptions.signal ? { signal: callOptions.signal } : {}), redact: redactSlackTokens },
    );
    return got.ok ? readAnswer<T>(got.status, got.headers.get('retry-after'), got.text) : got;
  }

  return { call };
}

/** Pure: one HTTP answer read into a result. */
export function readAnswer<T>(status: number, retryAfter: string | null, text: string): WebApiResult<T> {
  let body: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
  } catch {
    // A proxy's HTML error page or a cut-off body: described by its status below.
  }
  // The caller names the shape it expects; Slack's answer is trusted as far as that.
  if (body?.ok === true && status >= 200 && status < 300) return { ok: true, body: body as T };
  const error = typeof body?.error === 'string' && body.error !== '' ? body.error : `http_${status}`;
  const seconds = retryAfter !== null && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter.trim()) : undefined;
  return { ok: false, kind: 'api', status, error, ...(seconds !== undefined ? { retryAfterMs: seconds * 1000 } : {}) };
}

/** One line for the log, `state()` and the doctor; never contains a token. */
export function describeWebFailure(failure: WebApiFailure): string {
  if (failure.kind === 'network') return `Slack unreachable: ${failure.reason}`;
  if (failure.status === 429) return `rate limited by Slack (429${failure.retryAfterMs !== undefined ? `, retry after ${failure.retryAfterMs / 1000} s` : ''})`;
  return failure.status === 200 ? `Slack: ${failure.error}` : `Slack ${failure.status}: ${failure.error}`;
}

/** Slack's answers to a token it does not take. */
export const AUTH_ERRORS: ReadonlySet<string> = new Set(['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'token_expired', 'not_allowed_token_type', 'no_permission', 'missing_scope']);
