// Fetching an image (or a skill's file, or a hub's index) over http(s), through the fetch guard:
// the address was named by a model, a chat message or a hub, so where it leads is checked on every
// hop (src/net/guarded-fetch.ts). One timer bounds the whole download, headers and body together:
// a server that trickles a byte a second never goes idle, so an idle timeout alone would let it
// hold a run for as long as it likes. Reading stops at the byte cap.
import type { FetchGuard } from '../../../net/fetch-guard.js';
import { guardedGet, type FetchFailure } from '../../../net/guarded-fetch.js';

export type DownloadOptions = {
  readonly timeoutMs: number;
  readonly maxBytes: number;
  /** Where downloads may go (tools.web) and through which proxy (HTTPS_PROXY / NO_PROXY). */
  readonly guard: FetchGuard;
  readonly signal?: AbortSignal;
  /** The Accept header; images by default (skill hubs ask for JSON and Markdown). */
  readonly accept?: string;
};

export type Download =
  | { readonly ok: true; readonly bytes: Buffer; readonly contentType: string }
  | { readonly ok: false; readonly error: string };

export function isHttpUrl(text: string): boolean {
  return /^https?:\/\//i.test(text.trim());
}

export async function downloadBytes(url: string, options: DownloadOptions): Promise<Download> {
  const result = await guardedGet(options.guard, url, {
    timeoutMs: options.timeoutMs,
    maxBytes: options.maxBytes,
    headers: { accept: options.accept ?? 'image/*' },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (result.ok) return { ok: true, bytes: result.response.body, contentType: result.response.contentType ?? '' };
  return { ok: false, error: describeDownloadFailure(url, result.failure, options) };
}

/** A refusal is the guard's own sentence, so every caller (tool, CLI) says it the same way. */
function describeDownloadFailure(url: string, failure: FetchFailure, options: DownloadOptions): string {
  switch (failure.code) {
    case 'refused':
      return failure.message;
    case 'status':
      return `${url} answered ${failure.status}`;
    case 'too_large':
      return `${url} is larger than ${Math.round((options.maxBytes / (1024 * 1024)) * 10) / 10} MB; reading stopped there`;
    case 'timeout':
      return `the download of ${url} did not finish within ${options.timeoutMs / 1000} s`;
    case 'cancelled':
      return 'the download was cancelled';
    case 'invalid_url':
      return `could not download ${url}: not a valid URL`;
    case 'encoding':
      return `could not download ${url}: unsupported content encoding "${failure.encoding}"`;
    case 'not_followed':
    case 'network':
      return `could not download ${url}: ${failure.message}`;
  }
}
