import { mkdirSync, readFileSync, writeFileSync, chmodSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import { bundleFor, cacheFileFor, loadBundle } from './launch.js';

describe('bundleFor', () => {
  const groups = new Set(['config', 'status', 'model']);
  const exists = (group: string) => groups.has(group);

  it("is the command group's bundle, after global options", () => {
    expect(bundleFor(['config', 'show'], exists)).toBe('groups/config.cjs');
    expect(bundleFor(['-p', 'work', 'status', '--deep'], exists)).toBe('groups/status.cjs');
    expect(bundleFor(['--profile', 'config', 'model', 'list'], exists)).toBe('groups/model.cjs');
  });

  it('is help for no command, help, an unknown command, or a word that is not a plain name', () => {
    expect(bundleFor([], exists)).toBe('help.cjs');
    expect(bundleFor(['--help'], exists)).toBe('help.cjs');
    expect(bundleFor(['help', 'config'], exists)).toBe('help.cjs');
    expect(bundleFor(['stauts'], exists)).toBe('help.cjs');
    const asked: string[] = [];
    for (const word of ['../config', 'Config', 'config.cjs', '']) {
      expect(bundleFor([word], (group) => (asked.push(group), true))).toBe('help.cjs');
    }
    expect(asked).toEqual([]);
  });
});

describe('cacheFileFor', () => {
  it('names the bundle, its build and the Node version and architecture', () => {
    expect(cacheFileFor('/x/dist/cli', 'groups/config.cjs', { size: 1234, mtimeMs: 1700000000123.75 }, 'v20.20.2', 'x64')).toBe(
      '/x/dist/cli/cache/groups-config-1234-1700000000123-v20.20.2-x64.v8',
    );
    expect(cacheFileFor('/x/dist/cli', 'help.cjs', { size: 1, mtimeMs: 2 }, 'v22.1.0', 'arm64')).toBe('/x/dist/cli/cache/help-1-2-v22.1.0-arm64.v8');
  });
});

describe('loadBundle', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(() => removeDir(dir));

  // A CommonJS bundle as esbuild writes them: module.exports, require of a built-in, __dirname.
  const BUNDLE = `
    const { basename } = require('node:path');
    let calls = 0;
    module.exports.main = async (argv) => { calls += 1; return argv.length * 10 + calls; };
    module.exports.where = basename(__dirname);
    module.exports.self = this === module.exports;
  `;

  function load(file: string, cacheFile: string) {
    const writes: Array<() => void> = [];
    const loaded = loadBundle(file, cacheFile, (write) => writes.push(write));
    return { ...loaded, writeCache: () => writes.forEach((write) => write()), writes: writes.length };
  }

  it('runs the bundle, writes its cache once, and then compiles with it', async () => {
    const file = join(dir, 'groups', 'b.cjs');
    mkdirSync(join(dir, 'groups'));
    writeFileSync(file, BUNDLE);
    const cacheFile = join(dir, 'cache', 'b.v8');

    const first = load(file, cacheFile);
    expect(first.cache).toBe('none');
    expect(await first.cli.main(['a', 'b'])).toBe(21);
    expect(first.cli).toMatchObject({ where: 'groups', self: true });
    expect(first.writes).toBe(1);
    first.writeCache();
    expect(readFileSync(cacheFile).length).toBeGreaterThan(0);
    expect(readdirSync(join(dir, 'cache'))).toEqual(['b.v8']); // no temporary file left behind

    const second = load(file, cacheFile);
    expect(second.cache).toBe('used');
    expect(second.writes).toBe(0);
    expect(await second.cli.main([])).toBe(1);
  });

  it('compiles without a cache V8 refuses, and writes it again', async () => {
    const file = join(dir, 'b.cjs');
    writeFileSync(file, BUNDLE);
    const cacheFile = join(dir, 'b.v8');
    writeFileSync(cacheFile, 'not a code cache');
    const loaded = load(file, cacheFile);
    expect(loaded.cache).toBe('rejected');
    expect(await loaded.cli.main(['x'])).toBe(11);
    loaded.writeCache();
    expect(load(file, cacheFile).cache).toBe('used');
  });

  it('runs the same where the cache cannot be written', async () => {
    const file = join(dir, 'b.cjs');
    writeFileSync(file, BUNDLE);
    const readOnly = join(dir, 'read-only');
    mkdirSync(readOnly);
    // Under root the mode does not stop a write: a file where the cache folder should be does.
    writeFileSync(join(readOnly, 'cache'), '');
    chmodSync(readOnly, 0o500);
    const cacheFile = join(readOnly, 'cache', 'b.v8');
    const loaded = load(file, cacheFile);
    expect(() => loaded.writeCache()).not.toThrow();
    expect(await loaded.cli.main([])).toBe(1);
    expect(load(file, cacheFile).cache).toBe('none');
  });
});
