import { describe, expect, it } from 'vitest';
import { takesImages } from './catalog.js';

describe('takesImages', () => {
  it.each([
    ['openai', 'gpt-4.1', true],
    ['openai', 'GPT-5', true],
    ['anthropic', 'claude-sonnet-4-5', true],
    ['openrouter', 'google/gemini-2.5-flash', true],
    ['openrouter', 'qwen/qwen3-coder', false], // listed, without the vision capability
    ['openai', 'main-m', false], // not in the catalog: not guessed at
    ['cloud-hosted', 'gpt-4o', false], // a deployment's name says nothing certain
    ['custom', 'llava', false],
  ])('%s %s: %s', (provider, model, expected) => {
    expect(takesImages(provider, model)).toBe(expected);
  });
});
