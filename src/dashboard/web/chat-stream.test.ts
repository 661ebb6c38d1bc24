import { createParser } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { encodeSseFrame, HEARTBEAT_FRAME } from '../chat/sse.js';
import { readFrame } from './chat-stream.js';

describe('readFrame', () => {
  it('reads what the server encodes: the snapshot and the run events, skipping heartbeats', () => {
    const read: unknown[] = [];
    const parser = createParser({ onEvent: (message) => read.push(readFrame(message.event, message.data)) });
    parser.feed(encodeSseFrame('snapshot', { running: false, runId: null, items: [] }));
    parser.feed(HEARTBEAT_FRAME);
    // Split anywhere, as the network may.
    const text = encodeSseFrame('text', { type: 'text', delta: 'a\n\nb' });
    parser.feed(text.slice(0, 9));
    parser.feed(text.slice(9));
    expect(read).toEqual([{ snapshot: { running: false, runId: null, items: [] } }, { event: { type: 'text', delta: 'a\n\nb' } }]);
  });

  it('ignores unknown events, bad JSON and a type that disagrees with the event name', () => {
    expect(readFrame('surprise', '{"type":"surprise"}')).toBeUndefined();
    expect(readFrame('text', '{nope')).toBeUndefined();
    expect(readFrame('done', '{"type":"text","delta":"x"}')).toBeUndefined();
    expect(readFrame(undefined, '{"type":"text"}')).toBeUndefined();
  });
});
