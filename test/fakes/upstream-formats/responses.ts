// The OpenAI Responses API (`POST …/responses`), as api.openai.com, Azure OpenAI and the Codex
// backend send it. Stream: semantic events, each as `event: <type>` plus `data: {"type":<type>,
// "sequence_number":n,…}`, with no `[DONE]`: the stream ends after `response.completed`,
// `response.incomplete` or `response.failed`.
import type { Answer, AnswerContext, SseFrame, StreamPlan, WireFormat } from './shared.js';
import { FAKE_CREATED, fragments, joinedText, json } from './shared.js';
import { openAiErrorBody } from './openai-errors.js';

type Status = 'in_progress' | 'completed' | 'incomplete' | 'failed';

// `length` and `content_filter` do not fail a response: it ends `incomplete` with a reason.
const INCOMPLETE_REASON = { length: 'max_output_tokens', content_filter: 'content_filter' } as const;

function finalStatus(answer: Answer): 'completed' | 'incomplete' {
  return answer.finish === 'length' || answer.finish === 'content_filter' ? 'incomplete' : 'completed';
}

function hasMessage(answer: Answer): boolean {
  return answer.deltas.length > 0 || answer.calls.length === 0;
}

function messageItem(ctx: AnswerContext, status: Status, content: unknown[]) {
  return { id: `msg_fake_${ctx.n}`, type: 'message', status, role: 'assistant', content };
}

function textPart(text: string) {
  return { type: 'output_text', text, annotations: [] };
}

function callItem(answer: Answer, index: number, status: Status, args: string) {
  const call = answer.calls[index];
  return {
    id: `fc_${index + 1}`,
    type: 'function_call',
    status,
    arguments: args,
    call_id: call?.id ?? `call_${index + 1}`,
    name: call?.name ?? '',
  };
}

/** The finished output array, exactly as `output_item.done` events and the final response show it. */
function finalOutput(answer: Answer, ctx: AnswerContext): unknown[] {
  const status = finalStatus(answer);
  const items: unknown[] = answer.calls.map((call, i) => callItem(answer, i, 'completed', call.arguments));
  if (hasMessage(answer)) items.unshift(messageItem(ctx, status, [textPart(joinedText(answer))]));
  return items;
}

function response(ctx: AnswerContext, status: Status, fields: Record<string, unknown> = {}) {
  return {
    id: `resp_fake_${ctx.n}`,
    object: 'response',
    created_at: FAKE_CREATED,
    status,
    error: null,
    incomplete_details: null,
    model: ctx.model,
    output: [],
    usage: null,
    ...fields,
  };
}

function finalResponse(answer: Answer, ctx: AnswerContext) {
  const status = finalStatus(answer);
  const { input, output, cached } = answer.usage;
  return response(ctx, status, {
    incomplete_details:
      status === 'incomplete'
        ? { reason: INCOMPLETE_REASON[answer.finish as keyof typeof INCOMPLETE_REASON] }
        : null,
    output: finalOutput(answer, ctx),
    usage: {
      input_tokens: input,
      input_tokens_details: { cached_tokens: cached },
      output_tokens: output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: input + output,
    },
  });
}

type Event = { type: string } & Record<string, unknown>;

function stream(answer: Answer, ctx: AnswerContext): StreamPlan {
  const head: Event[] = [
    { type: 'response.created', response: response(ctx, 'in_progress') },
    { type: 'response.in_progress', response: response(ctx, 'in_progress') },
  ];
  const tail: Event[] = [];
  const output = finalOutput(answer, ctx);
  let outputIndex = 0;
  if (hasMessage(answer)) {
    const at = { item_id: `msg_fake_${ctx.n}`, output_index: outputIndex, content_index: 0 };
    const text = joinedText(answer);
    head.push(
      { type: 'response.output_item.added', output_index: outputIndex, item: messageItem(ctx, 'in_progress', []) },
      { type: 'response.content_part.added', ...at, part: textPart('') },
      ...answer.deltas.map((delta) => ({ type: 'response.output_text.delta', ...at, delta, logprobs: [] })),
    );
    tail.push(
      { type: 'response.output_text.done', ...at, text, logprobs: [] },
      { type: 'response.content_part.done', ...at, part: textPart(text) },
      { type: 'response.output_item.done', output_index: outputIndex, item: output[outputIndex] },
    );
    outputIndex += 1;
  }
  answer.calls.forEach((call, i) => {
    const at = { item_id: `fc_${i + 1}`, output_index: outputIndex };
    tail.push(
      { type: 'response.output_item.added', output_index: outputIndex, item: callItem(answer, i, 'in_progress', '') },
      ...fragments(call.arguments).map((delta) => ({ type: 'response.function_call_arguments.delta', ...at, delta })),
      { type: 'response.function_call_arguments.done', ...at, arguments: call.arguments },
      { type: 'response.output_item.done', output_index: outputIndex, item: output[outputIndex] },
    );
    outputIndex += 1;
  });
  const final = finalResponse(answer, ctx);
  tail.push({ type: final.status === 'completed' ? 'response.completed' : 'response.incomplete', response: final });

  // One numbering across the whole stream, so a cut stream's failure event continues it.
  const frame = ({ type, ...fields }: Event, sequence: number): SseFrame => ({
    event: type,
    data: json({ type, sequence_number: sequence, ...fields }),
  });
  // A failure after output has started arrives as `response.failed`, carrying `response.error`:
  // that is what the API sends when generation breaks (Codex and the SDKs read it there). The
  // separate `error` event is for failures outside a response and is not emitted here.
  const failure = (message: string | undefined): SseFrame =>
    frame(
      {
        type: 'response.failed',
        response: response(ctx, 'failed', {
          error: { code: 'server_error', message: message ?? 'The server had an error while processing your request. Sorry about that!' },
        }),
      },
      head.length,
    );
  return {
    head: head.map((event, i) => frame(event, i)),
    tail: tail.map((event, i) => frame(event, head.length + i)),
    failure,
  };
}

export const responsesFormat: WireFormat = {
  complete: finalResponse,
  stream,
  malformed: { event: 'response.created', data: '{not json' },
  errorBody: openAiErrorBody,
};
