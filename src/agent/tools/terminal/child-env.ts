// The environment a model-written command runs with: the service's own, minus every variable
// that holds a credential, so `echo $OPENAI_API_KEY` or `env` shows the model nothing to leak.
// Names follow the one secrets policy (…_API_KEY, …_TOKEN, …_SECRET, passwords, …) plus the cloud
// identity variables, some of which (ids, a token file path, a managed-identity endpoint) are not
// secret-named yet together let a process fetch tokens.
import type { Env } from '../../../config/home.js';
import { isSecretKeyName } from '../../../config/secrets-policy.js';
import { ENV_NAMES } from '../../../providers/identity/settings.js';

const EXTRA_NAMES: ReadonlySet<string> = new Set([
  ...Object.values(ENV_NAMES).flat(),
  'IDENTITY_ENDPOINT',
  'IDENTITY_HEADER',
  'IDENTITY_SERVER_THUMBPRINT',
  'MSI_ENDPOINT',
  'MSI_SECRET',
  // Conventional secret names without a separator the policy's pattern needs.
  'PGPASSWORD',
  'MYSQL_PWD',
]);

export function isSecretEnvName(name: string): boolean {
  return isSecretKeyName(name) || EXTRA_NAMES.has(name.toUpperCase());
}

export function buildChildEnv(env: Env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !isSecretEnvName(name)) out[name] = value;
  }
  return out;
}
