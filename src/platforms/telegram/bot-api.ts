// A thin client for the Telegram Bot API: one `call` per method, JSON in, a result union out.
// Telegram's own failures (`{ok:false,error_code,description,parameters}`) and the network's are
// values here, never exceptions, so the poller and `send` decide on them with pure functions.
//
// The token is part of every URL (https://api.telegram.org/bot<token>/<method>). It never leaves
// this file in a string: anything that might quote a URL is passed through `redactToken`.

import { fetchWithin } from '../../runtime/fetch-within.js';

export type BotApiFailure =
  /** Telegram (or something in front of it) answered with an error. */
  | {
      readonly ok: false;
      readonly kind: 'api';
      /** The HTTP status. */
      readonly status: number;
      /** Telegram's `error_code`; the HTTP status when the body carried none. */
      readonly errorCode: number;
      readonly description: string;
      /** From `parameters.retry_after` (seconds on the wire). */
      readonly retryAfterMs?: number;
    }
  /** No answer: refused, reset, timed out or aborted. `reason` is safe to log. */
  | { readonly ok: false; readonly kind: 'network'; readonly reason: string; readonly timedOut: boolean };

export type BotApiResult<T = unknown> = { readonly ok: true; readonly result: T } | BotApiFailure;

export type CallOptions = {
  /** Aborts the call (the poller's stop). */
  readonly signal?: AbortSignal;
  /** Gives up after this long; a long poll passes its own timeout plus a margin. */
  readonly timeoutMs?: number;
};

export type BotApi = {
  call<T = unknown>(method: string, params?: Readonly<Record<string, unknown>>, options?: CallOptions): Promise<BotApiResult<T>>;
};

export type BotApiOptions = {
  /** `platforms.telegram.extra.api_base`, e.g. https://api.telegram.org (a fake in tests). */
  readonly apiBase: string;
  readonly token: string;
  readonly fetch?: typeof fetch;
  /** For calls that pass none. */
  readonly defaultTimeoutMs?: number;
};

export const DEFAULT_CALL_TIMEOUT_MS = 30_000;

/** Replaces the token, and any `/bot<something>/` path segment, so no log line carries it. */
export function redactToken(text: string, token: string): string {
  const withoutToken = token === '' ? text : text.split(token).join('<redacted>');
  return withoutToken.replace(/\/bot[^/\s]+\//g, '/bot<redacted>/');
}

export function createBotApi(options: BotApiOptions): BotApi {
  const doFetch = options.fetch ?? globalThis.fetch;
  const base = options.apiBase.replace(/\/+$/, '');
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;

  async function call<T>(method: string, params: Readonly<Record<string, unknown>> = {}, callOptions: CallOptions = {}): Promise<BotApiResult<T>> {
    const got = await fetchWithin(
      doFetch,
      `${base}/bot${options.token}/${method}`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) },
      { timeoutMs: callOptions.timeoutMs ?? defaultTimeoutMs, ...(callOptions.signal ? { signal: callOptions.signal } : {}), redact: (text) => redactToken(text, options.token) },
    );
    return got.ok ? readAnswer<T>(got.status, got.text) : got;
  }

  return { call };
}

type ErrorBody = { ok?: unknown; result?: unknown; error_code?: unknown; description?: unknown; parameters?: { retry_after?: unknown } };

function readAnswer<T>(status: number, text: string): BotApiResult<T> {
  let body: ErrorBody | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object') body = parsed;
  } catch {
    // A proxy's HTML error page or a cut-off body: described by its status below.
  }
  if (body?.ok === true && status >= 200 && status < 300) // The caller names the shape it expects; Telegram's result is trusted as far as that.
    return { ok: true, result: body.result as T };
  const errorCode = typeof body?.error_code === 'number' ? body.error_code : status;
  const description = typeof body?.description === 'string' ? body.description : `HTTP ${status} without a Bot API answer`;
  const retryAfter = body?.parameters?.retry_after;
  return {
    ok: false,
    kind: 'api',
    status,
    errorCode,
    description,
    ...(typeof retryAfter === 'number' && retryAfter >= 0 ? { retryAfterMs: retryAfter * 1000 } : {}),
  };
}
