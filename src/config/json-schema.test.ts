import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { parseJson, type Doc } from '../../test/helpers/documents.js';
import { buildConfigJsonSchema, toInputJsonSchema } from './json-schema.js';
import { NAME_PATTERN } from '../domain/name-rule.js';
import { API_MODES, APPROVAL_MODES, DELIVER_TARGETS, configSchema } from './schema.js';

// Through JSON, as an editor reads it: this also proves the schema survives serialisation.
const schema = parseJson(JSON.stringify(buildConfigJsonSchema()));

/** The schema of a config key, following `properties` (objects) only. */
function propertyAt(path: readonly string[]): Doc | undefined {
  return path.reduce<Doc | undefined>((node, key) => node?.properties?.[key], schema);
}

/** Every `required` list in the schema, with the JSON pointer of the object that holds it. */
function requiredLists(node: unknown, pointer = ''): Array<{ pointer: string; required: unknown }> {
  if (node === null || typeof node !== 'object') return [];
  const own = 'required' in node ? [{ pointer, required: node.required }] : [];
  return [
    ...own,
    ...Object.entries(node).flatMap(([key, child]) => requiredLists(child, `${pointer}/${key}`)),
  ];
}

/** Paths to the leaves of a parsed config: scalars, lists and empty mappings. */
function leafPaths(value: unknown, path: string[] = []): string[][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length === 0) {
    return [path];
  }
  return Object.entries(value).flatMap(([key, child]) => leafPaths(child, [...path, key]));
}

describe('buildConfigJsonSchema', () => {
  it('is a draft 2020-12 schema of a mapping with a title', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.title).toBe('Iris config.yaml');
    expect(schema.type).toBe('object');
  });

  it('requires no key that has a default, so an empty config.yaml validates', () => {
    // (`not.toHaveProperty` also fails when the node itself is missing.)
    expect(schema).not.toHaveProperty('required');
    expect(propertyAt(['auxiliary', 'vision'])).not.toHaveProperty('required');
    expect(propertyAt(['platforms', 'webhook', 'extra'])).not.toHaveProperty('required');
    // The only required keys are inside list entries and named mappings, where the validator
    // needs them too: a fallback entry's provider and model, an alias's, a filter's field and in.
    const distinct = new Set(requiredLists(schema).map((r) => JSON.stringify(r.required)));
    expect([...distinct].sort()).toEqual([
      '["field","in"]',
      '["model","provider"]',
      '["provider","model"]',
    ]);
  });

  it('gives every key of the default config, with its default', () => {
    const defaults = configSchema.parse({});
    const paths = leafPaths(defaults);
    expect(paths).toContainEqual(['auxiliary', 'curator', 'timeout']);
    expect(paths.length).toBeGreaterThan(90);
    for (const path of paths) {
      expect({ path, default: propertyAt(path)?.default }).toEqual({ path, default: valueAt(defaults, path) });
    }
  });

  it('lists the values of the closed choices', () => {
    expect(propertyAt(['approval_mode'])).toEqual({ default: 'manual', type: 'string', enum: [...APPROVAL_MODES] });
    expect(propertyAt(['platforms', 'webhook', 'extra', 'routes'])?.additionalProperties?.properties?.deliver).toEqual({
      default: 'log',
      type: 'string',
      enum: [...DELIVER_TARGETS],
    });
    expect(propertyAt(['auxiliary', 'curator', 'api_mode'])).toEqual({ type: 'string', enum: [...API_MODES] });
  });

  it('keeps the bounds and patterns the validator checks', () => {
    expect(propertyAt(['platforms', 'webhook', 'extra', 'port'])).toEqual({
      default: 8644,
      type: 'integer',
      minimum: 0,
      maximum: 65535,
    });
    expect(propertyAt(['compression', 'threshold'])).toEqual({
      default: 0.5,
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1,
    });
    expect(propertyAt(['platforms', 'webhook', 'extra', 'routes'])?.propertyNames).toEqual({
      type: 'string',
      pattern: NAME_PATTERN.source,
    });
    expect(propertyAt(['model'])?.anyOf?.[0]).toEqual({ type: 'string', const: '' });
  });

  it('allows unknown keys, as the validator keeps them (with a warning) instead of rejecting them', () => {
    expect(schema.additionalProperties).toEqual({});
    expect(propertyAt(['auxiliary', 'vision'])?.additionalProperties).toEqual({});
    expect(propertyAt(['model'])?.anyOf?.[1]?.additionalProperties).toEqual({});
  });
});

describe('toInputJsonSchema', () => {
  it('turns what JSON Schema cannot express into "any value" instead of throwing', () => {
    const tricky = z.object({
      piped: z.pipe(z.string(), z.transform((s: string) => s.length)),
      transformed: z.transform((x: unknown) => x),
      refined: z.string().check(z.refine((s) => s.length > 2)),
    });
    expect(toInputJsonSchema(tricky)).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { piped: { type: 'string' }, transformed: {}, refined: { type: 'string' } },
      required: ['piped', 'refined'],
    });
  });
});

function valueAt(data: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], data);
}
