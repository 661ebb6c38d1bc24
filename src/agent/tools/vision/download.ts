// Fetching an image over http(s). One timer bounds the whole download, headers and body together:
// a server that trickles a byte a second never goes idle, so an idle timeout alone would let it
// hold a run for as long as it likes. Reading stops at the byte cap instead of buffering whatever
// the server sends and measuring afterwards.
import { fetch, type Dispatcher } from 'undici';
import { networkMessage } from '../../../providers/wire/sse-request.js';

export type DownloadOptions = {
  readonly timeoutMs: number;
  readonly maxBytes: number;
  /** The process's proxy-aware dispatcher (HTTPS_PROXY / NO_PROXY). */
  readonly dispatcher?: Dispatcher;
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
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(), options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timer.signal, options.signal]) : timer.signal;
  const why = (err: unknown): Download => {
    if (timer.signal.aborted) return { ok: false, error: `the download of ${url} did not finish within ${options.timeoutMs / 1000} s` };
    if (options.signal?.aborted) return { ok: false, error: 'the download was cancelled' };
    return { ok: false, error: `could not download ${url}: ${networkMessage(err)}` };
  };
  try {
    const response = await fetch(url, {
      signal,
      redirect: 'follow',
      headers: { accept: options.accept ?? 'image/*' },
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return { ok: false, error: `${url} answered ${response.status}` };
    }
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > options.maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      return { ok: false, error: tooLarge(url, options.maxBytes) };
    }
    const contentType = response.headers.get('content-type') ?? '';
    if (!response.body) return { ok: true, bytes: Buffer.alloc(0), contentType };
    const chunks: Buffer[] = [];
    let total = 0;
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > options.maxBytes) {
        await reader.cancel().catch(() => undefined);
        return { ok: false, error: tooLarge(url, options.maxBytes) };
      }
      chunks.push(Buffer.from(value));
    }
    return { ok: true, bytes: Buffer.concat(chunks), contentType };
  } catch (err) {
    return why(err);
  } finally {
    clearTimeout(timeout);
  }
}

function tooLarge(url: string, maxBytes: number): string {
  return `${url} is larger than ${Math.round((maxBytes / (1024 * 1024)) * 10) / 10} MB; reading stopped there`;
}
