// OpenAI-style chat completions: `POST {base}/chat/completions`, tools as `function` tools, tool
// results as `role: tool` messages, streamed `delta.tool_calls` assembled by index, usage via
// `stream_options.include_usage`.
import { parseErrorBody, streamError } from './errors.js';
import { chatChunk, checked } from './chunk-schemas.js';
import { frameDecoder, toolCall, type StreamDecoder } from './stream-driver.js';
import type { FinishReason, ModelRequest, StreamEvent, Usage } from './types.js';
import type { ContentPart, Message } from '../../domain/messages.js';
import { withExtraBody } from '../extra-body.js';

export type ChatBodyOptions = {
  /** gpt-4o, gpt-4.1, o-series and gpt-5.x want `max_completion_tokens`. */
  readonly maxTokensField: 'max_tokens' | 'max_completion_tokens';
};

function contentPart(part: ContentPart): Record<string, unknown> {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'image_url', image_url: { url: `data:${part.mediaType};base64,${part.data}` } };
    case 'image_url':
      return { type: 'image_url', image_url: { url: part.url } };
  }
}

function chatMessage(message: Message): Record<string, unknown> {
  switch (message.role) {
    case 'user':
      return {
        role: 'user',
        content: typeof message.content === 'string' ? message.content : message.content.map(contentPart),
      };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content === '' && message.toolCalls?.length ? null : message.content,
        ...(message.toolCalls?.length
          ? {
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: 'function',
                function: { name: call.name, arguments: call.invalidArguments ?? JSON.stringify(call.arguments) },
              })),
            }
          : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const absent = (value: unknown) => value === undefined || value === null;

/**
 * Nearly every chunk of a streamed answer is one choice with a text delta and nothing else. That
 * shape is checked here by hand, field by field, and read without the schema walk (which copies
 * every object it passes); its text is returned. Anything else (usage, tool calls, a finish, more
 * than one choice, a field of the wrong type) returns undefined and goes through chatChunk.
 */
export function textOnlyDelta(value: Record<string, unknown>): string | undefined {
  if (!absent(value.usage) || !Array.isArray(value.choices) || value.choices.length !== 1) return undefined;
  const choice: unknown = value.choices[0];
  if (!isRecord(choice) || !absent(choice.finish_reason) || !isRecord(choice.delta)) return undefined;
  const { content, tool_calls: toolCalls } = choice.delta;
  return absent(toolCalls) && typeof content === 'string' ? content : undefined;
}

export function buildChatRequest(request: ModelRequest, options: ChatBodyOptions): Record<string, unknown> {
  return withExtraBody(
    {
      model: request.model,
      messages: [
        ...(request.system ? [{ role: 'system', content: request.system }] : []),
        ...request.messages.map(chatMessage),
      ],
      stream: true,
      stream_options: { include_usage: true },
      ...(request.tools?.length
        ? {
            tools: request.tools.map((tool) => ({
              type: 'function',
              function: { name: tool.name, description: tool.description, parameters: tool.parameters },
            })),
          }
        : {}),
      ...(request.maxOutputTokens !== undefined ? { [options.maxTokensField]: request.maxOutputTokens } : {}),
    },
    request.extraBody,
  );
}

const FINISH: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  content_filter: 'content_filter',
};

type PendingCall = { id: string; name: string; args: string };

export function createChatDecoder(label: string): StreamDecoder {
  const calls = new Map<number, PendingCall>();
  let callsEmitted = false;
  let finish: FinishReason | undefined;
  let usage: Usage | undefined;

  const emitCalls = (): StreamEvent[] => {
    if (callsEmitted) return [];
    callsEmitted = true;
    return [...calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, c]) => ({ type: 'tool_call', call: toolCall(c.id || `call_${index}`, c.name, c.args) }));
  };

  const close = (): StreamEvent[] => [
    ...emitCalls(),
    ...(usage ? [{ type: 'usage' as const, usage }] : []),
    { type: 'finish', reason: finish ?? (calls.size > 0 ? 'tool_calls' : 'stop') },
  ];

  return frameDecoder(label, {
    raw: (data) => (data.trim() === '[DONE]' ? { events: close(), done: true } : undefined),
    chunk(value, message) {
      if (value.error !== undefined) return { events: [{ type: 'error', error: streamError(parseErrorBody(message.data), label, false) }], done: true };
      const text = textOnlyDelta(value);
      if (text !== undefined) return { events: text === '' ? [] : [{ type: 'text_delta', text }] };
      const chunk = checked(chatChunk, value, 'chunk');
      const events: StreamEvent[] = [];
      if (chunk.usage) {
        usage = {
          inputTokens: chunk.usage.prompt_tokens ?? 0,
          outputTokens: chunk.usage.completion_tokens ?? 0,
          cachedInputTokens: chunk.usage.prompt_tokens_details?.cached_tokens ?? 0,
          cacheWriteInputTokens: 0,
        };
      }
      const choice = chunk.choices?.[0];
      if (!choice) return { events };
      const delta = choice.delta ?? {};
      if (typeof delta.content === 'string' && delta.content !== '') events.push({ type: 'text_delta', text: delta.content });
      for (const raw of delta.tool_calls ?? []) {
        const index = raw.index ?? 0;
        const pending = calls.get(index) ?? { id: '', name: '', args: '' };
        if (raw.id) pending.id = raw.id;
        if (raw.function?.name) pending.name = raw.function.name;
        if (typeof raw.function?.arguments === 'string') pending.args += raw.function.arguments;
        calls.set(index, pending);
      }
      if (typeof choice.finish_reason === 'string') {
        finish = FINISH[choice.finish_reason] ?? 'other';
        events.push(...emitCalls());
      }
      return { events };
    },
  });
}
