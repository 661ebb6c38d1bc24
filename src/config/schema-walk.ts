// Reading the config schema as data: which schema governs a dotted path, what a user may write
// there, and which keys of a document the schema does not know. It reads a schema's structure
// through zod/mini's public `.def`; the one internal read left is a check's parameters (see
// `checkParams`), and this is the one file that makes it.
import type * as z from 'zod/mini';

type AnySchema = z.ZodMiniType;
/** The parts of zod's per-kind definitions (`$ZodObjectDef`, `$ZodArrayDef`, …) that the walk reads. */
type Def = {
  type: string;
  innerType?: AnySchema;
  shape?: Record<string, AnySchema>;
  valueType?: AnySchema;
  keyType?: AnySchema;
  element?: AnySchema;
  options?: AnySchema[];
  entries?: Record<string, string>;
  values?: unknown[];
  checks?: readonly Check[];
  format?: string;
};
type Check = { _zod: { def: Record<string, unknown> } };

/** Words for regex-checked strings, registered where the pattern is defined. */
const PATTERN_WORDS = new WeakMap<RegExp, string>();

export function describePattern(pattern: RegExp, words: string): RegExp {
  PATTERN_WORDS.set(pattern, words);
  return pattern;
}

const WRAPPERS = new Set(['default', 'prefault', 'optional', 'nullable', 'catch', 'readonly']);

function defOf(schema: AnySchema): Def {
  return schema.def as Def;
}

/**
 * A check's parameters (a bound, a regex). zod/mini gives checks no public accessor; the only
 * public route to them is `toJSONSchema`, and that generator (~20 KB) would then load on every
 * command that reads the config, only to word an error message. So this one read stays internal.
 */
function checkParams(check: Check): Record<string, unknown> {
  return check._zod.def;
}

/** Strips defaults, optionals and the like down to the schema that checks the value. */
export function unwrap(schema: AnySchema): AnySchema {
  let current = schema;
  for (let def = defOf(current); WRAPPERS.has(def.type) && def.innerType; def = defOf(current)) {
    current = def.innerType;
  }
  return current;
}

function objectOption(schema: AnySchema): AnySchema | undefined {
  const def = defOf(unwrap(schema));
  if (def.type === 'object') return unwrap(schema);
  if (def.type === 'union') return def.options?.map(unwrap).find((o) => defOf(o).type === 'object');
  return undefined;
}

/** The schema for one path segment below `schema`, or undefined when the schema has no such key. */
export function childSchema(schema: AnySchema, segment: string | number): AnySchema | undefined {
  const inner = unwrap(schema);
  const def = defOf(inner);
  // Dotted keys from the CLI carry list indexes as strings ("fallback_chain.0.model").
  if (def.type === 'array') {
    return typeof segment === 'number' || /^\d+$/.test(segment) ? def.element : undefined;
  }
  if (def.type === 'record') return def.valueType;
  const obj = objectOption(inner);
  return obj ? defOf(obj).shape?.[String(segment)] : undefined;
}

export function schemaAt(
  root: AnySchema,
  path: ReadonlyArray<string | number>,
): AnySchema | undefined {
  let current: AnySchema | undefined = root;
  for (const segment of path) {
    if (!current) return undefined;
    current = childSchema(current, segment);
  }
  return current;
}

/** The scalar kinds a schema accepts: used to keep `config set` values as the schema wants them. */
export function scalarKinds(schema: AnySchema): Set<'string' | 'number' | 'boolean'> {
  const def = defOf(unwrap(schema));
  const kinds = new Set<'string' | 'number' | 'boolean'>();
  if (def.type === 'string' || def.type === 'enum') kinds.add('string');
  if (def.type === 'number') kinds.add('number');
  if (def.type === 'boolean') kinds.add('boolean');
  if (def.type === 'literal') {
    for (const v of def.values ?? []) {
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') {
        kinds.add(typeof v as 'string' | 'number' | 'boolean');
      }
    }
  }
  if (def.type === 'union') {
    for (const option of def.options ?? []) for (const k of scalarKinds(option)) kinds.add(k);
  }
  if (def.type === 'unknown') kinds.add('string').add('number').add('boolean');
  return kinds;
}

