import { describe, expect, it } from 'vitest';
import { changedConfig, changedFromDefaults, schemaEntryDefaults } from './changed.js';
import { validateConfig } from './validate.js';

const effective = (raw: Record<string, unknown>) => validateConfig(raw).config;

describe('changedFromDefaults', () => {
  it('keeps only the keys that differ, nested as they were', () => {
    expect(changedFromDefaults({ a: 1, b: { c: 2, d: 3 }, e: [1] }, { a: 1, b: { c: 2, d: 4 }, e: [1] })).toEqual({ b: { d: 3 } });
  });

  it('compares lists whole and shows keys the defaults do not have', () => {
    expect(changedFromDefaults({ list: [1, 2], extra: { x: 1 } }, { list: [1] })).toEqual({ list: [1, 2], extra: { x: 1 } });
  });

  it('a mapping where the default is a scalar is shown against its entry defaults, and never vanishes', () => {
    const entry = (path: readonly string[]) => (path.join('.') === 'm' ? { on: true } : undefined);
    expect(changedFromDefaults({ m: { on: true, name: 'x' } }, { m: '' }, entry)).toEqual({ m: { name: 'x' } });
    expect(changedFromDefaults({ m: { on: true } }, { m: '' }, entry)).toEqual({ m: {} });
  });

  it('nothing changed: an empty mapping', () => {
    expect(changedFromDefaults({ a: { b: 1 } }, { a: { b: 1 } })).toEqual({});
  });
});

describe('changedConfig', () => {
  it('an empty config.yaml, or one that writes out the defaults, changes nothing', () => {
    expect(changedConfig(effective({}))).toEqual({});
    expect(changedConfig(effective({ approval_mode: 'manual', auxiliary: { vision: { timeout: 120, provider: 'auto' } } }))).toEqual({});
  });

  it('a webhook route shows only what it sets, not the defaults every route gets', () => {
    const config = effective({
      platforms: { webhook: { enabled: true, extra: { routes: { 'pr-review': { events: ['pull_request'], deliver: 'forge_comment' }, quiet: {} } } } },
    });
    expect(changedConfig(config)).toEqual({
      platforms: { webhook: { enabled: true, extra: { routes: { 'pr-review': { events: ['pull_request'], deliver: 'forge_comment' }, quiet: {} } } } },
    });
  });

  it('the model mapping replaces the default \'\' and is shown in full', () => {
    expect(changedConfig(effective({ model: { provider: 'openrouter', default: 'x/y' } }))).toEqual({ model: { provider: 'openrouter', default: 'x/y' } });
  });

  it('an aux slot shows its own keys; a fallback chain is shown whole', () => {
    const config = effective({ auxiliary: { mcp: { fallback_chain: [{ provider: 'openai', model: 'gpt-5-mini' }], extra_body: { temperature: 0 } } } });
    expect(changedConfig(config)).toEqual({
      auxiliary: { mcp: { fallback_chain: [{ provider: 'openai', model: 'gpt-5-mini' }], extra_body: { temperature: 0 } } },
    });
  });
});

describe('schemaEntryDefaults', () => {
  it('a new route gets the route defaults; a path the schema does not know gets none', () => {
    expect(schemaEntryDefaults(['platforms', 'webhook', 'extra', 'routes', 'any'])).toEqual({
      enabled: true,
      events: [],
      filters: [],
      skills: [],
      toolsets: [],
      deliver: 'log',
      deliver_extra: {},
      session: 'per_event',
      commands: false,
      coalesce_seconds: 30,
    });
    expect(schemaEntryDefaults(['my_extension'])).toBeUndefined();
    // An alias needs a model and a provider: no defaults to subtract.
    expect(schemaEntryDefaults(['model_aliases', 'fast'])).toBeUndefined();
  });
});
