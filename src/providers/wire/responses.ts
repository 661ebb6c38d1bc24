// The Responses API (`codex_responses`): `POST {base}/responses` with `instructions` + `input`
// items, `function_call` / `function_call_output` items and `max_output_tokens`. The stream's
// `response.completed` is authoritative; unknown event types are ignored.
import { parseErrorBody, streamError } from './errors.js';
import { checked, responsesUsage } from './chunk-schemas.js';
import { frameDecoder, textField, toolCall, type StreamDecoder } from './stream-driver.js';
import type { ModelRequest, StreamEvent, Usage } from './types.js';
import type { ContentPart, Message, ToolCall } from '../../domain/messages.js';
import { withExtraBody } from '../extra-body.js';

function inputPart(part: ContentPart): Record<string, unknown> {
  switch (part.type) {
    case 'text':
      return { type: 'input_text', text: part.text };
    case 'image':
      return { type: 'input_image', image_url: `data:${part.mediaType};base64,${part.data}` };
    case 'image_url':
      return { type: 'input_image', image_url: part.url };
  }
}

function inputItems(message: Message): Record<string, unknown>[] {
  switch (message.role) {
    case 'user':
      return [
        {
          role: 'user',
          content:
            typeof message.content === 'string'
              ? [{ type: 'input_text', text: message.content }]
              : message.content.map(inputPart),
        },
      ];
    case 'assistant':
      return [
        ...(message.content ? [{ role: 'assistant', content: [{ type: 'output_text', text: message.content }] }] : []),
        ...(message.toolCalls ?? []).map((call) => ({
          type: 'function_call',
          call_id: call.id,
          name: call.name,
          arguments: call.invalidArguments ?? JSON.stringify(call.arguments),
        })),
      ];
    case 'tool':
      return [{ type: 'function_call_output', call_id: message.toolCallId, output: message.content }];
  }
}

export function buildResponsesRequest(request: ModelRequest): Record<string, unknown> {
  return withExtraBody(
    {
      model: request.model,
      ...(request.system ? { instructions: request.system } : {}),
      input: request.messages.flatMap(inputItems),
      stream: true,
      // Iris keeps the conversation itself; nothing needs to live on the provider.
      store: false,
      ...(request.tools?.length
        ? {
            tools: request.tools.map((tool) => ({
              type: 'function',
              name: tool.name,
              description: tool.description,
              parameters: tool.parameters,
            })),
          }
        : {}),
      ...(request.maxOutputTokens !== undefined ? { max_output_tokens: request.maxOutputTokens } : {}),
    },
    request.extraBody,
  );
}

type Json = Record<string, unknown>;

function usageOf(response: Json): Usage | undefined {
  const u = checked(responsesUsage, response.usage, 'response.usage');
  if (!u) return undefined;
  return { inputTokens: u.input_tokens ?? 0, outputTokens: u.output_tokens ?? 0, cachedInputTokens: u.input_tokens_details?.cached_tokens ?? 0, cacheWriteInputTokens: 0 };
}

function functionCallOf(item: Json): ToolCall {
  return toolCall(textField(item.call_id) || textField(item.id), textField(item.name), textField(item.arguments));
}

function outputText(response: Json): string {
  const output = (response.output as Json[] | undefined) ?? [];
  return output
    .filter((item) => item.type === 'message')
    .flatMap((item) => (item.content as Json[] | undefined) ?? [])
    .filter((part) => part.type === 'output_text')
    .map((part) => textField(part.text))
    .join('');
}

export function createResponsesDecoder(label: string): StreamDecoder {
  const emittedCalls = new Set<string>();
  let sawText = false;

  const fromFinalResponse = (response: Json, incomplete: boolean): StreamEvent[] => {
    const events: StreamEvent[] = [];
    // Authoritative: anything the deltas missed is taken from the final response.
    if (!sawText) {
      const text = outputText(response);
      if (text) events.push({ type: 'text_delta', text });
    }
    let calls = 0;
    for (const item of (response.output as Json[] | undefined) ?? []) {
      if (item.type !== 'function_call') continue;
      calls++;
      const call = functionCallOf(item);
      if (!emittedCalls.has(call.id)) events.push({ type: 'tool_call', call });
    }
    const usage = usageOf(response);
    if (usage) events.push({ type: 'usage', usage });
    const reason = (response.incomplete_details as Json | undefined)?.reason;
    events.push({
      type: 'finish',
      reason: incomplete
        ? reason === 'content_filter'
          ? 'content_filter'
          : 'length'
        : calls > 0 || emittedCalls.size > 0
          ? 'tool_calls'
          : 'stop',
    });
    return events;
  };

  return frameDecoder(label, {
    chunk(event, message) {
      const type = textField(event.type) || (message.event ?? '');
      switch (type) {
        case 'response.output_text.delta':
          if (typeof event.delta === 'string' && event.delta) {
            sawText = true;
            return { events: [{ type: 'text_delta', text: event.delta }] };
          }
          return { events: [] };
        case 'response.output_item.done': {
          const item = (event.item ?? {}) as Json;
          if (item.type !== 'function_call') return { events: [] };
          const call = functionCallOf(item);
          emittedCalls.add(call.id);
          return { events: [{ type: 'tool_call', call }] };
        }
        case 'response.completed':
        case 'response.incomplete':
          return { events: fromFinalResponse((event.response ?? {}) as Json, type === 'response.incomplete'), done: true };
        case 'response.failed': {
          const error = ((event.response as Json | undefined)?.error ?? {}) as Json;
          return { events: [{ type: 'error', error: streamError(parseErrorBody(JSON.stringify({ error })), label, false) }], done: true };
        }
        case 'error':
          return { events: [{ type: 'error', error: streamError(parseErrorBody(JSON.stringify({ error: event.error ?? event })), label, false) }], done: true };
        default:
          return { events: [] };
      }
    },
  });
}
