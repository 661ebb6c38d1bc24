// A thin client for the two Twilio REST calls Iris makes, over the built-in fetch:
//   POST {api_base}/2010-04-01/Accounts/{AccountSid}/Messages.json  (form: To, From, Body) → 201
//   GET  {api_base}/2010-04-01/Accounts/{AccountSid}.json           (credentials check)   → 200
// Both with HTTP basic auth AccountSid:AuthToken. It reports what happened on the wire and decides
// nothing; send-result.ts and the adapter read the outcome.
import { errorMessage } from '../../domain/error-message.js';
import { fetchWithin } from '../../runtime/fetch-within.js';

export type TwilioCredentials = Readonly<{ accountSid: string; authToken: string }>;

export type ApiOutcome =
  /** Twilio answered; `body` is the parsed JSON, or undefined when it was not JSON. */
  | { readonly kind: 'answer'; readonly status: number; readonly retryAfter: string | null; readonly body: unknown }
  /** No answer: the network failed, the deadline passed, or the caller gave up. */
  | { readonly kind: 'failed'; readonly reason: string };

export type OutgoingSms = Readonly<{ to: string; from: string; body: string }>;

export type MessagesApi = {
  sendMessage(message: OutgoingSms, signal?: AbortSignal): Promise<ApiOutcome>;
  fetchAccount(signal?: AbortSignal): Promise<ApiOutcome>;
};

export type MessagesApiOptions = Readonly<{
  apiBase: string;
  credentials: TwilioCredentials;
  fetch?: typeof fetch;
  /** Per request; the caller's signal can end it sooner. */
  timeoutMs?: number;
}>;

export const API_VERSION_PATH = '/2010-04-01';
const DEFAULT_TIMEOUT_MS = 15_000;

export function basicAuth(credentials: TwilioCredentials): string {
  return `Basic ${Buffer.from(`${credentials.accountSid}:${credentials.authToken}`, 'utf8').toString('base64')}`;
}

/** The secrets never leave in a reason, whatever a lower layer put into its message. */
export function redact(text: string, credentials: TwilioCredentials): string {
  let out = text;
  for (const secret of [credentials.authToken, credentials.accountSid]) {
    if (secret !== '') out = out.split(secret).join('[redacted]');
  }
  return out;
}

function unreachable(err: unknown): string {
  const cause = err instanceof Error && err.cause !== undefined ? `: ${errorMessage(err.cause)}` : '';
  return `Twilio unreachable: ${errorMessage(err)}${cause}`;
}

export function createMessagesApi(options: MessagesApiOptions): MessagesApi {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const { credentials } = options;
  const accountPath = `${options.apiBase.replace(/\/+$/, '')}${API_VERSION_PATH}/Accounts/${encodeURIComponent(credentials.accountSid)}`;

  async function call(url: string, init: Omit<RequestInit, 'signal'>, signal: AbortSignal | undefined): Promise<ApiOutcome> {
    const answer = await fetchWithin(
      doFetch,
      url,
      { ...init, headers: { ...init.headers, authorization: basicAuth(credentials), accept: 'application/json' }, redirect: 'error' },
      { timeoutMs, ...(signal ? { signal } : {}), redact: (text) => redact(text, credentials), describe: unreachable },
    );
    if (!answer.ok) {
      if (answer.timedOut) return { kind: 'failed', reason: `no answer from Twilio within ${timeoutMs} ms` };
      if (signal?.aborted) return { kind: 'failed', reason: 'cancelled' };
      return { kind: 'failed', reason: answer.reason };
    }
    // Twilio's error messages can quote the request path, which holds the AccountSid.
    const text = redact(answer.text, credentials);
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { kind: 'answer', status: answer.status, retryAfter: answer.headers.get('retry-after'), body };
  }

  return {
    sendMessage(message, signal) {
      const form = new URLSearchParams({ To: message.to, From: message.from, Body: message.body });
      return call(
        `${accountPath}/Messages.json`,
        { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() },
        signal,
      );
    },
    fetchAccount(signal) {
      return call(`${accountPath}.json`, { method: 'GET' }, signal);
    },
  };
}
