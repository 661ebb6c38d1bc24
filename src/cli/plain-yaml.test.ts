import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validate.js';
import { plainYaml } from './plain-yaml.js';

const packageYaml = (value: unknown) => stringify(value, { lineWidth: 0 });

/** A small seeded generator (mulberry32), so a failure names a case that can be run again. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Words and characters that decide between plain and quoted text in YAML.
const WORDS = ['true', 'False', 'NULL', 'null', '~', 'yes', 'off', '1e3', '0x1f', '0o17', '.inf', '.nan', '-1', '+2', '3.5', 'gpt-4.1', 'https://x.io/a', 'a: b', 'a #b', 'a#b', 'x:', '', '0.0.0.0', '1.2.3', '.5', '1.', '1e', '1_000', '0b1', '0755', '0X1F', '+.INF', '.NaN', 'v1', '2026-11-28'];
const CHARS = 'abcXYZ019 _-./:#?,[]{}&*!|>\'"%@`~+\t\n…é';

function randomString(next: () => number): string {
  if (next() < 0.3) return WORDS[Math.floor(next() * WORDS.length)]!;
  const length = Math.floor(next() * 8);
  let text = '';
  for (let i = 0; i < length; i++) text += CHARS[Math.floor(next() * CHARS.length)];
  return text;
}

function randomValue(next: () => number, depth: number): unknown {
  const pick = next();
  if (depth > 0 && pick < 0.25) {
    const map: Record<string, unknown> = {};
    const size = Math.floor(next() * 4);
    for (let i = 0; i < size; i++) map[next() < 0.7 ? `k${Math.floor(next() * 9)}` : randomString(next)] = randomValue(next, depth - 1);
    return map;
  }
  if (depth > 0 && pick < 0.4) return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth - 1));
  if (pick < 0.5) return null;
  if (pick < 0.6) return next() < 0.5;
  if (pick < 0.7) return [0, -3, 0.5, 1e21, -0, 42, 1.5e-7, Number.NaN][Math.floor(next() * 8)];
  return randomString(next);
}

describe('plainYaml', () => {
  it('writes what the yaml package writes, for every value it does not hand back', () => {
    const next = random(20261128);
    const values = Array.from({ length: 4_000 }, () => {
      const map: Record<string, unknown> = {};
      for (let i = 0; i < 4; i++) map[`key${i}`] = randomValue(next, 4);
      return map;
    });
    const written = values.map((value) => ({ value, mine: plainYaml(value) }));
    const differ = written.filter(({ value, mine }) => mine !== undefined && mine !== packageYaml(value));
    expect(differ).toEqual([]);
    // Enough of them are written here for the comparison to mean something.
    expect(written.filter(({ mine }) => mine !== undefined).length).toBeGreaterThan(200);
  });

  it.each([
    [{ a: '' }, 'a: ""\n'],
    [{ a: {}, b: [] }, 'a: {}\nb: []\n'],
    [{ a: [{}] }, 'a:\n  - {}\n'],
    [{ a: [{ b: { c: 1 } }] }, 'a:\n  - b:\n      c: 1\n'],
    [{ a: [{ b: [1, 2], c: { d: null } }] }, 'a:\n  - b:\n      - 1\n      - 2\n    c:\n      d: null\n'],
    [{ prompt: 'Review {pull_request.title}', api_base: 'https://api.telegram.org', secret: 'ben…6789', schedule: 'off' }, 'prompt: Review {pull_request.title}\napi_base: https://api.telegram.org\nsecret: ben…6789\nschedule: off\n'],
    [{}, '{}\n'],
  ])('%j is written as the package writes it', (value, text) => {
    expect(plainYaml(value)).toBe(text);
    expect(packageYaml(value)).toBe(text);
  });

  it.each([
    [{ a: 'true' }],
    [{ a: '123' }],
    [{ a: 'a: b' }],
    [{ a: '-x' }],
    [{ a: 'line\nbreak' }],
    [{ a: [[1]] }],
    [{ a: 1e21 }],
    [{ a: undefined }],
    [{ a: new Date(0) }],
    [{ 'a: b': 1 }],
  ])('%j is handed back to the package', (value) => {
    expect(plainYaml(value)).toBeUndefined();
  });

  it('writes the whole default config itself (config show does not load the package)', () => {
    const { config } = validateConfig({
      model: { provider: 'openrouter', default: 'anthropic/claude-sonnet-4' },
      fallback_providers: [{ provider: 'anthropic', model: 'claude-sonnet-4-6' }],
      platforms: { webhook: { enabled: true, extra: { routes: { pr: { events: ['pull_request'], prompt: 'Review {pull_request.title}', deliver: 'log' } } } } },
    });
    const text = plainYaml(config);
    expect(text).toBe(packageYaml(config));
  });
});
