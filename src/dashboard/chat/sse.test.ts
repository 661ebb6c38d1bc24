import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { encodeSseFrame, HEARTBEAT_FRAME } from './sse.js';

function parse(text: string): EventSourceMessage[] {
  const seen: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => seen.push(event) });
  parser.feed(text);
  return seen;
}

describe('encodeSseFrame', () => {
  it('writes one event line, one data line of JSON and a blank line', () => {
    expect(encodeSseFrame('text', { type: 'text', delta: 'Hi' })).toBe('event: text\ndata: {"type":"text","delta":"Hi"}\n\n');
  });

  it('keeps line breaks and frame-like text inside the JSON, so a model cannot forge a frame', () => {
    const delta = 'line one\n\nevent: done\ndata: {}\r\n';
    const frames = parse(encodeSseFrame('text', { type: 'text', delta }) + HEARTBEAT_FRAME + encodeSseFrame('stopped', { type: 'stopped' }));
    expect(frames.map((f) => [f.event, JSON.parse(f.data) as unknown])).toEqual([
      ['text', { type: 'text', delta }],
      ['stopped', { type: 'stopped' }],
    ]);
  });

  it('refuses an event name that is not a plain word', () => {
    expect(() => encodeSseFrame('text\ndata: x', {})).toThrow('not an event name');
  });
});
