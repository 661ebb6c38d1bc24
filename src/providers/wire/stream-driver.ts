// The part every wire client shares: send the request, feed each SSE message to the format's
// decoder, and turn every way a stream can end into exactly one terminal event.
import type { EventSourceMessage } from 'eventsource-parser';
import type { Dispatcher } from 'undici';
import { modelErrorFromFailure } from './errors.js';
import { ChunkShapeError } from './chunk-schemas.js';
import { postSse } from './sse-request.js';
import type { ModelError, StreamEvent, Timeouts } from './types.js';
import type { ToolCall } from '../../domain/messages.js';

export type WireTarget = {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeouts: Timeouts;
  readonly dispatcher?: Dispatcher;
  /** Names the endpoint in error messages, e.g. `cloud-hosted (chat_completions)`. */
  readonly label: string;
};

/** A format's stream decoder: pure, fed one SSE message at a time. */
export interface StreamDecoder {
  onMessage(message: EventSourceMessage): StreamEvent[];
  /** The HTTP body ended: the closing events, or a truncated-stream error. */
  onEnd(): StreamEvent[];
}

export function isTerminal(event: StreamEvent): boolean {
  return event.type === 'finish' || event.type === 'error';
}

export async function* driveStream(
  target: WireTarget,
  body: unknown,
  decoder: StreamDecoder,
  signal?: AbortSignal,
): AsyncGenerator<StreamEvent> {
  let afterOutput = false;
  const request = {
    url: target.url,
    headers: target.headers,
    body,
    timeouts: target.timeouts,
    ...(target.dispatcher ? { dispatcher: target.dispatcher } : {}),
    ...(signal ? { signal } : {}),
  };
  for await (const item of postSse(request)) {
    const events =
      item.kind === 'messages'
        ? item.messages.length === 1
          ? decoder.onMessage(item.messages[0] as EventSourceMessage)
          : item.messages.flatMap((message) => decoder.onMessage(message))
        : item.kind === 'end'
          ? decoder.onEnd()
          : [{ type: 'error' as const, error: modelErrorFromFailure(item.failure, target.label, afterOutput) }];
    for (const event of events) {
      if (event.type === 'error') {
        yield { type: 'error', error: { ...event.error, afterOutput } };
        return;
      }
      if (event.type === 'text_delta' || event.type === 'tool_call') afterOutput = true;
      yield event;
      if (event.type === 'finish') return;
    }
  }
}

/** What a decoder makes of one message: its events, and whether the stream is complete. */
export type DecodeStep = { readonly events: StreamEvent[]; readonly done?: boolean };

/**
 * The part the three decoders share: nothing after the end, a data line that is not a JSON
 * object or a chunk of the wrong shape is one `malformed_stream` error, and a body that ends
 * before the format's end marker is `truncated_stream`. `chunk` handles a parsed JSON object;
 * `raw` (optional) sees the data first, for end markers that are not JSON (`[DONE]`).
 */
export function frameDecoder(
  label: string,
  handlers: {
    readonly raw?: (data: string) => DecodeStep | undefined;
    readonly chunk: (value: Record<string, unknown>, message: EventSourceMessage) => DecodeStep;
  },
): StreamDecoder {
  let done = false;
  const finish = (step: DecodeStep): StreamEvent[] => {
    if (step.done) done = true;
    return step.events;
  };
  return {
    onMessage(message) {
      if (done) return [];
      const special = handlers.raw?.(message.data);
      if (special) return finish(special);
      const parsed = parseJsonData(message.data);
      if (!parsed.ok) return finish({ events: [malformed(label, 'a data line is not a JSON object')], done: true });
      try {
        return finish(handlers.chunk(parsed.value, message));
      } catch (err) {
        if (err instanceof ChunkShapeError) return finish({ events: [malformed(label, err.message)], done: true });
        throw err;
      }
    },
    onEnd() {
      return done ? [] : [truncated(label)];
    },
  };
}

/** A string field of a chunk, or '' when it is absent or not a string. */
export function textField(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function malformed(label: string, detail: string): StreamEvent {
  return { type: 'error', error: { code: 'malformed_stream', message: `${label}: malformed stream (${detail})`, afterOutput: false } };
}

export function truncated(label: string): StreamEvent {
  return {
    type: 'error',
    error: { code: 'truncated_stream', message: `${label}: the stream ended before the response was complete`, afterOutput: false },
  };
}

export function parseJsonData(data: string): { ok: true; value: Record<string, unknown> } | { ok: false } {
  try {
    const value: unknown = JSON.parse(data);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? { ok: true, value: value as Record<string, unknown> }
      : { ok: false };
  } catch {
    return { ok: false };
  }
}

/** Tool arguments as the model sent them: `''` is `{}`; text that is not a JSON object is kept raw. */
export function toolCall(id: string, name: string, rawArguments: string): ToolCall {
  const trimmed = rawArguments.trim();
  if (trimmed === '') return { id, name, arguments: {} };
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return { id, name, arguments: parsed as Record<string, unknown> };
    }
  } catch {
    // fall through: kept raw so the agent can tell the model its arguments were not JSON
  }
  return { id, name, arguments: {}, invalidArguments: rawArguments };
}

export type { ModelError };
