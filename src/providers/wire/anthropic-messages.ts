// Anthropic-style messages: `POST {base}/v1/messages` with `anthropic-version: 2023-06-01`,
// `system` at top level, `tool_use` / `tool_result` blocks, `input_json_delta` assembly (an empty
// tool input is `{}`), and `max_tokens` always sent (the API requires it).
import { parseErrorBody, streamError } from './errors.js';
import { blockIndex, checked, messagesDeltaUsage, messagesStartUsage } from './chunk-schemas.js';
import { frameDecoder, textField, toolCall, type StreamDecoder } from './stream-driver.js';
import type { FinishReason, ModelRequest } from './types.js';
import type { ContentPart, Message } from '../../domain/messages.js';
import { withExtraBody } from '../extra-body.js';

export { ANTHROPIC_VERSION } from '../cloud/hosted-rules.js';
/** Sent when a request names no limit: `max_tokens` is mandatory on this API. */
export const DEFAULT_MAX_TOKENS = 8192;

type Block = Record<string, unknown>;
type WireMessage = { role: 'user' | 'assistant'; content: Block[] };

function block(part: ContentPart): Block {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'image', source: { type: 'base64', media_type: part.mediaType, data: part.data } };
    case 'image_url':
      return { type: 'image', source: { type: 'url', url: part.url } };
  }
}

function toWire(message: Message): WireMessage {
  switch (message.role) {
    case 'user':
      return {
        role: 'user',
        content: typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content.map(block),
      };
    case 'assistant':
      return {
        role: 'assistant',
        content: [
          ...(message.content ? [{ type: 'text', text: message.content }] : []),
          ...(message.toolCalls ?? []).map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments })),
        ],
      };
    case 'tool':
      return {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: message.toolCallId,
            content: message.content,
            ...(message.isError ? { is_error: true } : {}),
          },
        ],
      };
  }
}

/** The API wants alternating roles: consecutive same-role messages (several tool results) merge. */
function mergeTurns(messages: WireMessage[]): WireMessage[] {
  const out: WireMessage[] = [];
  for (const message of messages) {
    const last = out[out.length - 1];
    if (last && last.role === message.role) last.content = [...last.content, ...message.content];
    else out.push({ role: message.role, content: [...message.content] });
  }
  return out;
}

export function buildMessagesRequest(request: ModelRequest): Record<string, unknown> {
  return withExtraBody(
    {
      model: request.model,
      ...(request.system ? { system: request.system } : {}),
      messages: mergeTurns(request.messages.map(toWire)),
      max_tokens: request.maxOutputTokens ?? DEFAULT_MAX_TOKENS,
      stream: true,
      ...(request.tools?.length
        ? {
            tools: request.tools.map((tool) => ({
              name: tool.name,
              description: tool.description,
              input_schema: tool.parameters,
            })),
          }
        : {}),
    },
    request.extraBody,
  );
}

const STOP: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

type Json = Record<string, unknown>;

export function createMessagesDecoder(label: string): StreamDecoder {
  const tools = new Map<number, { id: string; name: string; json: string }>();
  let inputTokens = 0;
  let cachedInputTokens = 0;
  let cacheWriteInputTokens = 0;
  let outputTokens = 0;
  let sawUsage = false;
  let stop: FinishReason | undefined;

  return frameDecoder(label, {
    chunk(event, message) {
      switch (textField(event.type) || (message.event ?? '')) {
        case 'message_start': {
          const usage = checked(messagesStartUsage, (event.message as Json | undefined)?.usage, 'message.usage') ?? {};
          const cacheRead = usage.cache_read_input_tokens ?? 0;
          const cacheWrite = usage.cache_creation_input_tokens ?? 0;
          inputTokens = (usage.input_tokens ?? 0) + cacheRead + cacheWrite;
          cachedInputTokens = cacheRead;
          cacheWriteInputTokens = cacheWrite;
          outputTokens = usage.output_tokens ?? 0;
          sawUsage = true;
          return { events: [] };
        }
        case 'content_block_start': {
          const content = (event.content_block ?? {}) as Json;
          if (content.type === 'tool_use') {
            tools.set(checked(blockIndex, event.index, 'index') ?? 0, { id: textField(content.id), name: textField(content.name), json: '' });
          } else if (content.type === 'text' && typeof content.text === 'string' && content.text) {
            return { events: [{ type: 'text_delta', text: content.text }] };
          }
          return { events: [] };
        }
        case 'content_block_delta': {
          const delta = (event.delta ?? {}) as Json;
          if (delta.type === 'text_delta' && typeof delta.text === 'string' && delta.text) {
            return { events: [{ type: 'text_delta', text: delta.text }] };
          }
          if (delta.type === 'input_json_delta') {
            const tool = tools.get(checked(blockIndex, event.index, 'index') ?? 0);
            if (tool && typeof delta.partial_json === 'string') tool.json += delta.partial_json;
          }
          return { events: [] };
        }
        case 'content_block_stop': {
          const index = checked(blockIndex, event.index, 'index') ?? 0;
          const tool = tools.get(index);
          if (!tool) return { events: [] };
          tools.delete(index);
          return { events: [{ type: 'tool_call', call: toolCall(tool.id, tool.name, tool.json) }] };
        }
        case 'message_delta': {
          const delta = (event.delta ?? {}) as Json;
          if (typeof delta.stop_reason === 'string') stop = STOP[delta.stop_reason] ?? 'other';
          const usage = checked(messagesDeltaUsage, event.usage, 'usage');
          if (usage?.output_tokens !== undefined && usage.output_tokens !== null) outputTokens = usage.output_tokens;
          return { events: [] };
        }
        case 'message_stop':
          return {
            events: [...(sawUsage ? [{ type: 'usage' as const, usage: { inputTokens, outputTokens, cachedInputTokens, cacheWriteInputTokens } }] : []), { type: 'finish', reason: stop ?? 'stop' }],
            done: true,
          };
        case 'error':
          return { events: [{ type: 'error', error: streamError(parseErrorBody(message.data), label, false) }], done: true };
        default:
          return { events: [] }; // ping, and event types added after this client was written
      }
    },
  });
}
