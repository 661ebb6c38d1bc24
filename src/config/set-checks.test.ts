import { describe, expect, it } from 'vitest';
import { checkSetTarget } from './set-checks.js';

describe('checkSetTarget', () => {
  it.each([
    [['model', 'provider'], 'openai'],
    [['model', 'default'], 'anything/at-all'],
    [['auxiliary', 'vision', 'provider'], 'auto'],
    [['auxiliary', 'vision', 'fallback_chain', '0', 'provider'], 'anthropic'],
    [['model_aliases', 'fast', 'provider'], 'openrouter'],
    [['platforms', 'webhook', 'extra', 'routes', 'pr', 'deliver'], 'log'],
    [['fallback_providers', '0', 'provider'], 'custom'],
    [['model', 'provider'], ''],
  ])('accepts %j = %j', (path, value) => {
    expect(checkSetTarget(path, value)).toEqual({ ok: true });
  });

  it('refuses an unknown key, naming the nearest known one', () => {
    expect(checkSetTarget(['model', 'provder'], 'openai')).toEqual({
      ok: false,
      code: 'invalid_key',
      message: 'unknown config key model.provder; did you mean model.provider? (pass --force to write it anyway, e.g. for an extension\'s key)',
    });
    expect(checkSetTarget(['auxiliary', 'vison', 'model'], 'x')).toMatchObject({ ok: false, message: expect.stringContaining('did you mean auxiliary.vision?') as unknown });
    expect(checkSetTarget(['future', 'knob'], 3)).toEqual({
      ok: false,
      code: 'invalid_key',
      message: "unknown config key future.knob (pass --force to write it anyway, e.g. for an extension's key)",
    });
  });

  it('refuses a provider that does not exist; auto only on an aux slot itself', () => {
    expect(checkSetTarget(['auxiliary', 'vision', 'provider'], 'nope')).toEqual({
      ok: false,
      code: 'invalid_value',
      message: 'unknown provider "nope" for auxiliary.vision.provider (providers: auto, openrouter, openai, anthropic, cloud-hosted, custom; pass --force to write it anyway)',
    });
    expect(checkSetTarget(['model', 'provider'], 'opnai')).toMatchObject({ ok: false, message: expect.stringContaining('did you mean openai?') as unknown });
    expect(checkSetTarget(['model', 'provider'], 'auto')).toMatchObject({ ok: false, code: 'invalid_value' });
  });
});
