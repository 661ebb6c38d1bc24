import { describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validate.js';
import { planEndpoint } from '../providers/endpoint.js';
import { resolveCandidates } from './resolve.js';
import { buildStatusReport, gatewayStatus, groupWarnings, type GatewayStatus } from './status-report.js';

const PID_FILE = '/home/me/.iris/gateway.pid';
const NOT_RUNNING: GatewayStatus = { state: 'not_running', pid_file: PID_FILE };

function report(raw: Record<string, unknown>, env: Record<string, string> = {}, deep = false) {
  const { config } = validateConfig(raw);
  return buildStatusReport({ config, env, gateway: NOT_RUNNING, ...(deep ? { deep: { planEndpoint } } : {}) });
}

describe('gatewayStatus', () => {
  const alive = (pid: number) => pid === 42;
  it.each([
    [undefined, { state: 'not_running', pid_file: PID_FILE }],
    ['42\n', { state: 'running', pid: 42, pid_file: PID_FILE }],
    ['  42  ', { state: 'running', pid: 42, pid_file: PID_FILE }],
    ['4195538', { state: 'stale_pid_file', pid: 4195538, pid_file: PID_FILE }],
    ['', { state: 'bad_pid_file', pid_file: PID_FILE }],
    ['0', { state: 'bad_pid_file', pid_file: PID_FILE }],
    ['-1', { state: 'bad_pid_file', pid_file: PID_FILE }],
    ['42 host', { state: 'bad_pid_file', pid_file: PID_FILE }],
    ['99999999999999999999', { state: 'bad_pid_file', pid_file: PID_FILE }],
  ])('pid file %j reads as %j', (text, expected) => {
    expect(gatewayStatus(PID_FILE, text, alive)).toEqual(expected);
  });
});

describe('buildStatusReport', () => {
  it('reports every slot unconfigured on a fresh install, with one grouped warning', () => {
    const r = report({});
    expect(r.main).toEqual({ task: 'main', name: 'Main', auto: false, provider: null, model: null });
    expect(r.slots.map((s) => [s.task, s.name, s.auto, s.provider])).toEqual([
      ['vision', 'Vision', true, null],
      ['web_extract', 'Web Extract', true, null],
      ['compression', 'Compression', true, null],
      ['skills_hub', 'Skills Hub', true, null],
      ['approval', 'Approval', true, null],
      ['mcp', 'MCP', true, null],
      ['title_generation', 'Title Gen', true, null],
      ['triage_specifier', 'Triage Specifier', true, null],
      ['kanban_decomposer', 'Kanban Decomposer', true, null],
      ['profile_describer', 'Profile Describer', true, null],
      ['curator', 'Curator', true, null],
    ]);
    expect(r.providers).toEqual([]);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]?.message).toBe("every slot: no main model is configured (model: ''); run iris setup (or iris model set <provider> <model>)");
    expect(r.warnings[0]?.slots).toHaveLength(12);
  });

  it('shows auto slots on the main route and pinned slots on their own', () => {
    const r = report(
      { model: { provider: 'openrouter', default: 'x/y' }, auxiliary: { vision: { provider: 'anthropic', model: 'claude-haiku-4-5' } } },
      { OPENROUTER_API_KEY: 'sk-or-secret-value', ANTHROPIC_API_KEY: 'sk-ant-secret-value' },
    );
    expect(r.main).toMatchObject({ provider: 'openrouter', model: 'x/y', auto: false });
    expect(r.slots[0]).toEqual({ task: 'vision', name: 'Vision', auto: false, provider: 'anthropic', model: 'claude-haiku-4-5' });
    expect(r.slots[1]).toEqual({ task: 'web_extract', name: 'Web Extract', auto: true, provider: 'openrouter', model: 'x/y' });
    expect(r.warnings).toEqual([]);
    expect(JSON.stringify(r)).not.toContain('secret');
  });

  it('marks a pinned slot without a credential, names the missing variable, and groups its warning', () => {
    const r = report(
      {
        model: { provider: 'openrouter', default: 'x/y' },
        auxiliary: { vision: { provider: 'openai', model: 'gpt-5.1' }, curator: { provider: 'openai', model: 'gpt-5.1' } },
      },
      { OPENROUTER_API_KEY: 'k' },
    );
    expect(r.slots[0]).toMatchObject({ provider: 'openai', unusable: 'no credential (set OPENAI_API_KEY)' });
    expect(r.providers).toEqual([
      { provider: 'openrouter', credential: 'api_key', source: 'OPENROUTER_API_KEY', usable: true, detail: 'api key from OPENROUTER_API_KEY' },
      { provider: 'openai', credential: 'none', missing: 'OPENAI_API_KEY', usable: false, detail: 'missing: set OPENAI_API_KEY' },
    ]);
    expect(r.warnings).toEqual([
      {
        slots: ['vision', 'curator'],
        missing: 'OPENAI_API_KEY',
        message: 'vision, curator: openai · gpt-5.1 has no credential (set OPENAI_API_KEY); using the aggregator default openrouter · anthropic/claude-sonnet-4.5',
      },
    ]);
  });

  it('describes identity tokens, config keys, key_env and keyless custom endpoints without their values', () => {
    const r = report(
      {
        model: { provider: 'cloud-hosted', default: 'gpt-4o', base_url: 'https://r.openai.azure.com/openai/v1', auth_mode: 'identity_token' },
        auxiliary: {
          vision: { provider: 'openai', model: 'gpt-4.1', api_key: 'sk-inline-secret-0123' },
          compression: { provider: 'openai', model: 'gpt-4.1', key_env: 'TEAM_OPENAI_KEY' },
          mcp: { provider: 'custom', model: 'local', base_url: 'http://localhost:8000/v1' },
        },
      },
      { TEAM_OPENAI_KEY: 'team-secret-4567' },
    );
    expect(r.providers.map((p) => `${p.provider}: ${p.detail}`)).toEqual([
      'cloud-hosted: identity token (live token probe skipped)',
      'openai: api key from config.yaml',
      'openai: api key from TEAM_OPENAI_KEY',
      'custom: no key (none needed)',
    ]);
    expect(r.providers[0]).toMatchObject({ credential: 'identity_token', scope: 'https://ai.azure.com/.default' });
    expect(JSON.stringify(r)).not.toMatch(/secret/);
  });

  it('lists the configured fallbacks among the providers in use, not what discovery adds', () => {
    const r = report(
      { model: { provider: 'openrouter', default: 'x/y' }, fallback_providers: [{ provider: 'anthropic', model: 'claude-sonnet-4-5' }] },
      { OPENROUTER_API_KEY: 'k', OPENAI_API_KEY: 'k2' },
    );
    expect(r.providers.map((p) => p.provider)).toEqual(['openrouter', 'anthropic']);
  });

  it('adds nothing about candidates without --deep', () => {
    const r = report({ model: { provider: 'openrouter', default: 'x/y' } }, { OPENROUTER_API_KEY: 'k' });
    expect([r.main, ...r.slots].some((s) => 'candidates' in s)).toBe(false);
  });

  it('with --deep, lists every candidate in order with the planned endpoint of usable ones', () => {
    const r = report(
      {
        model: {
          provider: 'cloud-hosted',
          default: 'gpt-5',
          api_mode: 'chat_completions',
          base_url: 'https://r.openai.azure.com/openai/v1?api-version=preview',
        },
      },
      { CLOUD_HOSTED_API_KEY: 'hosted-secret-0123' },
      true,
    );
    expect(r.main.candidates).toEqual([
      {
        provider: 'cloud-hosted',
        model: 'gpt-5',
        reason: 'main',
        why: 'the main model (model.provider / model.default)',
        usable: true,
        api_mode: 'codex_responses',
        configured_api_mode: 'chat_completions',
        base_url: 'https://r.openai.azure.com/openai/v1',
        notes: ['gpt-5 is served by the Responses API: using codex_responses (config unchanged)'],
      },
      {
        provider: 'openrouter',
        model: 'anthropic/claude-sonnet-4.5',
        reason: 'discovery',
        why: 'discovery: the aggregator default',
        usable: false,
        unusable: 'no credential (set OPENROUTER_API_KEY)',
      },
    ]);
    expect(JSON.stringify(r)).not.toContain('hosted-secret');
  });

  it('with --deep, reports an endpoint that cannot be planned', () => {
    const r = report({ model: { provider: 'cloud-hosted', default: 'gpt-4o', base_url: 'ftp://files.example' } }, { CLOUD_HOSTED_API_KEY: 'k' }, true);
    expect(r.main.candidates?.[0]).toMatchObject({
      usable: true,
      endpoint_error: 'cloud-hosted: "ftp://files.example" is not an http(s) URL',
    });
  });

  it('marks a cloud-hosted route without an endpoint URL unusable', () => {
    const r = report({ model: { provider: 'cloud-hosted', default: 'gpt-4o' } }, { CLOUD_HOSTED_API_KEY: 'k' }, true);
    expect(r.main.candidates?.[0]).toMatchObject({ usable: false, unusable: 'no endpoint URL (set base_url or CLOUD_HOSTED_BASE_URL)' });
  });
});

describe('groupWarnings', () => {
  it('keeps distinct messages apart and names each slot once', () => {
    const { config } = validateConfig({
      model: { provider: 'openai', default: 'gpt-5.1' },
      auxiliary: { vision: { provider: 'anthropic', model: 'claude-haiku-4-5' } },
    });
    const resolutions = (['main', 'vision', 'curator'] as const).map((slot) => resolveCandidates(config, { OPENROUTER_API_KEY: 'k' }, slot));
    expect(groupWarnings(resolutions).map((w) => w.message)).toEqual([
      'main, curator: openai · gpt-5.1 has no credential (set OPENAI_API_KEY); using the aggregator default openrouter · anthropic/claude-sonnet-4.5',
      'vision: anthropic · claude-haiku-4-5 has no credential (set ANTHROPIC_API_KEY); using the aggregator default openrouter · anthropic/claude-sonnet-4.5',
    ]);
  });
});
