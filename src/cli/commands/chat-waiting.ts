// "waiting for <provider> · <model> (12 s)…" while a model call has produced nothing yet: a
// hanging endpoint used to mean minutes of silence. Wraps a turn's events so that whatever the
// turn shows first (a token, a tool line, a note) takes the spinner's place.
import type { TurnEvents } from '../../agent/agent.js';
import type { ToolResult } from '../../agent/tools/types.js';
import type { ToolCall } from '../../domain/messages.js';
import { startSpinner, waitingText, type Spinner, type SpinnerStream } from '../spinner.js';

export function withWaiting(events: TurnEvents, stream: SpinnerStream, label: () => string): { events: TurnEvents; stop(): void } {
  let spinner: Spinner | undefined;
  const stop = () => {
    spinner?.stop();
    spinner = undefined;
  };
  const first =
    <A extends unknown[]>(handler: (...args: A) => void) =>
    (...args: A) => {
      stop();
      handler(...args);
    };
  return {
    stop,
    events: {
      onModelCall: () => {
        stop();
        spinner = startSpinner(stream, (ms) => waitingText(`waiting for ${label()}`, ms));
        events.onModelCall?.();
      },
      onText: first((delta: string) => events.onText?.(delta)),
      onToolStart: first((call: ToolCall) => events.onToolStart?.(call)),
      onToolEnd: first((call: ToolCall, result: ToolResult) => events.onToolEnd?.(call, result)),
      onNotice: first((text: string) => events.onNotice?.(text)),
    },
  };
}
