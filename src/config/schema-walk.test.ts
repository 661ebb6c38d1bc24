import { describe, expect, it } from 'vitest';
import { describeSchema, findUnknownKeys, schemaAt } from './schema-walk.js';
import { configSchema } from './schema.js';

/** What `describeSchema` says about the schema at a path, or undefined where there is none. */
function describeAt(path: ReadonlyArray<string | number>): string | undefined {
  const schema = schemaAt(configSchema, path);
  return schema === undefined ? undefined : describeSchema(schema);
}

describe('schemaAt', () => {
  it('returns the root for an empty path', () => {
    expect(schemaAt(configSchema, [])).toBe(configSchema);
  });

  it.each([
    [['approval_mode'], 'manual, smart, off'],
    [['model'], "'' or a mapping"],
    [['model', 'default'], 'a string'],
    [['model', 'aliases', 'anything'], '"<provider>/<model>"'],
    [['model_aliases', 'any-name', 'base_url'], 'a string'],
    [['auxiliary', 'vision', 'download_timeout'], 'an integer > 0'],
    [['auxiliary', 'vision', 'extra_body', 'anything'], 'any value'],
    [['platforms', 'webhook', 'extra', 'host'], 'a non-empty string'],
    [['platforms', 'webhook', 'extra', 'routes', 'any-route', 'deliver'], 'log, forge_comment, sms, telegram, discord, slack, signal'],
    [['platforms', 'webhook', 'extra', 'routes', 'r', 'deliver_extra', 'chat_id'], 'a string or a number'],
    [['platforms', 'webhook', 'extra', 'routes', 'r', 'filters', 0, 'in'], 'a list'],
    [['auxiliary', 'vision', 'fallback_chain', 0, 'provider'], 'a non-empty string'],
    [['fallback_providers', 3, 'api_mode'], 'chat_completions, codex_responses, anthropic_messages'],
    [['fallback_model', 'provider'], 'a non-empty string'],
  ])('finds the schema at %j', (path, described) => {
    expect(describeAt(path)).toBe(described);
  });

  it.each([
    [['foo']],
    [['model', 'bar']],
    [['auxiliary', 'not_a_task']],
    [['auxiliary', 'vision', 'zzz']],
    [['auxiliary', 'web_extract', 'download_timeout']],
    [['auxiliary', 'vision', 'extra_body', 'anything', 'deeper']],
    [['auxiliary', 'vision', 'fallback_chain', 'x']],
    [['approval_mode', 'x']],
    [['foo', 'bar', 'baz']],
  ])('returns undefined for the unknown path %j', (path) => {
    expect(schemaAt(configSchema, path)).toBeUndefined();
  });

  it('descends into a list on an index, given as a number or as digits (CLI dotted keys)', () => {
    const byNumber = schemaAt(configSchema, ['auxiliary', 'vision', 'fallback_chain', 0, 'provider']);
    const byDigits = schemaAt(configSchema, ['auxiliary', 'vision', 'fallback_chain', '0', 'provider']);
    expect(byDigits).toBeDefined();
    expect(byDigits).toBe(byNumber);
    expect(schemaAt(configSchema, ['auxiliary', 'vision', 'fallback_chain', 'first', 'provider'])).toBeUndefined();
  });
});

describe('describeSchema', () => {
  it.each([
    [['approval_mode'], 'manual, smart, off'],
    [['platforms', 'webhook', 'extra', 'port'], 'an integer from 0 to 65535'],
    [['auxiliary', 'vision', 'timeout'], 'an integer > 0'],
    [['platforms', 'webhook', 'extra', 'rate_limit'], 'an integer > 0'],
    [['model', 'context_length'], 'an integer > 0'],
    [['platforms', 'webhook', 'enabled'], 'true or false'],
    [['fallback_providers'], 'a list'],
    [['platforms', 'webhook', 'extra', 'routes'], 'a mapping'],
    [['fallback_model'], "'' or \"<provider>/<model>\" or a mapping"],
    [[], 'a mapping'],
  ])('describes %j as %j', (path, described) => {
    expect(describeAt(path)).toBe(described);
  });
});

describe('findUnknownKeys', () => {
  it('reports keys the schema does not name, at any depth', () => {
    const data = {
      foo: 1,
      model: { provider: 'openrouter', bar: 2 },
      auxiliary: { vision: { zzz: 1 }, not_a_task: {} },
      platforms: { matrix: {} },
    };
    expect(findUnknownKeys(configSchema, data)).toEqual([
      ['foo'],
      ['model', 'bar'],
      ['auxiliary', 'vision', 'zzz'],
      ['auxiliary', 'not_a_task'],
      ['platforms', 'matrix'],
    ]);
  });

  it('reports unknown keys inside list items with the index as a number', () => {
    const data = {
      auxiliary: { vision: { fallback_chain: [{ provider: 'a', model: 'b' }, { provider: 'a', model: 'b', qq: 1 }] } },
      fallback_providers: [{ provider: 'a', model: 'b', zz: 1 }, 'not a mapping'],
      fallback_model: { provider: 'a', model: 'b', yy: 1 },
    };
    expect(findUnknownKeys(configSchema, data)).toEqual([
      ['auxiliary', 'vision', 'fallback_chain', 1, 'qq'],
      ['fallback_providers', 0, 'zz'],
      ['fallback_model', 'yy'],
    ]);
  });

  it('walks records without reporting their keys, but checks their values', () => {
    const data = {
      model: { aliases: { anything: 'a/b' } },
      model_aliases: { myalias: { provider: 'a', model: 'b', extra: 1 } },
      platforms: {
        webhook: {
          extra: { routes: { 'my-route': { deliver: 'log', nope: 1, deliver_extra: { any_key: 1 } } } },
        },
      },
    };
    expect(findUnknownKeys(configSchema, data)).toEqual([
      ['model_aliases', 'myalias', 'extra'],
      ['platforms', 'webhook', 'extra', 'routes', 'my-route', 'nope'],
    ]);
  });

  it('does not look inside extra_body', () => {
    const data = { auxiliary: { vision: { extra_body: { whatever: { deep: { deeper: 1 } }, top_k: 3 } } } };
    expect(findUnknownKeys(configSchema, data)).toEqual([]);
  });

  it('reports nothing for a complete, known config', () => {
    const data = configSchema.parse({
      model: { provider: 'openrouter', default: 'x' },
      platforms: { webhook: { enabled: true, extra: { routes: { r: { events: ['push'] } } } } },
    });
    expect(findUnknownKeys(configSchema, data)).toEqual([]);
  });

  it('leaves wrong types to validation', () => {
    expect(findUnknownKeys(configSchema, { model: 'oops', approval_mode: 'x', fallback_providers: 'x' })).toEqual([]);
    expect(findUnknownKeys(configSchema, 'not a mapping')).toEqual([]);
    expect(findUnknownKeys(configSchema, null)).toEqual([]);
  });
});
