import { describe, expect, it } from 'vitest';
import { INSECURE_NO_AUTH, isSecretKeyName, maskSecret, maskSecrets } from './secrets-policy.js';

const LONG = 'sk-or-v1-abcdefghijklmnop';

describe('isSecretKeyName', () => {
  it.each([
    'api_key',
    'apikey',
    'APIKEY',
    'apiKey',
    'secret',
    'webhook_secret',
    'client_secret',
    'clientSecret',
    'token',
    'access_token',
    'refresh_token',
    'accessToken',
    'GITHUB_TOKEN',
    'OPENROUTER_API_KEY',
    'password',
    'Password',
    'passwd',
    'credential',
    'credentials',
    'private_key',
    'privateKey',
    'db.password',
  ])('%s names a secret', (name) => {
    expect(isSecretKeyName(name)).toBe(true);
  });

  it.each([
    'key_env',
    'api_key_env',
    'tokens_used',
    'max_tokens',
    'input_tokens',
    'token_count',
    'tokenizer',
    'model',
    'base_url',
    'key',
    'secret_name',
    'secretary',
    'password_hash',
  ])('%s does not name a secret', (name) => {
    expect(isSecretKeyName(name)).toBe(false);
  });

  // The policy errs towards masking: header-style names and *_key secrets count; a singular
  // `max_token` or a `pageToken` is masked too, which costs nothing.
  it.each([
    ['api-key', true],
    ['x-api-key', true],
    ['secrets', true],
    ['authorization', true],
    ['cookie', true],
    ['signing_key', true],
    ['MY_SECRET_KEY', true],
    ['ssh_key', true],
    ['cache_key', false],
    ['max_token', true],
    ['pageToken', true],
  ])('edge case %s → %j', (name, expected) => {
    expect(isSecretKeyName(name)).toBe(expected);
  });
});

describe('maskSecret', () => {
  it('leaves an empty value empty', () => {
    expect(maskSecret('')).toBe('');
  });

  it('shows the insecure switch verbatim', () => {
    expect(maskSecret(INSECURE_NO_AUTH)).toBe('INSECURE_NO_AUTH');
  });

  it('hides short values entirely', () => {
    expect(maskSecret('abc')).toBe('****');
    expect(maskSecret('12345678901')).toBe('****');
    expect(maskSecret('123456789012345')).toBe('****');
  });

  it('shows the first three and last four characters of long values', () => {
    expect(maskSecret('1234567890123456')).toBe('123…3456');
    expect(maskSecret(LONG)).toBe('sk-…mnop');
  });
});

describe('maskSecrets', () => {
  const input = {
    model: { provider: 'openrouter', default: 'anthropic/claude-x', api_key: LONG },
    auxiliary: { vision: { api_key: 'short', timeout: 30, extra_body: { token: 42 } } },
    platforms: { webhook: { extra: { secret: INSECURE_NO_AUTH, routes: { r: { secret: '' } } } } },
    credentials: [LONG, { nested: LONG }],
    hooks: [{ token: LONG, name: 'n' }],
    password: null,
  };

  it('masks every value under a secret-named key, at any depth, and nothing else', () => {
    expect(maskSecrets(input)).toEqual({
      model: { provider: 'openrouter', default: 'anthropic/claude-x', api_key: 'sk-…mnop' },
      auxiliary: { vision: { api_key: '****', timeout: 30, extra_body: { token: '****' } } },
      platforms: { webhook: { extra: { secret: 'INSECURE_NO_AUTH', routes: { r: { secret: '' } } } } },
      credentials: ['sk-…mnop', { nested: 'sk-…mnop' }],
      hooks: [{ token: 'sk-…mnop', name: 'n' }],
      password: null,
    });
  });

  it('does not mutate its input', () => {
    const before = structuredClone(input);
    maskSecrets(input);
    expect(input).toEqual(before);
  });

  it('returns a copy, not the same objects', () => {
    const masked = maskSecrets(input);
    expect(masked).not.toBe(input);
    expect(masked.model).not.toBe(input.model);
  });

  it('passes scalars through', () => {
    expect(maskSecrets('plain')).toBe('plain');
    expect(maskSecrets(7)).toBe(7);
    expect(maskSecrets(null)).toBe(null);
  });
});