export function isCollectionSchema(schema: AnySchema): boolean {
  const type = defOf(unwrap(schema)).type;
  return type === 'object' || type === 'record' || type === 'array';
}

function quote(value: unknown): string {
  return value === '' ? "''" : typeof value === 'string' ? value : JSON.stringify(value);
}

function numberBounds(def: Def): string {
  const parts: string[] = [];
  for (const check of def.checks ?? []) {
    const c = checkParams(check);
    if (c.check === 'greater_than') parts.push(`${c.inclusive ? '≥' : '>'} ${String(c.value)}`);
    if (c.check === 'less_than') parts.push(`${c.inclusive ? '≤' : '<'} ${String(c.value)}`);
  }
  if (parts.length === 2 && parts[0]?.startsWith('≥') && parts[1]?.startsWith('≤')) {
    return ` from ${parts[0].slice(2)} to ${parts[1].slice(2)}`;
  }
  return parts.length ? ` ${parts.join(' and ')}` : '';
}

/** Plain words for what a schema accepts, for the `(allowed: …)` part of a problem. */
export function describeSchema(schema: AnySchema): string {
  const inner = unwrap(schema);
  const def = defOf(inner);
  switch (def.type) {
    case 'enum':
      return Object.values(def.entries ?? {}).map(quote).join(', ');
    case 'literal':
      return (def.values ?? []).map(quote).join(', ');
    case 'string': {
      const checks = (def.checks ?? []).map(checkParams);
      const pattern = checks.find((c) => c.format === 'regex')?.pattern;
      if (pattern instanceof RegExp) return PATTERN_WORDS.get(pattern) ?? `a string matching ${String(pattern)}`;
      return checks.some((c) => c.check === 'min_length') ? 'a non-empty string' : 'a string';
    }
    case 'number': {
      const isInt = String(def.format ?? '').includes('int');
      return `${isInt ? 'an integer' : 'a number'}${numberBounds(def)}`;
    }
    case 'boolean':
      return 'true or false';
    case 'array':
      return 'a list';
    case 'object':
    case 'record':
      return 'a mapping';
    case 'union':
      return (def.options ?? []).map(describeSchema).join(' or ');
    default:
      return 'any value';
  }
}

export type UnknownKey = readonly (string | number)[];

/** Paths in `data` that the schema does not name. Records and lists are walked, not reported. */
export function findUnknownKeys(
  schema: AnySchema,
  data: unknown,
  path: (string | number)[] = [],
): UnknownKey[] {
  const inner = unwrap(schema);
  const def = defOf(inner);
  if (Array.isArray(data)) {
    if (def.type !== 'array' || !def.element) return [];
    const element = def.element;
    return data.flatMap((item, i) => findUnknownKeys(element, item, [...path, i]));
  }
  if (data === null || typeof data !== 'object') return [];
  const record = data as Record<string, unknown>;
  if (def.type === 'record' && def.valueType) {
    const valueType = def.valueType;
    return Object.keys(record).flatMap((k) => findUnknownKeys(valueType, record[k], [...path, k]));
  }
  const obj = objectOption(inner);
  if (!obj) return [];
  const shape = defOf(obj).shape ?? {};
  return Object.keys(record).flatMap((k) =>
    k in shape ? findUnknownKeys(shape[k] as AnySchema, record[k], [...path, k]) : [[...path, k]],
  );
}

/** The keys the schema names at `path` (an object's fields), for "did you mean" on unknown keys. */
export function knownKeysAt(root: AnySchema, path: ReadonlyArray<string | number>): string[] {
  const at = schemaAt(root, path);
  const obj = at ? objectOption(at) : undefined;
  return obj ? Object.keys(defOf(obj).shape ?? {}) : [];
}
