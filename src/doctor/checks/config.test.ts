import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../config/validate.js';
import { checkConfig, checkMainModel } from './config.js';
import { stringMatching } from '../../../test/helpers/documents.js';

const PATH = '/home/me/.iris/config.yaml';

function facts(raw: unknown, exists = true) {
  return { ok: true as const, path: PATH, exists, ...validateConfig(raw) };
}

describe('checkConfig', () => {
  it('says a valid file is valid, and a missing one means defaults', () => {
    expect(checkConfig(facts({ model: { provider: 'openai', default: 'gpt-5' } }))).toEqual([
      { id: 'config', name: 'config', status: 'ok', finding: `${PATH} is valid` },
    ]);
    expect(checkConfig(facts({}, false))).toEqual([
      { id: 'config', name: 'config', status: 'ok', finding: `no ${PATH} yet: every setting is at its default` },
    ]);
  });

  it('fails once per invalid setting, with the line config show prints and a fix', () => {
    const checks = checkConfig(facts({ model: { provider: 'openai', default: 'gpt-5', api_mode: 'fast' }, fallback_providers: [{ provider: 'openai' }] }));
    expect(checks).toEqual([
      {
        id: 'config:model.api_mode',
        name: 'config',
        status: 'fail',
        finding: 'model.api_mode: "fast" is not valid (allowed: chat_completions, codex_responses, anthropic_messages)',
        fix: `iris config set model.api_mode <value>, or edit ${PATH}`,
      },
      {
        id: 'config:fallback_providers.0.model',
        name: 'config',
        status: 'fail',
        finding: stringMatching(/^fallback_providers\.0\.model: missing \(allowed: .*\) \[ignored\]$/),
        fix: `edit ${PATH}`,
      },
    ]);
  });

  it('warns about unknown keys, and never hides a secret value in a problem', () => {
    const checks = checkConfig(facts({ colour: 'blue', extra: { a: 1 }, auxiliary: { vision: { api_key: 42 } } }));
    expect(checks.map((c) => [c.status, c.finding])).toEqual([
      ['fail', expect.stringMatching(/^auxiliary\.vision\.api_key: value \(hidden\) is not valid/)],
      ['warn', 'unknown keys colour, extra (kept as written, not used by this version)'],
    ]);
    expect(checks[1]?.fix).toBe(`check the spelling, or remove them from ${PATH}`);
  });

  it('fails on a file that cannot be read, and says the dependent checks were skipped', () => {
    expect(checkConfig({ ok: false, path: PATH, message: `${PATH}: bad YAML at line 3` })).toEqual([
      {
        id: 'config',
        name: 'config',
        status: 'fail',
        finding: `${PATH}: bad YAML at line 3; the checks that need the config were skipped`,
        fix: `edit ${PATH}`,
      },
    ]);
  });
});

describe('checkMainModel', () => {
  it('names the main route', () => {
    const { config } = validateConfig({ model: { provider: 'openrouter', default: 'google/gemini-2.5-pro' } });
    expect(checkMainModel(config)).toEqual({ id: 'main_model', name: 'main model', status: 'ok', finding: 'openrouter · google/gemini-2.5-pro' });
  });

  it('fails with the command that sets one', () => {
    const fix = 'iris setup (or iris model set <provider> <model>, e.g. iris model set openrouter anthropic/claude-sonnet-4.5)';
    expect(checkMainModel(validateConfig({}).config)).toEqual({
      id: 'main_model',
      name: 'main model',
      status: 'fail',
      finding: "not configured (model: '')",
      fix,
    });
    expect(checkMainModel(validateConfig({ model: { provider: 'openai' } }).config)).toMatchObject({
      status: 'fail',
      finding: 'not configured: model.provider and model.default must both be set',
      fix,
    });
  });
});
