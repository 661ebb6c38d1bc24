import { describe, expect, it } from 'vitest';
import { OPTIONS } from './fixtures.js';
import { chooseProvider, filterProviders } from './picker-filter.js';

const slugs = (query: string) => filterProviders(OPTIONS.providers, query).map((v) => [v.provider.slug, v.models]);

describe('the picker filter', () => {
  it('lists every provider with all its models for an empty query', () => {
    expect(slugs('  ')).toEqual([
      ['openrouter', OPTIONS.providers[0]?.models],
      ['openai', ['gpt-5', 'gpt-4.1']],
      ['cloud-hosted', []],
    ]);
  });

  it('keeps all models of a provider whose name or slug matches, in any case', () => {
    expect(slugs('OpenAI')).toEqual([
      ['openrouter', ['openai/gpt-5']],
      ['openai', ['gpt-5', 'gpt-4.1']],
    ]);
    expect(slugs('cloud-h')).toEqual([['cloud-hosted', []]]);
    expect(slugs('router')).toEqual([['openrouter', OPTIONS.providers[0]?.models]]);
  });

  it('narrows by model id and drops providers with no match', () => {
    expect(slugs('gemini')).toEqual([['openrouter', ['google/gemini-2.5-pro']]]);
    expect(slugs('4.1')).toEqual([['openai', ['gpt-4.1']]]);
    expect(slugs('no-such-model')).toEqual([]);
  });

  it('keeps the chosen provider while it is listed, else the first one', () => {
    const visible = filterProviders(OPTIONS.providers, 'gpt');
    expect(chooseProvider(visible, 'openai')).toBe('openai');
    expect(chooseProvider(visible, 'cloud-hosted')).toBe('openrouter');
    expect(chooseProvider(visible, undefined)).toBe('openrouter');
    expect(chooseProvider([], 'openai')).toBeUndefined();
  });
});
