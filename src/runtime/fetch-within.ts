// One HTTP exchange with a remote API, cut off after `timeoutMs` or when the caller's signal
// aborts, with every failure a value: the chat platforms' clients (Telegram, Slack, Discord, the
// Signal daemon's RPC and check, Twilio) share it. The caller's signal is tied to a controller of
// this call by a listener removed afterwards: a poller's signal lives as long as the gateway and
// must not collect one entry per call (AbortSignal.any would keep one for as long as it lives).

export type NetworkFailure = { readonly ok: false; readonly kind: 'network'; readonly reason: string; readonly timedOut: boolean };

export type Fetched = { readonly ok: true; readonly status: number; readonly headers: Headers; readonly text: string } | NetworkFailure;

export type FetchWithinOptions = {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Cleans a failure's words (a URL or message may carry a token); nothing is cleaned without it. */
  readonly redact?: (text: string) => string;
  /** Words a thrown fetch error (before `redact`); by default its message and its cause's. */
  readonly describe?: (error: unknown) => string;
};

export async function fetchWithin(doFetch: typeof fetch, url: string, init: Omit<RequestInit, 'signal'>, options: FetchWithinOptions): Promise<Fetched> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  const forward = () => controller.abort();
  if (options.signal?.aborted) controller.abort();
  else options.signal?.addEventListener('abort', forward, { once: true });
  try {
    const response = await doFetch(url, { ...init, signal: controller.signal });
    const text = await response.text();
    return { ok: true, status: response.status, headers: response.headers, text };
  } catch (error) {
    return networkFailure(error, timedOut, options);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', forward);
  }
}

function networkFailure(error: unknown, timedOut: boolean, options: FetchWithinOptions): NetworkFailure {
  if (timedOut) return { ok: false, kind: 'network', reason: `no answer within ${options.timeoutMs} ms`, timedOut: true };
  if (error instanceof Error && error.name === 'AbortError') return { ok: false, kind: 'network', reason: 'aborted', timedOut: false };
  const words = (options.describe ?? messageWithCause)(error);
  return { ok: false, kind: 'network', reason: options.redact ? options.redact(words) : words, timedOut: false };
}

/** undici puts the useful part ("ECONNREFUSED 127.0.0.1:9") in `cause`; "fetch failed" alone says little. */
function messageWithCause(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${message}${cause}`;
}
