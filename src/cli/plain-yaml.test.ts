import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validate.js';
import { plainYaml } from './plain-yaml.js';
import { seededRandom } from '../../test/helpers/seeded-random.js';

const packageYaml = (value: unknown) => stringify(value, { lineWidth: 0 });


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
    const next = seededRandom(20261128);
    const values = Array.from({ length: 6_000 }, (_, n) => {
      if (n % 10 === 0) return randomValue(next, 4); // a list, a scalar or a map at the top
      const map: Record<string, unknown> = {};
      for (let i = 0; i < 4; i++) map[next() < 0.7 ? `key${i}` : randomString(next)] = randomValue(next, 4);
      if (n % 7 === 0) map.again = map[Object.keys(map)[0]!]; // the same map or list twice
      if (n % 50 === 0) map['k'.repeat(1020 + (n % 10))] = 1; // around the package's 1,024 for plain keys
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
    [[], '[]\n'],
    [['a', { b: 1, c: [] }], '- a\n- b: 1\n  c: []\n'],
  ])('%j is written as the package writes it', (value, text) => {
    expect(plainYaml(value)).toBe(text);
    expect(packageYaml(value)).toBe(text);
  });

  const shared = { x: 1 };
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  it.each([
    ['a core-schema boolean as text', { a: 'true' }],
    ['a number as text', { a: '123' }],
    ['": " in text', { a: 'a: b' }],
    ['a leading dash', { a: '-x' }],
    ['a line break', { a: 'line\nbreak' }],
    ['a list in a list', { a: [[1]] }],
    ['an exponent', { a: 1e21 }],
    ['undefined', { a: undefined }],
    ['a Date', { a: new Date(0) }],
    ['a key that needs quotes', { 'a: b': 1 }],
    ['a document-end marker as a key', { '...': 1 }],
    ['a key of 1,025 characters (the package writes `? key`)', { ['k'.repeat(1025)]: 1 }],
    ['one map under two keys (the package writes an anchor and an alias)', { a: shared, b: shared }],
    ['a cycle', cyclic],
  ])('%s is handed back to the package', (_, value) => {
    expect(plainYaml(value)).toBeUndefined();
  });

  it("writes the whole default config itself (config show does not run the package's stringify)", () => {
    const { config } = validateConfig({
      model: { provider: 'openrouter', default: 'anthropic/claude-sonnet-4' },
      fallback_providers: [{ provider: 'anthropic', model: 'claude-sonnet-4-6' }],
      platforms: { webhook: { enabled: true, extra: { routes: { pr: { events: ['pull_request'], prompt: 'Review {pull_request.title}', deliver: 'log' } } } } },
    });
    const text = plainYaml(config);
    expect(text).toBe(packageYaml(config));
  });
});
