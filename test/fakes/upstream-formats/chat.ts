// OpenAI chat completions (`POST …/chat/completions`), as api.openai.com and Azure OpenAI send it.
// Stream: `data: {chat.completion.chunk}` lines without `event:` names, ending in `data: [DONE]`.
import type { Answer, AnswerContext, SseFrame, StreamPlan, WireFormat } from './shared.js';
import { FAKE_CREATED, fragments, joinedText, json } from './shared.js';
import { openAiErrorBody } from './openai-errors.js';

function callId(answer: Answer, index: number): string {
  return answer.calls[index]?.id ?? `call_${index + 1}`;
}

function usage(answer: Answer) {
  const { input, output, cached } = answer.usage;
  return {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: input + output,
    prompt_tokens_details: { cached_tokens: cached },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
}

function chunk(ctx: AnswerContext, delta: object, finishReason: string | null): SseFrame {
  return {
    data: json({
      id: `chatcmpl-fake-${ctx.n}`,
      object: 'chat.completion.chunk',
      created: FAKE_CREATED,
      model: ctx.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      // With include_usage every chunk carries `usage: null` until the final usage-only chunk.
      ...(ctx.includeUsage ? { usage: null } : {}),
    }),
  };
}

function stream(answer: Answer, ctx: AnswerContext): StreamPlan {
  // The first chunk announces the role; content is '' when text follows, null before tool calls.
  const textless = answer.deltas.length === 0 && answer.calls.length > 0;
  const head = [
    chunk(ctx, { role: 'assistant', content: textless ? null : '', refusal: null }, null),
    ...answer.deltas.map((content) => chunk(ctx, { content }, null)),
  ];
  const tail: SseFrame[] = [];
  answer.calls.forEach((call, index) => {
    // The first fragment names the call; argument text follows in pieces keyed only by `index`.
    const opening = { index, id: callId(answer, index), type: 'function' };
    tail.push(
      chunk(ctx, { tool_calls: [{ ...opening, function: { name: call.name, arguments: '' } }] }, null),
    );
    for (const piece of fragments(call.arguments)) {
      tail.push(chunk(ctx, { tool_calls: [{ index, function: { arguments: piece } }] }, null));
    }
  });
  tail.push(chunk(ctx, {}, answer.finish));
  if (ctx.includeUsage) {
    tail.push({
      data: json({
        id: `chatcmpl-fake-${ctx.n}`,
        object: 'chat.completion.chunk',
        created: FAKE_CREATED,
        model: ctx.model,
        choices: [],
        usage: usage(answer),
      }),
    });
  }
  tail.push({ data: '[DONE]' });
  // OpenAI reports a failure after output has started as a bare error object on a data line,
  // then closes the stream without `[DONE]`.
  const failure = (message: string | undefined): SseFrame => ({
    data: json(openAiErrorBody({ kind: 'server_error', message })),
  });
  return { head, tail, failure };
}

function complete(answer: Answer, ctx: AnswerContext): unknown {
  const toolCalls = answer.calls.map((call, index) => ({
    id: callId(answer, index),
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  const textless = answer.deltas.length === 0 && answer.calls.length > 0;
  return {
    id: `chatcmpl-fake-${ctx.n}`,
    object: 'chat.completion',
    created: FAKE_CREATED,
    model: ctx.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: textless ? null : joinedText(answer),
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: answer.finish,
      },
    ],
    usage: usage(answer),
  };
}

export const chatFormat: WireFormat = {
  complete,
  stream,
  malformed: { data: '{not json' },
  errorBody: openAiErrorBody,
};
