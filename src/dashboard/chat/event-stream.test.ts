import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatItem, RunEndEvent } from './chat-items.js';
import { streamSessionEvents } from './event-stream.js';
import { createRunManager, type RunHandle } from './run-manager.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function serve(manager: ReturnType<typeof createRunManager>, stored: ChatItem[], heartbeatMs: number): Promise<string> {
  server = createServer((req, res) => {
    void streamSessionEvents(req, res, 's1', { manager, storedItems: async () => stored, header: { session: { id: 's1' } }, heartbeatMs });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** Reads the stream until `enough` says so; the raw text. */
async function readUntil(url: string, enough: (text: string) => boolean, onText: (text: string) => void = () => {}): Promise<{ text: string; headers: Headers }> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    text += decoder.decode(chunk, { stream: true });
    onText(text);
    if (enough(text)) break;
  }
  controller.abort();
  return { text, headers: response.headers };
}

describe('the chat event stream', () => {
  it('opens with the stored conversation, then heartbeats while idle', async () => {
    const url = await serve(createRunManager(), [{ kind: 'user', text: 'hi' }], 20);
    const { text, headers } = await readUntil(url, (t) => t.includes(': heartbeat\n\n'));
    expect(headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(headers.get('cache-control')).toBe('no-store');
    expect(text).toBe('event: snapshot\ndata: {"session":{"id":"s1"},"running":false,"runId":null,"items":[{"kind":"user","text":"hi"}]}\n\n: heartbeat\n\n');
  });

  it('gives a tab that connects mid-run the history and the run so far, then the rest of the run', async () => {
    const manager = createRunManager({ newId: () => 'r1' });
    let run: RunHandle | undefined;
    let finish: (end: RunEndEvent) => void = () => {};
    manager.start('s1', { text: 'go', history: [{ kind: 'assistant', text: 'before' }] }, (handle) => {
      run = handle;
      return new Promise((resolve) => (finish = resolve));
    });
    await new Promise((resolve) => setImmediate(resolve));
    run!.emit({ type: 'text', delta: 'Hal' });
    const url = await serve(manager, [], 60_000);
    let sent = false;
    // The rest of the run goes on once this tab has its snapshot.
    const reading = readUntil(
      url,
      (t) => t.includes('event: done'),
      (t) => {
        if (sent || !t.includes('event: snapshot')) return;
        sent = true;
        run!.emit({ type: 'text', delta: 'f' });
        finish({ type: 'done', reason: 'done' });
      },
    );
    expect((await reading).text).toBe(
      'event: snapshot\ndata: {"session":{"id":"s1"},"running":true,"runId":"r1","items":[{"kind":"assistant","text":"before"},{"kind":"user","text":"go"},{"kind":"assistant","text":"Hal"}]}\n\n' +
        'event: text\ndata: {"type":"text","delta":"f"}\n\n' +
        'event: done\ndata: {"type":"done","reason":"done"}\n\n',
    );
  });
});
