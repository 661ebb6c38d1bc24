import { describe, expect, it } from 'vitest';
import { AUX_TASK_IDS, AUX_TASKS } from '../domain/slots.js';
import { formatProblem, validateConfig } from './validate.js';

describe('validateConfig defaults', () => {
  it('gives a fresh install model "" and every documented default', () => {
    const { config, problems, unknownKeys } = validateConfig(null);
    expect(problems).toEqual([]);
    expect(unknownKeys).toEqual([]);
    expect(config.model).toBe('');
    expect(config.approval_mode).toBe('manual');
    expect(config.fallback_providers).toEqual([]);
    expect(config.fallback_model).toBe('');
    expect(config.model_aliases).toEqual({});
    expect(config.platforms.webhook).toEqual({
      enabled: false,
      extra: {
        host: '0.0.0.0',
        port: 8644,
        secret: '',
        rate_limit: 30,
        max_body_bytes: 1048576,
        body_timeout: 30,
        keep_days: 30,
        concurrency: 4,
        max_run_attempts: 3,
        metrics: false,
        routes: {},
      },
    });
    expect(config.logging).toEqual({ max_size_mb: 10, keep: 5 });
  });

  it('fills all 11 auxiliary slots in display order with auto and their timeouts', () => {
    const { config } = validateConfig({});
    expect(Object.keys(config.auxiliary)).toEqual([
      'vision',
      'web_extract',
      'compression',
      'skills_hub',
      'approval',
      'mcp',
      'title_generation',
      'triage_specifier',
      'kanban_decomposer',
      'profile_describer',
      'curator',
    ]);
    expect(config.auxiliary.vision).toEqual({
      provider: 'auto',
      model: '',
      base_url: '',
      api_key: '',
      timeout: 120,
      download_timeout: 30,
      extra_body: {},
      fallback_chain: [],
    });
    const timeouts = Object.fromEntries(
      AUX_TASK_IDS.map((id) => [id, config.auxiliary[id].timeout]),
    );
    expect(timeouts).toEqual({
      vision: 120,
      web_extract: 360,
      compression: 120,
      skills_hub: 30,
      approval: 30,
      mcp: 30,
      title_generation: 30,
      triage_specifier: 120,
      kanban_decomposer: 180,
      profile_describer: 60,
      curator: 600,
    });
    expect(AUX_TASKS).toHaveLength(11);
    expect('download_timeout' in config.auxiliary.curator).toBe(false);
  });

  it('keeps the values a partial task block sets and defaults the rest', () => {
    const { config } = validateConfig({
      auxiliary: { vision: { provider: 'openai', model: 'gpt-4.1', timeout: 90 } },
    });
    expect(config.auxiliary.vision).toMatchObject({
      provider: 'openai',
      model: 'gpt-4.1',
      timeout: 90,
      download_timeout: 30,
      base_url: '',
    });
    expect(config.auxiliary.compression.provider).toBe('auto');
  });

  it('does not share default objects between reads', () => {
    const first = validateConfig({}).config;
    (first.auxiliary.vision.extra_body).x = 1;
    expect(validateConfig({}).config.auxiliary.vision.extra_body).toEqual({});
  });
});

describe('validateConfig problems', () => {
  it('reports an invalid enum value with the allowed values and falls back to the default', () => {
    const result = validateConfig({ approval_mode: 'sometimes', fallback_providers: [] });
    expect(result.problems.map(formatProblem)).toEqual([
      'approval_mode: "sometimes" is not valid (allowed: manual, smart, off)',
    ]);
    expect(result.problems[0]?.action).toBe('default');
    expect(result.config.approval_mode).toBe('manual');
  });

  it('reports several broken keys at once and keeps the good ones', () => {
    const result = validateConfig({
      model: { provider: 'openrouter', default: 'x/y', context_length: -3 },
      platforms: { webhook: { enabled: 'maybe', extra: { port: 'abc', rate_limit: 10 } } },
    });
    expect(result.problems.map(formatProblem).sort()).toEqual([
      'model.context_length: -3 is not valid (allowed: an integer > 0)',
      'platforms.webhook.enabled: "maybe" is not valid (allowed: true or false)',
      'platforms.webhook.extra.port: "abc" is not valid (allowed: an integer from 0 to 65535)',
    ]);
    expect(result.config.model).toEqual({ provider: 'openrouter', default: 'x/y' });
    expect(result.config.platforms.webhook.enabled).toBe(false);
    expect(result.config.platforms.webhook.extra.port).toBe(8644);
    expect(result.config.platforms.webhook.extra.rate_limit).toBe(10);
  });

  it('treats a non-empty string model as invalid: not configured', () => {
    const result = validateConfig({ model: 'gpt-5' });
    expect(result.problems.map(formatProblem)).toEqual([
      'model: "gpt-5" is not valid (allowed: \'\' (not configured) or a mapping with provider and default)',
    ]);
    expect(result.config.model).toBe('');
  });

  it('drops a fallback entry that lacks a required field, keeping the others', () => {
    const result = validateConfig({
      fallback_providers: [
        { provider: 'openai' },
        { provider: 'anthropic', model: 'claude-sonnet-4-6' },
      ],
    });
    expect(result.problems.map(formatProblem)).toEqual([
      'fallback_providers.0.model: missing (allowed: a non-empty string)',
    ]);
    expect(result.problems[0]?.action).toBe('dropped');
    expect(result.config.fallback_providers).toEqual([
      { provider: 'anthropic', model: 'claude-sonnet-4-6' },
    ]);
  });

  it('drops a route with an invalid name and defaults an invalid deliver', () => {
    const result = validateConfig({
      platforms: {
        webhook: {
          extra: { routes: { 'bad name': { events: ['push'] }, pr: { deliver: 'fax' } } },
        },
      },
    });
    expect(result.problems.map(formatProblem)).toEqual([
      'platforms.webhook.extra.routes.bad name: is not a valid name (allowed: route names matching ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64), without "..")',
      'platforms.webhook.extra.routes.pr.deliver: "fax" is not valid (allowed: log, forge_comment, sms, telegram, discord, slack, signal)',
    ]);
    expect(Object.keys(result.config.platforms.webhook.extra.routes)).toEqual(['pr']);
    expect(result.config.platforms.webhook.extra.routes.pr?.deliver).toBe('log');
  });

  it('drops route names that break the one name rule, the old leading _ and - included', () => {
    const routes = Object.fromEntries(['..', 'a..b', '.hidden', '_ci', '-x', 'Ci', 'ci.v2', 'ci'].map((name) => [name, { events: ['push'] }]));
    const result = validateConfig({ platforms: { webhook: { extra: { routes } } } });
    expect(result.problems.map((p) => p.path)).toEqual(['..', 'a..b', '.hidden', '_ci', '-x', 'Ci'].map((name) => `platforms.webhook.extra.routes.${name}`));
    expect(Object.keys(result.config.platforms.webhook.extra.routes)).toEqual(['ci.v2', 'ci']);
  });

  it('never prints a secret value in a problem', () => {
    const result = validateConfig({ platforms: { webhook: { extra: { secret: 123456789012 } } } });
    expect(result.problems.map(formatProblem)).toEqual([
      'platforms.webhook.extra.secret: value (hidden) is not valid (allowed: a string)',
    ]);
  });

  it('reports a top level that is not a mapping and reads all defaults', () => {
    const result = validateConfig(['a', 'b']);
    expect(result.problems.map(formatProblem)).toEqual([
      '(top level): a list is not valid (allowed: a mapping of settings)',
    ]);
    expect(result.config.model).toBe('');
  });

  it('does not modify its input', () => {
    const raw = { approval_mode: 'bad', model: { api_key_env: 'X' } };
    const copy = structuredClone(raw);
    validateConfig(raw);
    expect(raw).toEqual(copy);
  });
});

