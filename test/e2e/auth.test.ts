// `iris auth` end to end: a block per provider in use, the key's variable and where it was found,
// never its value; identity mode with its scope; no network request.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

const OR_KEY = 'sk-or-v1-auth-test-0123456789abcdef';
const OPENAI_KEY = 'sk-openai-auth-test-0123456789';

let upstream: FakeUpstream;
let dir: string;
let home: string;

beforeAll(async () => {
  upstream = await startFakeUpstream({ models: ['m'] });
});
afterAll(() => upstream.close());
beforeEach(async () => {
  upstream.reset();
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
});
afterEach(() => removeDir(dir));

const writeConfig = (text: string) => writeFile(join(home, 'config.yaml'), text, { mode: 0o600 });
const auth = (args: string[] = [], env: Record<string, string> = {}) => runIris(['auth', ...args], { home, env });

describe('iris auth', () => {
  it('on a fresh install: nothing in use yet, exit 0', async () => {
    expect(await auth()).toEqual({
      code: 0,
      stdout: 'No provider is in use yet: run iris setup (or iris model set <provider> <model>)\n',
      stderr: '',
    });
  });

  it('a block per provider: main, aux slots, fallbacks; key from .env, from the environment, or missing', async () => {
    await writeConfig(
      [
        'model:',
        '  provider: openrouter',
        '  default: google/gemini-2.5-pro',
        `  base_url: ${upstream.url}/v1`,
        'auxiliary:',
        '  vision: { provider: anthropic, model: claude-haiku-4-5 }',
        'fallback_providers:',
        '  - { provider: openai, model: gpt-5-mini }',
        '',
      ].join('\n'),
    );
    await writeFile(join(home, '.env'), `OPENROUTER_API_KEY=${OR_KEY}\n`, { mode: 0o600 });
    const result = await auth([], { OPENAI_API_KEY: OPENAI_KEY });
    expect(result).toEqual({
      code: 0,
      stdout: [
        'openrouter (OpenRouter)',
        '  Used by: main',
        `  Endpoint: ${upstream.url}/v1`,
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
        'openai (OpenAI)',
        '  Used by: fallback_providers[0]',
        '  Endpoint: https://api.openai.com/v1',
        '  Auth mode: api_key',
        '  Key: OPENAI_API_KEY (from the environment)',
        '  Status: configured (live probe skipped)',
        '',
      ].join('\n'),
      stderr: '',
    });
    for (const secret of [OR_KEY, OPENAI_KEY]) {
      expect(result.stdout).not.toContain(secret);
      expect(result.stderr).not.toContain(secret);
    }
    expect(upstream.requests).toEqual([]);
  });

  it('identity mode: endpoint, scope, and the live token probe skipped', async () => {
    await writeConfig(
      'model:\n  provider: cloud-hosted\n  default: gpt-4o\n  base_url: https://my-resource.openai.azure.com/openai/v1\n  auth_mode: identity_token\n',
    );
    expect(await auth([], { IDENTITY_ENDPOINT: 'http://127.0.0.1:9/msi/token', IDENTITY_HEADER: 'never-shown-0123' })).toEqual({
      code: 0,
      stdout: [
        'cloud-hosted (Cloud-hosted models)',
        '  Used by: main',
        '  Endpoint: https://my-resource.openai.azure.com/openai/v1',
        '  Auth mode: identity_token',
        '  Scope: https://ai.azure.com/.default',
        '  Status: configured (live token probe skipped)',
        '',
      ].join('\n'),
      stderr: '',
    });
  });

  it('identity mode with model.identity.scope: that scope', async () => {
    await writeConfig(
      'model:\n  provider: cloud-hosted\n  default: gpt-4o\n  base_url: https://r.openai.azure.com/openai/v1\n  auth_mode: identity_token\n  identity:\n    scope: api://my-audience/.default\n',
    );
    const result = await auth();
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('  Scope: api://my-audience/.default\n  Status: configured (live token probe skipped)\n');
  });

  it('--json: the same facts for scripts, never a value', async () => {
    await writeConfig(`model:\n  provider: openrouter\n  default: x/y\n  base_url: ${upstream.url}/v1\n`);
    const result = await auth(['--json'], { OPENROUTER_API_KEY: OR_KEY });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      providers: [
        {
          id: 'openrouter',
          provider: 'openrouter',
          name: 'OpenRouter',
          used_by: ['main'],
          endpoint: `${upstream.url}/v1`,
          auth_mode: 'api_key',
          key: { variable: 'OPENROUTER_API_KEY', source: 'environment' },
          configured: true,
          status: 'configured (live probe skipped)',
        },
      ],
    });
    expect(result.stdout).not.toContain(OR_KEY);
  });
});
