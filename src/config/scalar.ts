// What `iris config set` turns its value argument into, and which keys are really environment
// variables that belong in .env. Pure rules, no I/O.
import { isCollectionSchema, scalarKinds, schemaAt } from './schema-walk.js';
import { configSchema } from './schema.js';
import type { Scalar } from './yaml-document.js';

const BOOLEAN_WORDS: Readonly<Record<string, boolean>> = {
  true: true,
  yes: true,
  on: true,
  false: false,
  no: false,
  off: false,
};

const INTEGER = /^[-+]?\d+$/;
const DECIMAL = /^[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$/;

/** `true|false|yes|no|on|off` → boolean, integers and decimals → number, anything else: string. */
export function coerceScalar(raw: string): Scalar {
  const word = BOOLEAN_WORDS[raw.toLowerCase()];
  if (word !== undefined) return word;
  // An integer past 2^53 would silently change value as a number: keep it a string.
  if (INTEGER.test(raw)) return Number.isSafeInteger(Number(raw)) ? Number(raw) : raw;
  if (DECIMAL.test(raw) && Number.isFinite(Number(raw))) return Number(raw);
  return raw;
}

/** Values a user might type meaning a list or a mapping: `config set` refuses them. */
export function looksLikeCollection(raw: string): boolean {
  return /^\s*[[{]/.test(raw);
}

/**
 * The scalar to store at `path`. Coercion follows the rules above, except where the schema
 * wants a string (a chat id `-100123` or a model named `4` stays a string).
 */
export function scalarForPath(path: readonly string[], raw: string): Scalar {
  const coerced = coerceScalar(raw);
  if (typeof coerced === 'string') return coerced;
  const schema = schemaAt(configSchema, path);
  if (!schema || isCollectionSchema(schema)) return coerced;
  const kinds = scalarKinds(schema);
  return kinds.has(typeof coerced as 'number' | 'boolean') || !kinds.has('string') ? coerced : raw;
}

const KNOWN_ENV_VARS = new Set([
  'CLOUD_HOSTED_API_KEY',
  'CLOUD_HOSTED_BASE_URL',
  'CLOUD_MESSAGES_API_KEY',
  'CLOUD_TENANT_ID',
  'CLOUD_CLIENT_ID',
  'CLOUD_CLIENT_SECRET',
  'CLOUD_CLIENT_CERTIFICATE_PATH',
  'CLOUD_FEDERATED_TOKEN_FILE',
  'CLOUD_AUTHORITY_HOST',
  'IDENTITY_ENDPOINT',
  'MSI_ENDPOINT',
  'OPENROUTER_API_KEY',
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'OPENAI_BASE_URL',
  'ANTHROPIC_BASE_URL',
  'HTTPS_PROXY',
  'HTTP_PROXY',
  'NO_PROXY',
  // SMS (docs/platforms.md): the account id is not secret, but it belongs with its token in .env.
  'TWILIO_ACCOUNT_SID',
]);

const ENV_NAME = /^[A-Z][A-Z0-9_]*$/;
const ENV_SECRET_SUFFIX = /_(API_KEY|TOKEN|SECRET)$/;

/** A key that names an environment variable is stored in .env, never in config.yaml. */
export function isEnvVarKey(key: string): boolean {
  return ENV_NAME.test(key) && (ENV_SECRET_SUFFIX.test(key) || KNOWN_ENV_VARS.has(key));
}

export type DottedKey = { ok: true; path: string[] } | { ok: false; message: string };

export function parseDottedKey(key: string): DottedKey {
  const path = key.split('.');
  if (key.trim() === '' || path.some((segment) => segment.trim() === '')) {
    return { ok: false, message: `"${key}" is not a dotted key (expected something like model.provider)` };
  }
  return { ok: true, path };
}
