import { describe, expect, it } from 'vitest';
import { createRefusalSampler, OTHER_KEY } from './refusal-log.js';

function sampler(over: { perKey?: number; maxKeys?: number } = {}) {
  let now = 0;
  const s = createRefusalSampler({ perKey: over.perKey ?? 2, windowMs: 60_000, maxKeys: over.maxKeys ?? 100, nowMs: () => now });
  return { s, advance: (ms: number) => (now += ms) };
}

describe('createRefusalSampler', () => {
  it('logs the first perKey refusals per route and address in a window, and counts the rest', () => {
    const { s } = sampler();
    expect([1, 2, 3, 4].map(() => s.take('pr', '10.0.0.1'))).toEqual([true, true, false, false]);
    expect(s.take('pr', '10.0.0.2')).toBe(true);
    expect(s.take('ci', '10.0.0.1')).toBe(true);
    expect(s.drainDropped()).toEqual({ total: 2, byRoute: { pr: 2 }, topRemotes: [{ remote: '10.0.0.1', dropped: 2 }] });
    expect(s.drainDropped()).toEqual({ total: 0, byRoute: {}, topRemotes: [] });
  });

  it('starts again in the next window, keeping the last window\'s drops for the summary', () => {
    const { s, advance } = sampler({ perKey: 1 });
    s.take('pr', 'a');
    s.take('pr', 'a');
    advance(60_000);
    expect(s.take('pr', 'a')).toBe(true);
    expect(s.drainDropped().total).toBe(1);
  });

  it('bounds its memory: addresses beyond maxKeys are counted under (other), never logged', () => {
    const { s } = sampler({ maxKeys: 2 });
    expect(s.take('pr', 'a')).toBe(true);
    expect(s.take('pr', 'b')).toBe(true);
    expect(s.take('pr', 'c')).toBe(false);
    expect(s.take('pr', 'd')).toBe(false);
    expect(s.drainDropped()).toEqual({ total: 2, byRoute: { [OTHER_KEY]: 2 }, topRemotes: [] });
  });

  it('names at most 10 addresses, most dropped first', () => {
    const { s } = sampler({ perKey: 0 });
    for (let i = 0; i < 12; i++) for (let n = 0; n <= i; n++) s.take('pr', `10.0.0.${i}`);
    const dropped = s.drainDropped();
    expect(dropped.total).toBe(78);
    expect(dropped.topRemotes).toHaveLength(10);
    expect(dropped.topRemotes[0]).toEqual({ remote: '10.0.0.11', dropped: 12 });
  });
});
