// The one model interface every wire client implements: a provider-neutral request in, an async
// stream of events out. Failures arrive as a final `error` event (a value), never as a throw, so
// the routing layer can classify them without try/catch around every call.

import type { Message, ToolCall } from '../../domain/messages.js';

export type ApiMode = 'chat_completions' | 'codex_responses' | 'anthropic_messages';

export type ToolDefinition = {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments object. */
  readonly parameters: Readonly<Record<string, unknown>>;
};

export type ModelRequest = {
  readonly model: string;
  readonly system?: string;
  readonly messages: readonly Message[];
  readonly tools?: readonly ToolDefinition[];
  readonly maxOutputTokens?: number;
  /** Merged last into the wire body (config `extra_body`). */
  readonly extraBody?: Readonly<Record<string, unknown>>;
  readonly signal?: AbortSignal;
};

export type Usage = {
  /** All input tokens, cached ones included. */
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Input tokens read from the prompt cache (part of inputTokens). */
  readonly cachedInputTokens: number;
  /** Input tokens written to the prompt cache (part of inputTokens); only Anthropic reports them. */
  readonly cacheWriteInputTokens: number;
};

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'other';

export type ModelErrorCode =
  /** No endpoint URL or no credential for this route: nothing was sent. */
  | 'not_configured'
  | 'bad_request'
  | 'unsupported_operation'
  | 'context_overflow'
  | 'content_filter'
  | 'auth'
  | 'forbidden'
  | 'not_found'
  | 'rate_limited'
  | 'quota'
  | 'overloaded'
  | 'server'
  | 'timeout'
  | 'network'
  | 'cancelled'
  | 'malformed_stream'
  | 'truncated_stream';

export type ModelError = {
  readonly code: ModelErrorCode;
  readonly message: string;
  readonly status?: number;
  /** From a `retry-after` / `retry-after-ms` header. */
  readonly retryAfterMs?: number;
  /** The provider's own error code (`DeploymentNotFound`, `OperationNotSupported`…). */
  readonly providerCode?: string;
  /** A troubleshooting hint from the spec's error table, when one applies. */
  readonly hint?: string;
  /** True once any text or tool call has been emitted: such a failure must not fall back. */
  readonly afterOutput: boolean;
};

export type StreamEvent =
  | { readonly type: 'text_delta'; readonly text: string }
  | { readonly type: 'tool_call'; readonly call: ToolCall }
  | { readonly type: 'usage'; readonly usage: Usage }
  | { readonly type: 'finish'; readonly reason: FinishReason }
  | { readonly type: 'error'; readonly error: ModelError };

export type Timeouts = {
  readonly connectMs: number;
  readonly firstByteMs: number;
  /** Longest silence allowed between two stream chunks. */
  readonly idleMs: number;
};

export const DEFAULT_TIMEOUTS: Timeouts = Object.freeze({
  connectMs: 10_000,
  firstByteMs: 120_000,
  idleMs: 60_000,
});
