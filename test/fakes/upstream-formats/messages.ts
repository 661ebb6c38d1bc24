// Anthropic Messages (`POST …/messages`), as api.anthropic.com and Azure's Anthropic endpoint
// send it. Stream: `event: <type>` plus `data: {"type":<type>,…}`; content arrives in indexed
// blocks (text, tool_use) between `message_start` and `message_stop`.
import type { Answer, AnswerContext, AnswerFinish, ProviderError, SseFrame, StreamPlan, WireFormat } from './shared.js';
import { fragments, joinedText, json } from './shared.js';

const STOP_REASON: Readonly<Record<AnswerFinish, string>> = Object.freeze({
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  // Anthropic has no content filter finish; a declined answer ends with `refusal`.
  content_filter: 'refusal',
});

// Anthropic's documented error type per HTTP status, for `{kind:'error', status}` without a body.
const TYPE_BY_STATUS: Readonly<Record<number, string>> = Object.freeze({
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
});

function describe(error: ProviderError): { type: string; message: string } {
  switch (error.kind) {
    case 'rate_limited':
      return { type: 'rate_limit_error', message: 'Number of requests has exceeded your per-minute rate limit.' };
    case 'overloaded':
      return { type: 'overloaded_error', message: 'Overloaded' };
    case 'unauthorized':
      return { type: 'authentication_error', message: 'invalid x-api-key' };
    case 'server_error':
      return { type: 'api_error', message: error.message ?? 'Internal server error' };
    case 'invalid_json':
      return { type: 'invalid_request_error', message: 'The request body is not valid JSON.' };
    case 'status':
      return {
        type: TYPE_BY_STATUS[error.status] ?? (error.status >= 500 ? 'api_error' : 'invalid_request_error'),
        message: `Fake upstream error (HTTP ${error.status}).`,
      };
  }
}

function errorBody(error: ProviderError) {
  return { type: 'error', error: describe(error) };
}

function hasText(answer: Answer): boolean {
  return answer.deltas.length > 0 || answer.calls.length === 0;
}

function toolId(answer: Answer, index: number): string {
  return answer.calls[index]?.id ?? `toolu_${index + 1}`;
}

/**
 * Anthropic counts cached prompt tokens apart from `input_tokens`, where OpenAI includes them in
 * `prompt_tokens`; the scripted `input` is the OpenAI-style total, so the split happens here.
 */
function promptUsage(answer: Answer) {
  const { input, cached, cacheWrite } = answer.usage;
  return { input_tokens: input - cached - cacheWrite, cache_creation_input_tokens: cacheWrite, cache_read_input_tokens: cached };
}

function message(ctx: AnswerContext, fields: Record<string, unknown>) {
  return {
    id: `msg_fake_${ctx.n}`,
    type: 'message',
    role: 'assistant',
    model: ctx.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    ...fields,
  };
}

type Event = { type: string } & Record<string, unknown>;

function frame(event: Event): SseFrame {
  return { event: event.type, data: json(event) };
}

function stream(answer: Answer, ctx: AnswerContext): StreamPlan {
  // message_start reports the prompt side; output_tokens here is a placeholder (the API sends a
  // small number), and the real count comes in message_delta, so clients must not add them up.
  const head: Event[] = [
    { type: 'message_start', message: message(ctx, { usage: { ...promptUsage(answer), output_tokens: 1 } }) },
    { type: 'ping' },
  ];
  const tail: Event[] = [];
  let index = 0;
  if (hasText(answer)) {
    head.push(
      { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
      ...answer.deltas.map((text) => ({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } })),
    );
    tail.push({ type: 'content_block_stop', index });
    index += 1;
  }
  answer.calls.forEach((call, i) => {
    const at = index;
    // The API opens a tool_use block with `input: {}` and an empty partial_json, then streams the
    // JSON text; a call without arguments gets only the empty one.
    tail.push(
      { type: 'content_block_start', index: at, content_block: { type: 'tool_use', id: toolId(answer, i), name: call.name, input: {} } },
      ...['', ...fragments(call.arguments)].map((partial_json) => ({
        type: 'content_block_delta',
        index: at,
        delta: { type: 'input_json_delta', partial_json },
      })),
      { type: 'content_block_stop', index: at },
    );
    index += 1;
  });
  tail.push(
    {
      type: 'message_delta',
      delta: { stop_reason: STOP_REASON[answer.finish], stop_sequence: null },
      usage: { output_tokens: answer.usage.output },
    },
    { type: 'message_stop' },
  );
  return {
    head: head.map(frame),
    tail: tail.map(frame),
    // Anthropic reports a failure after output has started as an `error` event, then closes.
    failure: (text) => frame({ type: 'error', error: describe({ kind: 'server_error', message: text }) }),
  };
}

/** Tool input is an object in a full message; arguments scripted as non-JSON text stay a string. */
function toolInput(text: string): unknown {
  if (text === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function complete(answer: Answer, ctx: AnswerContext): unknown {
  const content: unknown[] = answer.calls.map((call, i) => ({
    type: 'tool_use',
    id: toolId(answer, i),
    name: call.name,
    input: toolInput(call.arguments),
  }));
  if (hasText(answer)) content.unshift({ type: 'text', text: joinedText(answer) });
  return message(ctx, {
    content,
    stop_reason: STOP_REASON[answer.finish],
    usage: { ...promptUsage(answer), output_tokens: answer.usage.output },
  });
}

export const messagesFormat: WireFormat = {
  complete,
  stream,
  malformed: { event: 'message_start', data: '{not json' },
  errorBody,
};
