// `iris config schema`: the JSON Schema of config.yaml, printed without a home or a config file.
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { parseJson, parseYaml, type Doc } from '../helpers/documents.js';

let dir: string;
let home: string;
beforeEach(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
});
afterEach(() => removeDir(dir));

const iris = (args: string[], at = home) => runIris(args, { home: at });

/** The schema of a config key, following `properties` (objects) only. */
function propertyAt(schema: Doc, path: readonly string[]): Doc | undefined {
  return path.reduce<Doc | undefined>((node, key) => node?.properties?.[key], schema);
}

/** Paths to the leaves of a config document: scalars, lists and empty mappings. */
function leafPaths(value: unknown, path: string[] = []): string[][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length === 0) {
    return [path];
  }
  return Object.entries(value).flatMap(([key, child]) => leafPaths(child, [...path, key]));
}

async function printedSchema(): Promise<Doc> {
  const result = await iris(['config', 'schema']);
  expect(result).toMatchObject({ code: 0, stderr: '' });
  return parseJson(result.stdout);
}

describe('iris config schema', () => {
  it('prints the schema as indented JSON, without creating or needing a home', async () => {
    const result = await iris(['config', 'schema']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const schema = parseJson(result.stdout);
    expect(result.stdout).toBe(`${JSON.stringify(schema, null, 2)}\n`);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.title).toBe('Iris config.yaml');
    expect(schema).not.toHaveProperty('required');
    expect(propertyAt(schema, ['approval_mode'])).toEqual({
      default: 'manual',
      type: 'string',
      enum: ['manual', 'smart', 'off'],
    });
    expect(propertyAt(schema, ['platforms', 'webhook', 'extra', 'port'])).toEqual({
      default: 8644,
      type: 'integer',
      minimum: 0,
      maximum: 65535,
    });
    expect(propertyAt(schema, ['auxiliary', 'curator', 'timeout'])).toMatchObject({ default: 600, type: 'integer' });
    await expect(stat(home)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('works even where IRIS_HOME could not be used (it reads no home)', async () => {
    const notADirectory = join(dir, 'file');
    await writeFile(notADirectory, 'x');
    expect((await iris(['config', 'show'], notADirectory)).code).toBe(2);
    const result = await iris(['config', 'schema'], notADirectory);
    expect(result.code).toBe(0);
    expect(parseJson(result.stdout).$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('prints the same document with --json', async () => {
    const plain = await iris(['config', 'schema']);
    const json = await iris(['config', 'schema', '--json']);
    expect(json.code).toBe(0);
    expect(json.stdout).toBe(plain.stdout);
  });

  it('names every key of the default config, with the same default', async () => {
    const schema = await printedSchema();
    const shown = await iris(['config', 'show', '--json']);
    expect(shown.code).toBe(0);
    const defaults = parseJson(shown.stdout);
    const paths = leafPaths(defaults);
    expect(paths).toContainEqual(['platforms', 'webhook', 'extra', 'routes']);
    for (const path of paths) {
      const value = path.reduce<Doc | undefined>((node, key) => node?.[key], defaults);
      expect({ path, default: propertyAt(schema, path)?.default }).toEqual({ path, default: value });
    }
  });

  it('names every key of the starter config.yaml, and set keeps the editor line', async () => {
    const schema = await printedSchema();
    // The first write creates config.yaml from the starter.
    expect((await iris(['config', 'set', 'agent.max_iterations', '12'])).code).toBe(0);
    const starter = parseYaml(await readFile(join(home, 'config.yaml'), 'utf8'));
    const paths = leafPaths(starter);
    expect(paths).toContainEqual(['model']);
    for (const path of paths) expect({ path, known: propertyAt(schema, path) !== undefined }).toEqual({ path, known: true });

    const line = '# yaml-language-server: $schema=./config.schema.json';
    await writeFile(join(home, 'config.yaml'), `${line}\napproval_mode: smart\n`);
    const set = await iris(['config', 'set', 'agent.max_iterations', '20']);
    expect(set).toMatchObject({ code: 0, stderr: '' });
    const text = await readFile(join(home, 'config.yaml'), 'utf8');
    expect(text.split('\n')[0]).toBe(line);
    expect(parseYaml(text)).toEqual({ approval_mode: 'smart', agent: { max_iterations: 20 } });
  });
});

describe('iris config schema in a home that has one', () => {
  it('leaves an existing home and config untouched', async () => {
    await mkdir(home, { mode: 0o700 });
    await writeFile(join(home, 'config.yaml'), 'approval_mode: nope\n', { mode: 0o600 });
    const result = await iris(['config', 'schema']);
    // An invalid config is not this command's business: no warning, no change.
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(await readFile(join(home, 'config.yaml'), 'utf8')).toBe('approval_mode: nope\n');
  });
});
