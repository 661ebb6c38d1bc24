// The fake upstream's streams that go wrong: cut off, malformed, failing after output, hanging,
// and slow to start. These are what client timeouts and error classification are tested against,
// so each must behave exactly as documented.
import { describe, expect, it } from 'vitest';
import { after, parseSse, post, useFakeUpstream } from './upstream-test-kit.js';
import { parseJson } from '../helpers/documents.js';

const fake = useFakeUpstream();

const CHAT = '/v1/chat/completions';
const RESPONSES = '/v1/responses';
const MESSAGES = '/v1/messages';

/** What each format sends for the text deltas ['a', 'b'] before its closing events. */
const HEADS: Readonly<Record<string, readonly string[]>> = {
  [CHAT]: ['role', 'content:a', 'content:b'],
  [RESPONSES]: [
    'response.created',
    'response.in_progress',
    'response.output_item.added',
    'response.content_part.added',
    'response.output_text.delta',
    'response.output_text.delta',
  ],
  [MESSAGES]: ['message_start', 'ping', 'content_block_start', 'content_block_delta', 'content_block_delta'],
};

function head(path: string): readonly string[] {
  const expected = HEADS[path];
  if (expected === undefined) throw new Error(`no expected head for ${path}`);
  return expected;
}

const PATHS = [CHAT, RESPONSES, MESSAGES] as const;

/** One label per SSE frame: the event name, or for chat (which names none) what the chunk holds. */
function labels(text: string): string[] {
  return parseSse(text).map(({ event, data }) => {
    if (event !== undefined) return event;
    if (data === '[DONE]') return data;
    const chunk = JSON.parse(data) as {
      error?: unknown;
      choices: Array<{ finish_reason: string | null; delta: { role?: string; content?: string } }>;
    };
    if (chunk.error !== undefined) return 'error';
    const choice = chunk.choices[0];
    if (choice === undefined) return 'usage';
    if (choice.finish_reason !== null) return `finish:${choice.finish_reason}`;
    return choice.delta.role === undefined ? `content:${choice.delta.content}` : 'role';
  });
}

function lastData(text: string): unknown {
  return JSON.parse(parseSse(text).at(-1)?.data ?? 'null');
}

/** Reads a streamed body until it holds `frames` complete SSE frames. */
async function readFrames(reader: ReadableStreamDefaultReader<Uint8Array>, frames: number): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  while (text.split('\n\n').length - 1 < frames) {
    const chunk = await reader.read();
    if (chunk.done) throw new Error(`stream ended early after: ${text}`);
    text += decoder.decode(chunk.value, { stream: true });
  }
  return text;
}

describe('truncated', () => {
  it.each(PATHS)('%s streams the deltas and ends cleanly without closing or terminal events', async (path) => {
    fake().script('m', { kind: 'truncated', deltas: ['a', 'b'] });
    const res = await post(fake(), path, { model: 'm', stream: true });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(labels(await res.text())).toEqual(head(path));
  });

  it('answers a non-streaming request with the first half of the JSON body', async () => {
    fake().script('m', { kind: 'truncated', deltas: ['a', 'b'] });
    const cut = await (await post(fake(), CHAT, { model: 'm' })).text();
    fake().reset(); // ids restart, so the whole answer below is byte-identical to the cut one
    const whole = await (await post(fake(), CHAT, { model: 'm', stream: false })).text();
    expect(JSON.parse(whole)).toMatchObject({ choices: [{ message: { content: 'ok' } }] });
    // The truncated answer rendered the text "ab" where the whole one says "ok": same length.
    expect(cut).toBe(whole.replace('"content":"ok"', '"content":"ab"').slice(0, Math.floor(whole.length / 2)));
    expect(() => parseJson(cut)).toThrow();
  });
});

