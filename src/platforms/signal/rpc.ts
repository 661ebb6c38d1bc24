// A JSON-RPC 2.0 client for signal-cli's HTTP daemon (POST /api/v1/rpc). Every call ends as an
// `RpcOutcome` value, never a throw: the send classification (send-result.ts) decides what a
// failure means.
//
// Wire facts (signal-cli HttpServerHandler, SignalJsonRpcCommandHandler, man signal-cli-jsonrpc(5)):
// - the body must be sent with `Content-Type: application/json`, else HTTP 415;
// - a request with an id is answered HTTP 200 with a JSON-RPC response, errors included;
//   HTTP 4xx/5xx come only from the HTTP layer (wrong path 404, method 405, Host 421) or a proxy;
// - in multi-account mode a per-account method needs `params.account`; single-account mode
//   ignores it, so it is always sent when configured.
import { errorMessage } from '../../domain/error-message.js';
import { fetchWithin } from '../../runtime/fetch-within.js';
import { GROUP_PREFIX } from './envelope.js';

export type RpcOutcome =
  | { readonly kind: 'result'; readonly result: unknown }
  | { readonly kind: 'rpc_error'; readonly code: number; readonly message: string; readonly data: unknown }
  | { readonly kind: 'http'; readonly status: number; readonly body: string; readonly retryAfter: string | null }
  | { readonly kind: 'network'; readonly message: string }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'bad_response'; readonly detail: string };

export type SignalRpc = {
  readonly call: (method: string, params: Record<string, unknown> | undefined, signal?: AbortSignal) => Promise<RpcOutcome>;
  readonly send: (chatId: string, text: string, signal?: AbortSignal) => Promise<RpcOutcome>;
  readonly sendTyping: (chatId: string, signal?: AbortSignal) => Promise<RpcOutcome>;
};

export type SignalRpcOptions = {
  /** The daemon's base URL without a trailing slash. */
  readonly baseUrl: string;
  /** The bot's number; '' when the daemon runs in single-account mode and none is configured. */
  readonly account: string;
  readonly fetch?: typeof fetch;
  /** One call's limit; a send to a large group can take a while, the daemon encrypts per member. */
  readonly timeoutMs?: number;
};

export const DEFAULT_RPC_TIMEOUT_MS = 30_000;

/** Error bodies are kept up to this size for the log; the daemon's own are empty. */
const MAX_BODY = 4096;

/** `group.<id>` → groupId, anything else (a number or a sender's UUID) → recipient. */
export function targetParams(chatId: string): Record<string, unknown> {
  return chatId.startsWith(GROUP_PREFIX) ? { groupId: chatId.slice(GROUP_PREFIX.length) } : { recipient: [chatId] };
}

export function buildSendParams(chatId: string, text: string, account: string): Record<string, unknown> {
  return { ...targetParams(chatId), message: text, ...(account ? { account } : {}) };
}

export function buildTypingParams(chatId: string, account: string): Record<string, unknown> {
  return { ...targetParams(chatId), ...(account ? { account } : {}) };
}

export function createSignalRpc(options: SignalRpcOptions): SignalRpc {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
  let nextId = 1;

  async function call(method: string, params: Record<string, unknown> | undefined, signal?: AbortSignal): Promise<RpcOutcome> {
    if (signal?.aborted) return { kind: 'cancelled' };
    const id = nextId++;
    const body = JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
    const answer = await fetchWithin(
      doFetch,
      `${options.baseUrl}/api/v1/rpc`,
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body },
      { timeoutMs, ...(signal ? { signal } : {}), describe: networkMessage },
    );
    if (!answer.ok) {
      if (signal?.aborted) return { kind: 'cancelled' };
      return answer.timedOut ? { kind: 'timeout' } : { kind: 'network', message: answer.reason };
    }
    if (answer.status !== 200) {
      return { kind: 'http', status: answer.status, body: answer.text.slice(0, MAX_BODY), retryAfter: answer.headers.get('retry-after') };
    }
    return readResponse(answer.text, id);
  }

  return {
    call,
    send: (chatId, text, signal) => call('send', buildSendParams(chatId, text, options.account), signal),
    sendTyping: (chatId, signal) => call('sendTyping', buildTypingParams(chatId, options.account), signal),
  };
}

/** A JSON-RPC response body read into an outcome. Pure. */
export function readResponse(text: string, id: number): RpcOutcome {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'bad_response', detail: 'the answer is not JSON' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { kind: 'bad_response', detail: 'the answer is not a JSON-RPC response object' };
  }
  const response = json as { id?: unknown; result?: unknown; error?: unknown };
  if (response.error !== undefined && response.error !== null) {
    const error = response.error as { code?: unknown; message?: unknown; data?: unknown };
    if (typeof error.code !== 'number') return { kind: 'bad_response', detail: 'an error without a numeric code' };
    return {
      kind: 'rpc_error',
      code: error.code,
      message: typeof error.message === 'string' ? error.message : '',
      data: error.data ?? null,
    };
  }
  // Parse errors are answered with id null; anything else must echo ours.
  if (response.id !== id) return { kind: 'bad_response', detail: 'the answer is for another request id' };
  if (!('result' in response)) return { kind: 'bad_response', detail: 'neither result nor error' };
  return { kind: 'result', result: response.result };
}

/** A fetch failure as one line: the socket error's code first (ECONNREFUSED, ENOTFOUND…). */
export function networkMessage(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return `${errorMessage(err)}: ${cause.message}`;
  return errorMessage(err);
}
