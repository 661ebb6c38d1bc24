// GET /api/chat/sessions/:id/events: one Server-Sent Events stream per tab and session. First a
// `snapshot` (the stored conversation, or the history and what the running turn has said so far),
// then every event of the session's runs as it happens, and a heartbeat comment every 15 s. The
// stream stays open across runs; a closed tab only unsubscribes, never stops a run.
//
// Authentication: the page reads this stream with fetch() and a ReadableStream, not EventSource,
// so the request carries the X-Service-Session-Token header and passes the same checks in
// server.ts as every other /api call (and the sign-in cookie). EventSource cannot send headers;
// the token would have to travel in the URL, where it lands in logs and history, or a ticket
// scheme would be needed for no gain.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChatEvent, ChatItem } from './chat-items.js';
import type { RunManager } from './run-manager.js';
import { encodeSseFrame, HEARTBEAT_FRAME, HEARTBEAT_MS } from './sse.js';

/** A watcher this far behind (a stalled tab) is cut off; it reconnects and gets a fresh snapshot. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export type StreamDeps = {
  readonly manager: RunManager;
  /** The stored conversation as items (read when no run is going). */
  readonly storedItems: () => Promise<ChatItem[]>;
  /** The session fields of the snapshot (the session and the model it uses), read once per stream. */
  readonly header: Record<string, unknown>;
  readonly heartbeatMs?: number;
};

export async function streamSessionEvents(req: IncomingMessage, res: ServerResponse, sessionId: string, deps: StreamDeps): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-accel-buffering': 'no',
    connection: 'keep-alive',
  });
  res.flushHeaders();
  let open = true;
  const write = (frame: string) => {
    if (!open) return;
    res.write(frame);
    if (res.writableLength > MAX_BUFFERED_BYTES) res.destroy();
  };
  let buffered: ChatEvent[] | undefined = [];
  const unsubscribe = deps.manager.watch(sessionId, (event) => {
    if (buffered) buffered.push(event);
    else write(encodeSseFrame(event.type, event));
  });
  const heartbeat = setInterval(() => write(HEARTBEAT_FRAME), deps.heartbeatMs ?? HEARTBEAT_MS);
  const end = () => {
    open = false;
    clearInterval(heartbeat);
    unsubscribe();
  };
  req.once('close', end);
  res.once('close', end);

  try {
    write(encodeSseFrame('snapshot', { ...deps.header, ...(await snapshotOf(sessionId, deps, () => (buffered?.length ?? 0) > 0)) }));
  } catch (err) {
    write(encodeSseFrame('error', { type: 'error', message: err instanceof Error ? err.message : String(err) }));
    res.end();
    return;
  }
  // Whatever came in while the snapshot was read is already in it (see snapshotOf).
  buffered = undefined;
}

/**
 * What the tab sees first. A running turn is taken from memory (its items include every event so
 * far); otherwise the store, read again if a run came and went while it was read.
 */
async function snapshotOf(sessionId: string, deps: StreamDeps, eventsArrived: () => boolean) {
  const fromRun = () => {
    const run = deps.manager.snapshot(sessionId);
    return run ? { running: true, runId: run.runId, items: [...run.history, ...run.items] } : undefined;
  };
  const live = fromRun();
  if (live) return live;
  let items = await deps.storedItems();
  const startedMeanwhile = fromRun();
  if (startedMeanwhile) return startedMeanwhile;
  if (eventsArrived()) items = await deps.storedItems();
  return { running: false, runId: null, items };
}
