import { describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validate.js';
import { buildAuthEntries, formatAuthText, NO_PROVIDERS_TEXT } from './auth-report.js';
import { findProvidersInUse } from './providers-in-use.js';

const KEY = 'sk-or-v1-secret-value-0123';

function uses(raw: unknown, env: Record<string, string> = {}, processEnv: Record<string, string> = {}) {
  return findProvidersInUse(validateConfig(raw).config, { ...env, ...processEnv }, processEnv);
}

describe('iris auth text', () => {
  it('prints a block per provider: endpoint, auth mode, key variable and where it came from', () => {
    const text = formatAuthText(
      uses(
        { model: { provider: 'openrouter', default: 'x/y' }, auxiliary: { vision: { provider: 'anthropic', model: 'claude-haiku-4-5' } } },
        { OPENROUTER_API_KEY: KEY },
      ),
    );
    expect(text).toBe(
      [
        'openrouter (OpenRouter)',
        '  Used by: main',
        '  Endpoint: https://openrouter.ai/api/v1',
        '  Auth mode: api_key',
        '  Key: OPENROUTER_API_KEY (from .env)',
        '  Status: configured (live probe skipped)',
        '',
        'anthropic (Anthropic)',
        '  Used by: auxiliary.vision',
        '  Endpoint: https://api.anthropic.com',
        '  Auth mode: api_key',
        '  Key: ANTHROPIC_API_KEY (missing)',
        '  Status: not usable: set the key with iris config set ANTHROPIC_API_KEY <key>',
        '',
      ].join('\n'),
    );
    expect(text).not.toContain(KEY);
  });

  it('identity mode: the scope and the fixed status line, no key line', () => {
    const text = formatAuthText(
      uses({ model: { provider: 'cloud-hosted', default: 'gpt-4o', base_url: 'https://r.openai.azure.com/openai/v1', auth_mode: 'identity_token' } }),
    );
    expect(text).toBe(
      [
        'cloud-hosted (Cloud-hosted models)',
        '  Used by: main',
        '  Endpoint: https://r.openai.azure.com/openai/v1',
        '  Auth mode: identity_token',
        '  Scope: https://ai.azure.com/.default',
        '  Status: configured (live token probe skipped)',
        '',
      ].join('\n'),
    );
  });

  it('says so when there is no endpoint, and when nothing is in use', () => {
    expect(formatAuthText(uses({ model: { provider: 'cloud-hosted', default: 'gpt-4o' } }, { CLOUD_HOSTED_API_KEY: 'k' }))).toContain(
      '  Endpoint: none (cloud-hosted needs an endpoint URL: set model.base_url (or CLOUD_HOSTED_BASE_URL))\n' +
        '  Auth mode: api_key\n  Key: CLOUD_HOSTED_API_KEY (from .env)\n  Status: not usable: no endpoint (see Endpoint)\n',
    );
    expect(formatAuthText([])).toBe(NO_PROVIDERS_TEXT);
  });
});

describe('iris auth JSON', () => {
  it('has the same facts as plain data, never a value', () => {
    const entries = buildAuthEntries(uses({ model: { provider: 'openrouter', default: 'x/y' } }, {}, { OPENROUTER_API_KEY: KEY }));
    expect(entries).toEqual([
      {
        id: 'openrouter',
        provider: 'openrouter',
        name: 'OpenRouter',
        used_by: ['main'],
        endpoint: 'https://openrouter.ai/api/v1',
        auth_mode: 'api_key',
        key: { variable: 'OPENROUTER_API_KEY', source: 'environment' },
        configured: true,
        status: 'configured (live probe skipped)',
      },
    ]);
    expect(JSON.stringify(entries)).not.toContain(KEY);
  });
});
