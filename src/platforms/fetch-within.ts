// One HTTP exchange with a platform's API, cut off after `timeoutMs` or when the caller's signal
// aborts, with every failure a value: the Telegram, Slack and Discord clients share it. The
// caller's signal is tied to a controller of this call by a listener removed afterwards: a poller's
// signal lives as long as the gateway and must not collect one entry per call.

export type NetworkFailure = { readonly ok: false; readonly kind: 'network'; readonly reason: string; readonly timedOut: boolean };

export type Fetched = { readonly ok: true; readonly status: number; readonly headers: Headers; readonly text: string } | NetworkFailure;

export type FetchWithinOptions = {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Cleans a failure's words (a URL or message may carry a token). */
  readonly redact: (text: string) => string;
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
  // undici puts the useful part ("ECONNREFUSED 127.0.0.1:9") in `cause`; "fetch failed" alone says little.
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return { ok: false, kind: 'network', reason: options.redact(`${message}${cause}`), timedOut: false };
}
