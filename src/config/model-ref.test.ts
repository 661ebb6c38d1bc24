import { describe, expect, it } from 'vitest';
import { BUILTIN_SHORT_NAMES } from '../domain/short-names.js';
import { resolveModelRef, splitProviderModel } from './model-ref.js';
import { configSchema } from './schema.js';

const config = configSchema.parse({
  model: {
    provider: 'openrouter',
    default: 'anthropic/claude-x',
    base_url: 'https://model.example',
    aliases: {
      fast: 'openrouter/anthropic/claude-fast',
      sonnet: 'openai/gpt-4o',
      Mixed: 'custom/m',
      quick: 'openrouter/anthropic/claude-x',
    },
  },
  model_aliases: {
    fast: { provider: 'anthropic', model: 'claude-haiku', base_url: 'https://alias.example' },
    Opus: { provider: 'custom', model: 'o', base_url: '' },
    plain: { provider: 'openai', model: 'gpt-4.1' },
  },
});

const bare = configSchema.parse({});

describe('resolveModelRef precedence', () => {
  it('prefers model_aliases over model.aliases, keeping base_url', () => {
    expect(resolveModelRef('fast', config)).toEqual({
      provider: 'anthropic',
      model: 'claude-haiku',
      base_url: 'https://alias.example',
      source: 'model_aliases',
    });
  });

  it('prefers model_aliases over built-in short names', () => {
    expect(resolveModelRef('opus', config)).toEqual({ provider: 'custom', model: 'o', source: 'model_aliases' });
  });

  it('leaves base_url out of a model_aliases entry without one', () => {
    expect(resolveModelRef('plain', config)).toEqual({ provider: 'openai', model: 'gpt-4.1', source: 'model_aliases' });
  });

  it('prefers model.aliases over built-in short names', () => {
    expect(resolveModelRef('sonnet', config)).toEqual({ provider: 'openai', model: 'gpt-4o', source: 'model.aliases' });
  });

  it('splits model.aliases on the first slash and never carries base_url', () => {
    expect(resolveModelRef('quick', config)).toEqual({
      provider: 'openrouter',
      model: 'anthropic/claude-x',
      source: 'model.aliases',
    });
  });

  it('falls back to built-in short names', () => {
    expect(resolveModelRef('haiku', config)).toEqual({ provider: 'anthropic', model: 'claude-haiku-4-5', source: 'builtin' });
    expect(resolveModelRef('gpt5-mini', bare)).toEqual({ provider: 'openai', model: 'gpt-5-mini', source: 'builtin' });
  });

  it.each(Object.entries(BUILTIN_SHORT_NAMES))('resolves every built-in short name: %s', (name, target) => {
    expect(resolveModelRef(name, bare)).toEqual({ provider: target.provider, model: target.model, source: 'builtin' });
  });

  it('reads "<known provider>/<model>" on the first slash', () => {
    expect(resolveModelRef('openai/gpt-4o', config)).toEqual({ provider: 'openai', model: 'gpt-4o', source: 'provider/model' });
    expect(resolveModelRef('openrouter/anthropic/claude-x', bare)).toEqual({
      provider: 'openrouter',
      model: 'anthropic/claude-x',
      source: 'provider/model',
    });
    expect(resolveModelRef('cloud-hosted/m', bare)).toEqual({ provider: 'cloud-hosted', model: 'm', source: 'provider/model' });
  });

  it('treats an aggregator id whose prefix is not a provider as a bare model', () => {
    expect(resolveModelRef('meta-llama/llama-4', config)).toEqual({ model: 'meta-llama/llama-4', source: 'model' });
  });

  it.each(['gpt-4o', 'openrouter/', '/x', ''])('treats %j as a bare model', (input) => {
    expect(resolveModelRef(input, config)).toEqual({ model: input, source: 'model' });
  });
});

describe('resolveModelRef names', () => {
  it.each(['FAST', 'Fast', ' fast '])('matches model_aliases case-insensitively and trimmed: %j', (input) => {
    expect(resolveModelRef(input, config).source).toBe('model_aliases');
  });

  it('matches model.aliases case-insensitively both ways', () => {
    expect(resolveModelRef('SONNET', config)).toEqual({ provider: 'openai', model: 'gpt-4o', source: 'model.aliases' });
    expect(resolveModelRef('mixed', config)).toEqual({ provider: 'custom', model: 'm', source: 'model.aliases' });
  });

  it('matches built-in short names case-insensitively', () => {
    expect(resolveModelRef('Haiku', bare)).toEqual({ provider: 'anthropic', model: 'claude-haiku-4-5', source: 'builtin' });
  });

  it('trims a bare model', () => {
    expect(resolveModelRef('  gpt-4o \n', bare)).toEqual({ model: 'gpt-4o', source: 'model' });
  });
});

describe('resolveModelRef with other configs', () => {
  it("works when model is '' (not configured)", () => {
    expect(bare.model).toBe('');
    expect(resolveModelRef('sonnet', bare)).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-6', source: 'builtin' });
    expect(resolveModelRef('fast', bare)).toEqual({ model: 'fast', source: 'model' });
  });

  it('works without model.aliases', () => {
    const noAliases = configSchema.parse({ model: { provider: 'openai', default: 'gpt-4o' } });
    expect(resolveModelRef('opus', noAliases)).toEqual({ provider: 'anthropic', model: 'claude-opus-4-7', source: 'builtin' });
  });

  it('skips a model.aliases value without a provider prefix', () => {
    const loose = { model: { aliases: { sonnet: 'noslash', odd: 'openai/' } }, model_aliases: {} } as never;
    expect(resolveModelRef('sonnet', loose)).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-6', source: 'builtin' });
    expect(resolveModelRef('odd', loose)).toEqual({ model: 'odd', source: 'model' });
  });
});

describe('splitProviderModel', () => {
  it('splits on the first slash', () => {
    expect(splitProviderModel('a/b/c')).toEqual({ provider: 'a', model: 'b/c' });
  });

  it.each(['noslash', '/x', 'x/', ''])('refuses %j', (ref) => {
    expect(splitProviderModel(ref)).toBeUndefined();
  });
});
