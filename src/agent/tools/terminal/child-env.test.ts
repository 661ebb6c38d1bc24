import { describe, expect, it } from 'vitest';
import { buildChildEnv, isSecretEnvName } from './child-env.js';

describe('isSecretEnvName', () => {
  it.each([
    'OPENAI_API_KEY',
    'CLOUD_HOSTED_API_KEY',
    'GITHUB_TOKEN',
    'AWS_SESSION_TOKEN',
    'AWS_SECRET_ACCESS_KEY',
    'WEBHOOK_SECRET',
    'MSI_SECRET',
    'PGPASSWORD',
    'MYSQL_PWD',
    'CLOUD_CLIENT_SECRET',
    'CLOUD_TENANT_ID',
    'CLOUD_CLIENT_ID',
    'CLOUD_CLIENT_CERTIFICATE_PATH',
    'CLOUD_FEDERATED_TOKEN_FILE',
    'AZURE_CLIENT_SECRET',
    'AZURE_FEDERATED_TOKEN_FILE',
    'IDENTITY_ENDPOINT',
    'IDENTITY_HEADER',
    'MSI_ENDPOINT',
  ])('%s is a secret', (name) => {
    expect(isSecretEnvName(name)).toBe(true);
  });

  it.each(['PATH', 'HOME', 'LANG', 'IRIS_HOME', 'OPENAI_BASE_URL', 'MAX_TOKENS', 'TOKENIZERS_PARALLELISM', 'NODE_ENV'])(
    '%s is not a secret',
    (name) => {
      expect(isSecretEnvName(name)).toBe(false);
    },
  );
});

describe('buildChildEnv', () => {
  it('keeps what is not secret and drops undefined values', () => {
    expect(buildChildEnv({ PATH: '/bin', OPENAI_API_KEY: 'sk-x', EMPTY: undefined, LANG: 'C' })).toEqual({
      PATH: '/bin',
      LANG: 'C',
    });
  });
});