describe('validateConfig unknown keys and aliases', () => {
  it('keeps unknown keys and lists them', () => {
    const result = validateConfig({
      future_feature: { on: true },
      model: { provider: 'openai', default: 'gpt-5', colour: 'blue' },
      auxiliary: { not_a_task: {}, vision: { extra_body: { anything: 1 } } },
    });
    expect(result.problems).toEqual([]);
    expect(result.unknownKeys).toEqual(['future_feature', 'model.colour', 'auxiliary.not_a_task']);
    expect((result.config as Record<string, unknown>).future_feature).toEqual({ on: true });
  });

  it.each(['api_key_env', 'keyEnv', 'apiKeyEnv'])('reads model.%s as key_env', (alias) => {
    const result = validateConfig({ model: { provider: 'openai', [alias]: 'MY_KEY' } });
    expect(result.config.model).toEqual({ provider: 'openai', key_env: 'MY_KEY' });
    expect(result.unknownKeys).toEqual([]);
  });

  it('lets key_env win over an alias', () => {
    const result = validateConfig({ model: { key_env: 'WINNER', keyEnv: 'LOSER' } });
    expect(result.config.model).toEqual({ key_env: 'WINNER' });
  });

  it('normalizes key_env aliases in fallback entries and aux tasks', () => {
    const result = validateConfig({
      fallback_providers: [{ provider: 'custom', model: 'm', apiKeyEnv: 'LOCAL_KEY' }],
      auxiliary: { vision: { api_key_env: 'VISION_KEY' } },
    });
    expect(result.config.fallback_providers[0]?.key_env).toBe('LOCAL_KEY');
    expect(result.config.auxiliary.vision.key_env).toBe('VISION_KEY');
  });
});

describe('validateConfig inside unions', () => {
  it('drops only the broken key of the model mapping, not the whole model', () => {
    const result = validateConfig({ model: { provider: 5, default: 'gpt-5', base_url: 'https://x' } });
    expect(result.problems.map(formatProblem)).toEqual(['model.provider: 5 is not valid (allowed: a string)']);
    expect(result.config.model).toEqual({ default: 'gpt-5', base_url: 'https://x' });
  });

  it('drops only a bad api_mode inside a fallback_model mapping', () => {
    const result = validateConfig({ fallback_model: { provider: 'openai', model: 'gpt-4.1', api_mode: 'fast' } });
    expect(result.problems.map(formatProblem)).toEqual([
      'fallback_model.api_mode: "fast" is not valid (allowed: chat_completions, codex_responses, anthropic_messages)',
    ]);
    expect(result.config.fallback_model).toEqual({ provider: 'openai', model: 'gpt-4.1' });
  });

  it('describes an invalid key_env as a variable name', () => {
    const result = validateConfig({ model: { key_env: 'bad name' } });
    expect(result.problems.map(formatProblem)).toEqual([
      'model.key_env: "bad name" is not valid (allowed: a variable name (letters, digits and _))',
    ]);
  });

  it('takes the first valid key_env alias when several are set', () => {
    expect(validateConfig({ model: { api_key_env: 'bad name', keyEnv: 'GOOD_KEY' } }).config.model).toEqual({ key_env: 'GOOD_KEY' });
  });
});
