// Helpers for the fake upstream's own tests: start one fake per test and read its answers with
// plain fetch, so the tests see exactly the bytes a client would.
import { afterEach, beforeEach } from 'vitest';
import { startFakeUpstream } from './upstream.js';
import type { FakeUpstream } from './upstream.js';

export type Frame = { event?: string; data: string };

/** Starts a fresh fake before each test of the calling file and closes it after. */
export function useFakeUpstream(options?: { models?: string[] }): () => FakeUpstream {
  let fake: FakeUpstream | undefined;
  beforeEach(async () => {
    fake = await startFakeUpstream(options);
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });
  return () => {
    if (fake === undefined) throw new Error('the fake upstream is only available inside a test');
    return fake;
  };
}

export function post(
  fake: FakeUpstream,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${fake.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/**
 * Splits an SSE body into frames. Strict on purpose: every frame must end with a blank line and
 * hold only `event:` and `data:` lines, so a fake that frames events wrongly fails its tests.
 */
export function parseSse(text: string): Frame[] {
  const blocks = text.split('\n\n');
  if (blocks.pop() !== '') throw new Error(`SSE body does not end with a blank line: ${JSON.stringify(text)}`);
  return blocks.map((block) => {
    const frame: Frame = { data: '' };
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) frame.event = line.slice('event: '.length);
      else if (line.startsWith('data: ')) frame.data = line.slice('data: '.length);
      else throw new Error(`unexpected SSE line: ${JSON.stringify(line)}`);
    }
    return frame;
  });
}

/** The data of each frame, parsed as JSON (`[DONE]` stays a string). */
export function sseData(text: string): unknown[] {
  return parseSse(text).map((frame) => (frame.data === '[DONE]' ? frame.data : (JSON.parse(frame.data) as unknown)));
}

/** Event names, for formats that name their events. */
export function sseEvents(text: string): Array<string | undefined> {
  return parseSse(text).map((frame) => frame.event);
}

/** Resolves with `value` after `ms`, to race against something that must not happen yet. */
export function after<T>(ms: number, value: T): Promise<T> {
  return new Promise((resolve) => setTimeout(() => resolve(value), ms));
}
