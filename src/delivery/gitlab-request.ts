// One request to GitLab's REST API v4, for every GitLab client (comments, the diff, review
// discussions): the token in PRIVATE-TOKEN, a deadline that covers reading the body too (a server
// that trickles bytes is cut off), the body read only up to a cap, no redirects (fetch would carry
// PRIVATE-TOKEN, not a header it strips, to the new origin), and every failure a value whose
// message has been through redactText with the token cut out (GitLab's `glpat-` tokens match none
// of redactText's patterns, and a hostile server could echo the token back).
import { Buffer } from 'node:buffer';
import * as z from 'zod/mini';
import { REDACTED, redactText } from '../log/redact.js';
import type { CallOptions, ForgeFailure, ForgeFailureCode, ForgeResult } from './pr-forge.js';

export type GitlabConnection = {
  /** e.g. https://gitlab.com/api/v4 (a trailing slash is tolerated). */
  readonly apiBase: string;
  readonly token: string;
  readonly fetch?: typeof fetch;
  readonly timeoutMs?: number;
};

export type GitlabCall = {
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly path: string;
  readonly query?: ReadonlyArray<readonly [string, string]>;
  readonly body?: unknown;
  /** The most of the response body read; past it the call fails. */
  readonly maxBytes: number;
};

/** A 2xx answer: the body as text, and as JSON (null when it is not JSON). */
export type GitlabAnswer = { readonly status: number; readonly headers: Headers; readonly text: string; readonly json: unknown };

export type GitlabRequest = (what: string, call: GitlabCall, options?: CallOptions) => Promise<ForgeResult<GitlabAnswer>>;

const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_QUOTED_CHARS = 300;

const errorSchema = z.looseObject({ message: z.optional(z.unknown()), error: z.optional(z.unknown()) });

export const forgeFailure = (code: ForgeFailureCode, retryable: boolean, message: string): ForgeFailure => ({ ok: false, code, retryable, message });

export function createGitlabRequest(connection: GitlabConnection): { readonly request: GitlabRequest; readonly clean: (text: string) => string } {
  const apiBase = connection.apiBase.replace(/\/+$/, '');
  const doFetch = connection.fetch ?? fetch;
  const timeoutMs = connection.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const clean = (text: string) => {
    const redacted = redactText(text);
    return connection.token === '' ? redacted : redacted.split(connection.token).join(REDACTED);
  };

  const request: GitlabRequest = async (what, call, options) => {
    const url = new URL(`${apiBase}${call.path}`);
    for (const [key, value] of call.query ?? []) url.searchParams.append(key, value);
    const headers: Record<string, string> = { 'PRIVATE-TOKEN': connection.token, accept: 'application/json' };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const forward = () => controller.abort();
    const signal = options?.signal;
    if (signal?.aborted) controller.abort();
    else signal?.addEventListener('abort', forward, { once: true });
    try {
      const response = await doFetch(url, { method: call.method, headers, body: call.body === undefined ? undefined : JSON.stringify(call.body), signal: controller.signal, redirect: 'error' });
      const text = await readCapped(response, call.maxBytes);
      if (text === null) return forgeFailure('failed', false, `GitLab ${what}: the response is larger than ${call.maxBytes} bytes`);
      const json = parseJson(text);
      if (response.status >= 200 && response.status < 300) return { ok: true, value: { status: response.status, headers: response.headers, text, json } };
      const said = quoteError(json);
      const detail = clean(`GitLab ${what}: HTTP ${response.status}${said === '' ? '' : `: ${said}`}`);
      if (response.status === 401 || response.status === 403) return forgeFailure('unauthenticated', false, `${detail} (check GITLAB_TOKEN)`);
      if (response.status === 404) return forgeFailure('not_found', false, detail);
      return forgeFailure('failed', response.status === 429 || response.status >= 500, detail);
    } catch (error) {
      if (timedOut) return forgeFailure('timeout', true, `GitLab ${what}: no answer within ${timeoutMs} ms`);
      if (signal?.aborted) return forgeFailure('cancelled', false, `GitLab ${what}: cancelled`);
      // undici puts the useful part ("ECONNREFUSED 127.0.0.1:9") in `cause`.
      const message = error instanceof Error ? error.message : String(error);
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
      return forgeFailure('failed', true, clean(`GitLab ${what}: ${message}${cause}`));
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
    }
  };

  return { request, clean };
}

/** The body as text, or null once it passes `cap` bytes (the rest is never read). */
export async function readCapped(response: Response, cap: number): Promise<string | null> {
  if (!response.body) return '';
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > cap) return null;
      chunks.push(value);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** GitLab's own words: `message` (a string, or an object of field errors) or `error`, cut short. */
export function quoteError(json: unknown): string {
  const parsed = errorSchema.safeParse(json);
  if (!parsed.success) return '';
  const said = parsed.data.message ?? parsed.data.error;
  if (said === undefined || said === null) return '';
  const text = typeof said === 'string' ? said : JSON.stringify(said);
  return text.length > MAX_QUOTED_CHARS ? `${text.slice(0, MAX_QUOTED_CHARS)}…` : text;
}
