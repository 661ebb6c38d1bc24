// The two requests OAuth needs, on the built-in fetch: a form POST to the device authorization
// endpoint and to the token endpoint, each answer validated. Nothing from an answer reaches a
// message unredacted: an authorization server that echoes what it was sent cannot leak a token.
import * as z from 'zod/mini';
import { redactText } from '../log/redact.js';
import type { PollAnswer, TokenAnswer } from './decide.js';

export const OAUTH_TIMEOUT_MS = 15_000;

export type FetchLike = typeof fetch;

export type DeviceAuthorization = {
  readonly device_code: string;
  readonly user_code: string;
  readonly verification_uri: string;
  readonly verification_uri_complete?: string | undefined;
  readonly expires_in: number;
  readonly interval?: number | undefined;
};

const deviceSchema = z.object({
  device_code: z.string().check(z.minLength(1)),
  user_code: z.string().check(z.minLength(1)),
  verification_uri: z.url(),
  verification_uri_complete: z.optional(z.url()),
  expires_in: z.number().check(z.positive()),
  interval: z.optional(z.number().check(z.nonnegative())),
});

const tokenSchema = z.object({
  access_token: z.string().check(z.minLength(1)),
  token_type: z.string(),
  expires_in: z.optional(z.number().check(z.nonnegative())),
  refresh_token: z.optional(z.string().check(z.minLength(1))),
  scope: z.optional(z.string()),
});

const errorSchema = z.object({ error: z.string().check(z.minLength(1)), error_description: z.optional(z.string()) });

type Raw = { readonly ok: true; readonly status: number; readonly body: unknown } | { readonly ok: false; readonly message: string };

async function postForm(fetchImpl: FetchLike, url: string, form: Record<string, string>, signal?: AbortSignal): Promise<Raw> {
  const timeout = AbortSignal.timeout(OAUTH_TIMEOUT_MS);
  try {
    const res = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return { ok: false, message: `POST ${url} answered ${res.status} with no JSON` };
    }
    return { ok: true, status: res.status, body };
  } catch (err) {
    const why = timeout.aborted ? `no answer within ${OAUTH_TIMEOUT_MS / 1000} s` : err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
    return { ok: false, message: redactText(`POST ${url} failed: ${why}`) };
  }
}

function describeError(url: string, status: number, body: unknown): string {
  const parsed = errorSchema.safeParse(body);
  const what = parsed.success ? `${parsed.data.error}${parsed.data.error_description ? `: ${parsed.data.error_description}` : ''}` : `status ${status}`;
  return redactText(`POST ${url} answered ${what}`);
}

export async function requestDeviceAuthorization(
  fetchImpl: FetchLike,
  url: string,
  form: { client_id: string; scope?: string | undefined },
  signal?: AbortSignal,
): Promise<{ ok: true; device: DeviceAuthorization } | { ok: false; message: string }> {
  const raw = await postForm(fetchImpl, url, { client_id: form.client_id, ...(form.scope ? { scope: form.scope } : {}) }, signal);
  if (!raw.ok) return raw;
  if (raw.status !== 200) return { ok: false, message: describeError(url, raw.status, raw.body) };
  const parsed = deviceSchema.safeParse(raw.body);
  if (!parsed.success) return { ok: false, message: `POST ${url}: not a device authorization answer (${parsed.error.issues[0]?.path.join('.') ?? ''})` };
  return { ok: true, device: parsed.data };
}

/** One token request (a device-code poll or a refresh), read as the device flow's PollAnswer. */
export async function requestToken(fetchImpl: FetchLike, url: string, form: Record<string, string>, signal?: AbortSignal): Promise<PollAnswer> {
  const raw = await postForm(fetchImpl, url, form, signal);
  if (!raw.ok) return { kind: 'broken', message: raw.message };
  if (raw.status === 200) {
    const parsed = tokenSchema.safeParse(raw.body);
    if (parsed.success && parsed.data.token_type.toLowerCase() === 'bearer') return { kind: 'tokens', answer: parsed.data satisfies TokenAnswer };
    return { kind: 'broken', message: `POST ${url}: not a bearer token answer` };
  }
  const error = errorSchema.safeParse(raw.body);
  if (error.success) {
    return { kind: 'error', error: error.data.error, ...(error.data.error_description ? { description: redactText(error.data.error_description) } : {}) };
  }
  return { kind: 'broken', message: describeError(url, raw.status, raw.body) };
}
