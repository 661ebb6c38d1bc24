// What the three wire formats of the fake upstream have in common: the normalised answer they
// render, the SSE frame they emit, and the interface each format implements. The server
// (`../upstream.ts`) decides *what* happens (text, tool calls, an error, a cut-off stream); a format
// only decides *how it looks on the wire*, so one behaviour script drives all three formats alike.

/** Why the model stopped, before each format maps it to its own vocabulary. */
export type AnswerFinish = 'stop' | 'length' | 'content_filter' | 'tool_calls';

export type AnswerCall = {
  /** Only when scripted; otherwise each format makes its own deterministic id (`call_1`, `toolu_1`). */
  readonly id?: string;
  readonly name: string;
  /** The arguments exactly as they go on the wire: a JSON text (or deliberately not JSON). */
  readonly arguments: string;
};

export type AnswerUsage = {
  /** All prompt tokens, cached ones included (the OpenAI meaning of `prompt_tokens`). */
  readonly input: number;
  readonly output: number;
  /** The part of `input` read from the prompt cache. */
  readonly cached: number;
  /** The part of `input` written to the prompt cache (Anthropic's cache_creation_input_tokens). */
  readonly cacheWrite: number;
};

/** A successful model answer, independent of the wire format. */
export type Answer = {
  readonly deltas: readonly string[];
  readonly calls: readonly AnswerCall[];
  readonly usage: AnswerUsage;
  readonly finish: AnswerFinish;
};

export type AnswerContext = {
  readonly model: string;
  /** 1-based count of model answers given by this server: makes ids unique yet predictable. */
  readonly n: number;
  /** Chat completions only: the request asked for `stream_options.include_usage`. */
  readonly includeUsage: boolean;
};

export type SseFrame = { readonly event?: string; readonly data: string };

/**
 * A stream split where failure behaviours cut it: `head` is everything up to and including the
 * last text delta, `tail` is the rest (closing events and the terminal one). `truncated`, `hang`
 * and `mid_stream_error` send only the head; the last one then sends `failure(message)`, which
 * continues the head's numbering where a format numbers its events.
 */
export type StreamPlan = {
  readonly head: readonly SseFrame[];
  readonly tail: readonly SseFrame[];
  failure(message: string | undefined): SseFrame;
};

/** The provider-shaped failures the fake can answer with; status codes live in `ERROR_STATUS`. */
export type ProviderError =
  | { readonly kind: 'rate_limited'; readonly retryAfterSeconds: number }
  | { readonly kind: 'overloaded' }
  | { readonly kind: 'unauthorized' }
  | { readonly kind: 'server_error'; readonly message?: string }
  | { readonly kind: 'invalid_json' }
  | { readonly kind: 'status'; readonly status: number };

export const ERROR_STATUS = Object.freeze({
  rate_limited: 429,
  overloaded: 529,
  unauthorized: 401,
  server_error: 500,
  invalid_json: 400,
} as const);

export function errorStatus(error: ProviderError): number {
  return error.kind === 'status' ? error.status : ERROR_STATUS[error.kind];
}

export type WireFormat = {
  /** The full non-streaming response object. */
  complete(answer: Answer, ctx: AnswerContext): unknown;
  stream(answer: Answer, ctx: AnswerContext): StreamPlan;
  /** A first event whose data is not JSON, framed the way this format frames events. */
  readonly malformed: SseFrame;
  errorBody(error: ProviderError): unknown;
};

/** Fixed so tests can assert whole objects; real servers send the current Unix time. */
export const FAKE_CREATED = 1_700_000_000;

export function json(value: unknown): string {
  return JSON.stringify(value);
}

export function encodeFrame(frame: SseFrame): string {
  return `${frame.event === undefined ? '' : `event: ${frame.event}\n`}data: ${frame.data}\n\n`;
}

/**
 * Splits argument text into up to `parts` fragments by code point, the way providers stream a
 * tool call's arguments in pieces; clients must concatenate them. Empty text has no fragments.
 */
export function fragments(text: string, parts = 3): string[] {
  const chars = Array.from(text);
  const size = Math.ceil(chars.length / parts);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

export function joinedText(answer: Answer): string {
  return answer.deltas.join('');
}
