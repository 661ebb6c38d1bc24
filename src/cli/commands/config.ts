// `iris config show|get|set|schema`.
import { stringify } from 'yaml';
import { setEnvValue } from '../../config/env-file.js';
import { isEnvVarKey, looksLikeCollection, parseDottedKey, scalarForPath } from '../../config/scalar.js';
import { checkSetTarget, unknownKeyMessage } from '../../config/set-checks.js';
import { isSecretKeyName, maskSecret, maskSecrets } from '../../config/secrets-policy.js';
import { updateConfig } from '../../config/store.js';
import { formatProblem, normalizeKeyPath, validateConfig } from '../../config/validate.js';
import { redactStrings } from '../../log/redact.js';
import { setScalarIn, type Scalar } from '../../config/yaml-document.js';
import { printData, printJson, printWarning } from '../console.js';
import { plainYaml } from '../plain-yaml.js';
import { openConfig, openEnv, openHome, reportConfigProblems } from '../context.js';
import { CliFailure } from '../exit-codes.js';

type JsonOption = { json?: boolean };

/** Written here when it can be (plain-yaml.ts: the same text, without the package's cost). */
function toYaml(value: unknown): string {
  return plainYaml(value) ?? stringify(value, { lineWidth: 0 });
}

export async function configShow(options: JsonOption & { changed?: boolean }): Promise<void> {
  const paths = await openHome();
  const { config } = await openConfig(paths);
  // Loaded only for --changed: plain `config show` is a start-up benchmark target.
  const shown = options.changed ? (await import('../../config/changed.js')).changedConfig(config) : config;
  // Secret-named keys are masked; credentials inside other values (a URL's user:password@,
  // a Bearer token in extra_body) are redacted.
  const masked = redactStrings(maskSecrets(shown));
  if (options.json) printJson(masked);
  else printData(toYaml(masked));
}

function valueAt(data: unknown, path: readonly string[]): { found: boolean; value?: unknown } {
  let current: unknown = data;
  for (const segment of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) {
      return { found: false };
    }
    current = (current as Record<string, unknown>)[segment];
  }
  return { found: true, value: current };
}

function maskAt(path: readonly string[], value: unknown): unknown {
  if (path.some(isSecretKeyName)) {
    return typeof value === 'object' && value !== null ? maskSecrets(value) : maskSecret(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
  }
  return redactStrings(maskSecrets(value));
}

export async function configGet(key: string, options: JsonOption): Promise<void> {
  const paths = await openHome();
  if (isEnvVarKey(key)) {
    const env = await openEnv(paths);
    const value = env[key];
    if (value === undefined) throw new CliFailure('not_found', `${key} is not set (neither in the environment nor in ${paths.envPath})`);
    const source = process.env[key] !== undefined ? 'environment' : '.env';
    if (options.json) printJson({ key, set: true, source, value: maskSecret(value) });
    else printData(`${maskSecret(value)}  (from ${source})`);
    return;
  }
  const parsed = parseDottedKey(key);
  if (!parsed.ok) throw new CliFailure('usage', parsed.message);
  const { config } = await openConfig(paths);
  const path = normalizeKeyPath(parsed.path);
  const hit = valueAt(config, path);
  if (!hit.found) {
    // A key the schema does not know is a usage error with the nearest one, as config set says it.
    const unknown = unknownKeyMessage(path);
    throw unknown === undefined ? new CliFailure('not_found', `no config key ${key}`) : new CliFailure('invalid_key', unknown);
  }
  const shown = maskAt(parsed.path, hit.value);
  if (options.json) printJson(shown);
  else if (shown !== null && typeof shown === 'object') printData(toYaml(shown));
  else printData(String(shown));
}

type SetOptions = JsonOption & { string?: boolean; force?: boolean };

async function setSecret(key: string, value: string, options: SetOptions): Promise<void> {
  const paths = await openHome();
  const saved = await setEnvValue(paths, key, value);
  if (!saved.ok) throw new CliFailure(saved.error.code, saved.error.message);
  const shadowed = process.env[key] !== undefined && process.env[key] !== value;
  if (options.json) printJson({ key, target: 'env', file: paths.envPath, value: maskSecret(value) });
  else printData(`${key} saved to ${paths.envPath} (value hidden; .env, not config.yaml, holds secrets)`);
  if (shadowed) {
    printWarning(`${key} is also set in this shell's environment, which takes precedence over .env`);
  }
}

export async function configSet(key: string, raw: string, options: SetOptions): Promise<void> {
  if (isEnvVarKey(key)) return setSecret(key, raw, options);
  if (isEnvVarKey(key.toUpperCase()) && !key.includes('.')) {
    throw new CliFailure(
      'invalid_key',
      `${key} looks like a secret's variable name; secrets go to .env under the upper-case name: iris config set ${key.toUpperCase()} …`,
    );
  }
  const parsed = parseDottedKey(key);
  if (!parsed.ok) throw new CliFailure('usage', parsed.message);
  const path = parsed.path;
  if (looksLikeCollection(raw)) {
    throw new CliFailure(
      'not_scalar',
      `config set takes scalars; ${key} was given a list or mapping (edit config.yaml for lists and mappings)`,
    );
  }
  // The schema's own name for the key (`api_key_env` is read as `key_env`).
  const schemaPath = normalizeKeyPath(path);
  const schemaKey = schemaPath.join('.');
  const value: Scalar = options.string ? raw : scalarForPath(schemaPath, raw);
  if (!options.force) {
    const checked = checkSetTarget(schemaPath, value);
    if (!checked.ok) throw new CliFailure(checked.code, checked.message);
  }
  const paths = await openHome();
  const before = await openConfig(paths);
  const known = before.problems.map(formatProblem);

  const updated = await updateConfig(paths, (doc) => {
    const set = setScalarIn(doc, path, value);
    if (!set.ok) return set;
    // Refuse a value the schema would throw away: better an error now than a silent default.
    const introduced = validateConfig(doc.toJS()).problems.filter(
      (p) =>
        !known.includes(formatProblem(p)) &&
        (p.path === schemaKey || p.path.startsWith(`${schemaKey}.`) || schemaKey.startsWith(`${p.path}.`)),
    );
    const first = introduced[0];
    if (first) return { ok: false, error: { code: 'invalid_value', message: formatProblem(first) } };
    return { ok: true };
  });
  if (!updated.ok) throw new CliFailure(updated.error.code, updated.error.message);
  // Also names a key this version does not know (kept as written, like any unknown key).
  reportConfigProblems(paths.configPath, updated.validated);
  const shown = maskAt(path, value);
  if (options.json) printJson({ key, target: 'config', file: paths.configPath, value: shown });
  else printData(`${key} = ${typeof shown === 'string' ? JSON.stringify(shown) : String(shown)}  (${paths.configPath})`);
}

/** Needs no home and no config file: it describes config.yaml, it does not read one. */
export async function configSchemaPrint(): Promise<void> {
  // Loaded here, not at the top: zod's JSON Schema generator is this command's alone, and
  // `config show|get|set` are start-up benchmark targets.
  const { buildConfigJsonSchema } = await import('../../config/json-schema.js');
  printJson(buildConfigJsonSchema());
}
