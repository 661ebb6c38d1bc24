// Turning whatever config.yaml holds into a complete, typed config. A broken key never stops the
// program: it is reported as `path: message (allowed: …)` and replaced by its default, so a bad
// edit (or a newer binary's config) degrades one setting instead of the whole service.
import { configSchema, type Config, ALLOWED_TEXT } from './schema.js';
import { describeSchema, findUnknownKeys, schemaAt } from './schema-walk.js';
import { isSecretKeyName } from './secrets-policy.js';

export type ConfigPath = ReadonlyArray<string | number>;

export type ConfigProblem = {
  readonly path: string;
  readonly message: string;
  readonly allowed: string;
  /** `default`: the key reads as its default; `dropped`: a list entry or map key is ignored. */
  readonly action: 'default' | 'dropped';
};

export type ValidatedConfig = {
  readonly config: Readonly<Config>;
  readonly problems: readonly ConfigProblem[];
  readonly unknownKeys: readonly string[];
};

export const KEY_ENV_ALIASES = ['api_key_env', 'keyEnv', 'apiKeyEnv'] as const;

export function formatPath(path: ConfigPath): string {
  return path.length === 0 ? '(top level)' : path.join('.');
}

export function formatProblem(p: ConfigProblem): string {
  return `${p.path}: ${p.message} (allowed: ${p.allowed})`;
}

type Json = Record<string, unknown>;

function isMap(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * `key_env` has three older spellings; all read as `key_env`, which wins when set. Among the
 * aliases, the first valid variable name wins (an invalid one is still reported if none is valid).
 */
function normalizeKeyEnv(entry: unknown): void {
  if (!isMap(entry)) return;
  const present = KEY_ENV_ALIASES.filter((alias) => alias in entry);
  const [first] = present;
  if (entry.key_env === undefined && first !== undefined) {
    const valid = present.find((alias) => {
      const value = entry[alias];
      return typeof value === 'string' && ENV_NAME.test(value);
    });
    entry.key_env = entry[valid ?? first];
  }
  for (const alias of present) delete entry[alias];
}

/** The path as the schema names it: an alias of `key_env` is reported as `key_env`. */
export function normalizeKeyPath(path: readonly string[]): string[] {
  const last = path[path.length - 1];
  return last !== undefined && (KEY_ENV_ALIASES as readonly string[]).includes(last)
    ? [...path.slice(0, -1), 'key_env']
    : [...path];
}

type Issue = { code: string; path: PropertyKey[]; errors?: Issue[][] };

/**
 * A union (`model: '' | mapping`) fails as a whole; when the value has the shape of one branch,
 * that branch's own first issue names the real culprit (`model.provider`), so only that key
 * falls back instead of the whole mapping.
 */
function innermostIssue(issue: Issue): Issue {
  if (issue.code !== 'invalid_union' || !issue.errors) return issue;
  const matched = issue.errors.find((branch) => branch.length > 0 && branch.every((sub) => sub.path.length > 0));
  const first = matched?.[0];
  if (!first) return issue;
  return innermostIssue({ ...first, path: [...issue.path, ...first.path] });
}

function normalize(data: Json): void {
  normalizeKeyEnv(data.model);
  normalizeKeyEnv(data.fallback_model);
  const lists = [data.fallback_providers];
  if (isMap(data.auxiliary)) {
    for (const task of Object.values(data.auxiliary)) {
      normalizeKeyEnv(task);
      if (isMap(task)) lists.push(task.fallback_chain);
    }
  }
  for (const list of lists) if (Array.isArray(list)) list.forEach(normalizeKeyEnv);
}

function valueAt(data: unknown, path: ConfigPath): unknown {
  let current = data;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

function removeAt(data: Json, path: ConfigPath): void {
  const parent = valueAt(data, path.slice(0, -1));
  const last = path[path.length - 1];
  if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
  else if (isMap(parent) && last !== undefined) delete parent[String(last)];
}

function describeValue(value: unknown, secret: boolean): string {
  if (value === undefined) return 'missing';
  if (secret) return 'value (hidden) is not valid';
  if (Array.isArray(value)) return 'a list is not valid';
  if (isMap(value)) return 'a mapping is not valid';
  // What is left is a scalar (lists and mappings returned above).
  const text =
    typeof value === 'string'
      ? JSON.stringify(value)
      : typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint'
        ? String(value)
        : (JSON.stringify(value) ?? typeof value);
  return `${text.length > 60 ? `${text.slice(0, 57)}…` : text} is not valid`;
}

function matchesPattern(pattern: string, path: readonly string[]): boolean {
  const parts = pattern.split('.');
  return parts.length === path.length && parts.every((p, i) => p === '*' || p === path[i]);
}

function allowedFor(path: ConfigPath, keyProblem: boolean): string {
  const dotted = path.map(String);
  const kind = keyProblem ? 'key' : 'value';
  const hit = ALLOWED_TEXT.find((a) => a.kind === kind && matchesPattern(a.path, dotted));
  if (hit) return hit.text;
  const schema = schemaAt(configSchema, path);
  return schema ? describeSchema(schema) : 'any value';
}

function isArrayIndex(path: ConfigPath): boolean {
  return typeof path[path.length - 1] === 'number';
}

/** Validates and fills defaults. Pure: `raw` is not modified. */
export function validateConfig(raw: unknown): ValidatedConfig {
  const problems: ConfigProblem[] = [];
  let data: Json;
  if (raw === null || raw === undefined) data = {};
  else if (isMap(raw)) data = structuredClone(raw);
  else {
    problems.push({
      path: formatPath([]),
      message: `${Array.isArray(raw) ? 'a list' : JSON.stringify(raw)} is not valid`,
      allowed: 'a mapping of settings',
      action: 'default',
    });
    data = {};
  }
  normalize(data);
  const unknownKeys = findUnknownKeys(configSchema, data).map(formatPath);

  // Each pass removes the first offending value and parses again; bounded, since every pass
  // deletes something from a finite document.
  for (let pass = 0; pass < 1000; pass++) {
    const result = configSchema.safeParse(data);
    if (result.success) return { config: result.data, problems, unknownKeys };
    const outer = result.error.issues[0];
    if (!outer) break;
    const issue = innermostIssue(outer);
    const keyProblem = issue.code === 'invalid_key';
    const path: ConfigPath = issue.path.filter((s): s is string | number => typeof s !== 'symbol');
    const value = valueAt(data, path);
    // A missing required field (say a fallback entry without `model`) invalidates its entry.
    const entryDropped = value === undefined && path.length > 1;
    const target = entryDropped ? path.slice(0, -1) : path;
    const leaf = String(path[path.length - 1] ?? '');
    problems.push({
      path: formatPath(path),
      message: keyProblem
        ? 'is not a valid name'
        : describeValue(value, isSecretKeyName(leaf) && typeof value !== 'object'),
      allowed: allowedFor(path, keyProblem),
      action: keyProblem || entryDropped || isArrayIndex(target) ? 'dropped' : 'default',
    });
    removeAt(data, target);
  }
  // Unreachable in practice; never fail a read over it.
  return { config: configSchema.parse({}), problems, unknownKeys };
}
