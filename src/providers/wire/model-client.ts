// The three wire clients behind one call: `streamModel` yields events, `completeModel` collects
// them into one answer. Which URL and headers to use is decided before this point
// (src/providers/endpoint.ts); this file only speaks the formats.
import { buildMessagesRequest, createMessagesDecoder } from './anthropic-messages.js';
import { buildChatRequest, createChatDecoder } from './chat-completions.js';
import { buildResponsesRequest, createResponsesDecoder } from './responses.js';
import { driveStream, type StreamDecoder, type WireTarget } from './stream-driver.js';
import type { ApiMode, FinishReason, ModelError, ModelRequest, StreamEvent, Usage } from './types.js';
import type { ToolCall } from '../../domain/messages.js';

export type WireCall = WireTarget & {
  readonly apiMode: ApiMode;
  readonly maxTokensField?: 'max_tokens' | 'max_completion_tokens';
};

export function buildWireBody(request: ModelRequest, call: Pick<WireCall, 'apiMode' | 'maxTokensField'>): Record<string, unknown> {
  switch (call.apiMode) {
    case 'chat_completions':
      return buildChatRequest(request, { maxTokensField: call.maxTokensField ?? 'max_tokens' });
    case 'codex_responses':
      return buildResponsesRequest(request);
    case 'anthropic_messages':
      return buildMessagesRequest(request);
  }
}

export function createDecoder(apiMode: ApiMode, label: string): StreamDecoder {
  switch (apiMode) {
    case 'chat_completions':
      return createChatDecoder(label);
    case 'codex_responses':
      return createResponsesDecoder(label);
    case 'anthropic_messages':
      return createMessagesDecoder(label);
  }
}

export function streamModel(request: ModelRequest, call: WireCall): AsyncGenerator<StreamEvent> {
  return driveStream(call, buildWireBody(request, call), createDecoder(call.apiMode, call.label), request.signal);
}

export type Completion =
  | {
      readonly ok: true;
      readonly text: string;
      readonly toolCalls: readonly ToolCall[];
      readonly usage?: Usage;
      readonly finish: FinishReason;
    }
  | { readonly ok: false; readonly error: ModelError; readonly partialText: string };

/** The non-streaming call: the same stream, collected. */
export async function collectStream(events: AsyncIterable<StreamEvent>): Promise<Completion> {
  let text = '';
  const toolCalls: ToolCall[] = [];
  let usage: Usage | undefined;
  for await (const event of events) {
    switch (event.type) {
      case 'text_delta':
        text += event.text;
        break;
      case 'tool_call':
        toolCalls.push(event.call);
        break;
      case 'usage':
        usage = event.usage;
        break;
      case 'error':
        return { ok: false, error: event.error, partialText: text };
      case 'finish':
        return { ok: true, text, toolCalls, ...(usage ? { usage } : {}), finish: event.reason };
    }
  }
  return {
    ok: false,
    error: { code: 'truncated_stream', message: 'the stream ended without a finish event', afterOutput: text !== '' || toolCalls.length > 0 },
    partialText: text,
  };
}

export function completeModel(request: ModelRequest, call: WireCall): Promise<Completion> {
  return collectStream(streamModel(request, call));
}