describe('malformed', () => {
  it.each([
    [CHAT, 'data: {not json\n\n'],
    [RESPONSES, 'event: response.created\ndata: {not json\n\n'],
    [MESSAGES, 'event: message_start\ndata: {not json\n\n'],
  ])('%s streams a first event whose data is not JSON, then ends', async (path, body) => {
    fake().script('m', { kind: 'malformed' });
    const res = await post(fake(), path, { model: 'm', stream: true });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(await res.text()).toBe(body);
  });

  it('answers a non-streaming request with a 200 JSON body that is not JSON', async () => {
    fake().script('m', { kind: 'malformed' });
    const res = await post(fake(), RESPONSES, { model: 'm' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.text()).toBe('{not json');
  });
});

describe('mid_stream_error', () => {
  it.each([
    [CHAT, 'error', { error: { message: 'boom', type: 'server_error', param: null, code: null } }],
    [
      RESPONSES,
      'response.failed',
      {
        type: 'response.failed',
        sequence_number: 6,
        response: {
          id: 'resp_fake_1',
          object: 'response',
          created_at: 1_700_000_000,
          status: 'failed',
          error: { code: 'server_error', message: 'boom' },
          incomplete_details: null,
          model: 'm',
          output: [],
          usage: null,
        },
      },
    ],
    [MESSAGES, 'error', { type: 'error', error: { type: 'api_error', message: 'boom' } }],
  ])('%s streams the deltas, then its in-stream error event %s, then ends', async (path, label, data) => {
    fake().script('m', { kind: 'mid_stream_error', deltas: ['a', 'b'], message: 'boom' });
    const res = await post(fake(), path, { model: 'm', stream: true });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(labels(text)).toEqual([...head(path), label]);
    expect(lastData(text)).toEqual(data);
  });

  it('uses the provider\'s usual text when no message is scripted', async () => {
    fake().script('m', { kind: 'mid_stream_error', deltas: ['a'] });
    const res = await post(fake(), CHAT, { model: 'm', stream: true });
    expect(lastData(await res.text())).toEqual({
      error: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: null },
    });
  });

  it('answers a non-streaming request with a provider-shaped 500 carrying the message', async () => {
    fake().script('m', { kind: 'mid_stream_error', deltas: ['a'], message: 'boom' });
    const res = await post(fake(), MESSAGES, { model: 'm' });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'api_error', message: 'boom' } });
  });
});

describe('hang', () => {
  it.each(PATHS)('%s streams the deltas, then stays silent until close() cuts it off', async (path) => {
    fake().script('m', { kind: 'hang', deltas: ['a', 'b'] });
    const res = await post(fake(), path, { model: 'm', stream: true });
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    expect(labels(await readFrames(reader, head(path).length))).toEqual(head(path));
    // Recorded before the answer finished (it never will).
    expect(fake().requests).toHaveLength(1);
    const pending = reader.read();
    expect(await Promise.race([pending.then(() => 'more data'), after(100, 'silent')])).toBe('silent');
    await fake().close();
    await expect(pending).rejects.toThrow();
  });

  it('sends a non-streaming request its headers and then nothing', async () => {
    fake().script('m', { kind: 'hang', deltas: ['a'] });
    const res = await post(fake(), CHAT, { model: 'm' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const body = res.text();
    expect(await Promise.race([body.then(() => 'body'), after(100, 'silent')])).toBe('silent');
    await fake().close();
    await expect(body).rejects.toThrow();
  });
});

describe('slow_first_byte', () => {
  it('sends nothing, not even the status, until the delay has passed', async () => {
    fake().script('m', { kind: 'slow_first_byte', delayMs: 150, then: { kind: 'text', deltas: ['late'] } });
    const started = Date.now();
    const pending = post(fake(), CHAT, { model: 'm', stream: true });
    expect(await Promise.race([pending.then(() => 'headers'), after(60, 'waiting')])).toBe('waiting');
    const res = await pending;
    expect(Date.now() - started).toBeGreaterThanOrEqual(145);
    expect(res.status).toBe(200);
    expect(labels(await res.text())).toEqual(['role', 'content:late', 'finish:stop', '[DONE]']);
  });

  it('delays any behaviour, errors included', async () => {
    fake().script('m', { kind: 'slow_first_byte', delayMs: 80, then: { kind: 'rate_limited', retryAfterSeconds: 2 } });
    const started = Date.now();
    const res = await post(fake(), MESSAGES, { model: 'm' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(75);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
  });

  it('is cut off by close() without waiting out the delay', async () => {
    fake().script('m', { kind: 'slow_first_byte', delayMs: 10_000, then: { kind: 'text', deltas: ['never'] } });
    const pending = post(fake(), CHAT, { model: 'm' });
    await after(50, undefined); // let the request arrive
    expect(fake().requests).toHaveLength(1);
    const started = Date.now();
    await fake().close();
    await expect(pending).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
