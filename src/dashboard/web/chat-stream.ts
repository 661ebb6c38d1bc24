// The chat's event stream in the page. Read with fetch() and a ReadableStream rather than
// EventSource: EventSource cannot send the X-Service-Session-Token header, so the token would have
// to go in the URL (into logs and history). The frames are parsed by eventsource-parser. When the
// connection drops (a restart, a network blip) it reconnects after a short pause; the server's
// snapshot then replaces what the page shows, so nothing is lost or doubled.
import { createParser } from 'eventsource-parser';
import type { DashboardApi } from './api.js';
import { CHAT_EVENT_TYPES, type ChatEvent, type ChatItem } from '../chat/chat-items.js';

export type ChatSnapshot = { readonly running: boolean; readonly runId: string | null; readonly items: ChatItem[] };

export type StreamHandlers = {
  readonly onSnapshot: (snapshot: ChatSnapshot) => void;
  readonly onEvent: (event: ChatEvent) => void;
  /** The stream failed or dropped (a message to show), or came back (null). */
  readonly onConnection: (problem: string | null) => void;
};

class FinalError extends Error {}

const RETRY_MS = [500, 1000, 2000, 5000];
const EVENT_NAMES: ReadonlySet<string> = new Set(CHAT_EVENT_TYPES);

/** A frame's JSON as an event, when it is one the page knows. */
export function readFrame(name: string | undefined, data: string): { snapshot: ChatSnapshot } | { event: ChatEvent } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (name === 'snapshot') return { snapshot: value as ChatSnapshot };
  if (name !== undefined && EVENT_NAMES.has(name) && (value as { type?: unknown }).type === name) return { event: value as ChatEvent };
  return undefined;
}

/** Watches the session until `signal` aborts. */
export function watchChat(api: DashboardApi, sessionId: string, handlers: StreamHandlers, signal: AbortSignal): void {
  let failures = 0;
  const once = async (): Promise<void> => {
    const response = await api.fetchWithToken(`/api/chat/sessions/${encodeURIComponent(sessionId)}/events`, { signal, headers: { accept: 'text/event-stream' } });
    if (!response.ok || !response.body) {
      const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
      const why = typeof body?.error === 'string' ? body.error : `the server answered ${response.status}`;
      // A missing session or a refused token does not get better by asking again.
      if (response.status >= 400 && response.status < 500) throw new FinalError(why);
      throw new Error(why);
    }
    const parser = createParser({
      onEvent: (message) => {
        const frame = readFrame(message.event, message.data);
        if (!frame) return;
        if ('snapshot' in frame) {
          failures = 0;
          handlers.onConnection(null);
          handlers.onSnapshot(frame.snapshot);
        } else handlers.onEvent(frame.event);
      },
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      parser.feed(value);
    }
  };
  const loop = async () => {
    while (!signal.aborted) {
      try {
        await once();
        if (signal.aborted) return;
        handlers.onConnection('The connection to the dashboard dropped; reconnecting…');
      } catch (err) {
        if (signal.aborted) return;
        if (err instanceof FinalError) return handlers.onConnection(err.message);
        handlers.onConnection(`The chat's stream failed (${err instanceof Error ? err.message : String(err)}); retrying…`);
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]));
      failures += 1;
    }
  };
  void loop();
}
