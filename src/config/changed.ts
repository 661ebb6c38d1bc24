// `iris config show --changed`: the effective config minus its defaults, so that a reader sees
// what this install decided and nothing the program would have done anyway. Pure.
import { isDeepStrictEqual } from 'node:util';
import * as z from 'zod/mini';
import { configSchema } from './schema.js';
import { schemaAt, unwrap } from './schema-walk.js';
import { validateConfig } from './validate.js';

type Json = Record<string, unknown>;

/**
 * The defaults an entry gets when it is new at `path` (a webhook route, an aux slot's mapping, the
 * `model` mapping that replaces `''`), or undefined when the schema fills none in there.
 */
export type EntryDefaults = (path: readonly string[]) => Readonly<Json> | undefined;

const isMap = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * What `value` changes against `baseline`; undefined when nothing. Config values come from YAML
 * and the schema, so undefined never stands for a value itself. Lists are compared whole: an
 * item has no default of its own to subtract.
 */
function diff(value: unknown, baseline: { has: boolean; value: unknown }, path: readonly string[], entryDefaults: EntryDefaults): unknown {
  if (isMap(value)) {
    const own = baseline.has && isMap(baseline.value) ? baseline.value : undefined;
    const base = own ?? entryDefaults(path);
    if (base) {
      const changed = diffMap(value, base, path, entryDefaults);
      // A new entry is a change even when every key in it is a default (an empty route is still a route).
      return own ? changed : (changed ?? {});
    }
  }
  return baseline.has && isDeepStrictEqual(value, baseline.value) ? undefined : value;
}

function diffMap(value: Json, base: Readonly<Json>, path: readonly string[], entryDefaults: EntryDefaults): Json | undefined {
  const out: Json = {};
  for (const [key, item] of Object.entries(value)) {
    const has = Object.hasOwn(base, key);
    const changed = diff(item, { has, value: has ? base[key] : undefined }, [...path, key], entryDefaults);
    if (changed !== undefined) out[key] = changed;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The keys of `config` whose values differ from `defaults`, nested as in the config; `{}` when none. */
export function changedFromDefaults(config: Readonly<Json>, defaults: Readonly<Json>, entryDefaults: EntryDefaults = () => undefined): Json {
  return diffMap({ ...config }, defaults, [], entryDefaults) ?? {};
}

/** What the schema fills into an empty mapping at `path`, if it accepts one. */
export const schemaEntryDefaults: EntryDefaults = (path) => {
  const schema = schemaAt(configSchema, path);
  if (!schema) return undefined;
  const parsed = z.safeParse(unwrap(schema), {});
  return parsed.success && isMap(parsed.data) ? parsed.data : undefined;
};

/** The config's changes against the defaults of an empty config.yaml. */
export function changedConfig(config: Readonly<Json>): Json {
  return changedFromDefaults(config, validateConfig({}).config, schemaEntryDefaults);
}
