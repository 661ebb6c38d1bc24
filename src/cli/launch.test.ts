import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import { bundleFor, cacheFileFor, launch, loadBundle } from './launch.js';

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
  it('names the bundle, its build, the Node version and architecture, and the V8 flags', () => {
    const runtime = { nodeVersion: 'v20.20.2', arch: 'x64', flags: '\n' };
    const file = cacheFileFor('/x/dist/cli', 'groups/config.cjs', 'e0101f3b309b6115', runtime);
    expect(file).toMatch(/^\/x\/dist\/cli\/cache\/groups-config-e0101f3b309b6115-v20\.20\.2-x64-[0-9a-z]+\.v8$/);
    expect(cacheFileFor('/x/dist/cli', 'help.cjs', 'ab', { ...runtime, nodeVersion: 'v22.1.0', arch: 'arm64' })).toMatch(/^\/x\/dist\/cli\/cache\/help-ab-v22\.1\.0-arm64-[0-9a-z]+\.v8$/);
    // Other flags (a heap limit makes V8 refuse a cache made without it), another file.
    expect(cacheFileFor('/x/dist/cli', 'groups/config.cjs', 'e0101f3b309b6115', { ...runtime, flags: '--max-old-space-size=512\n' })).not.toBe(file);
    expect(cacheFileFor('/x/dist/cli', 'groups/config.cjs', 'e0101f3b309b6115', { ...runtime, flags: '\n--stack-size=2000' })).not.toBe(file);
    expect(cacheFileFor('/x/dist/cli', 'groups/config.cjs', 'e0101f3b309b6116', runtime)).not.toBe(file);
  });
});

describe('loadBundle', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(() => removeDir(dir));

  // A CommonJS bundle as esbuild writes them: module.exports, require of a built-in, __dirname.
  const BUNDLE = `'use strict';
    const { basename } = require('node:path');
    let calls = 0;
    module.exports.main = async (argv) => { calls += 1; return argv.length * 10 + calls; };
    module.exports.where = basename(__dirname);
    module.exports.self = this === module.exports;
    module.exports.strict = (function () { return this === undefined; })();
  `;

  // V8 keeps what this process compiled, by source and file name, and would serve a second load
  // of one file from there without looking at the cache: each load compiles a copy of its own, as
  // each run of the CLI is a process of its own.
  let copies = 0;
  function load(file: string, cacheFile: string) {
    const writes: Array<() => void> = [];
    const copy = file.replace(/\.cjs$/, `.${++copies}.cjs`);
    writeFileSync(copy, readFileSync(file));
    const loaded = loadBundle(copy, cacheFile, (write) => writes.push(write));
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
    expect(first.cli).toMatchObject({ where: 'groups', self: true, strict: true });
    expect(first.writes).toBe(1);
    first.writeCache();
    expect(readFileSync(cacheFile).length).toBeGreaterThan(0);
    expect(readdirSync(join(dir, 'cache'))).toEqual(['b.v8']); // no temporary file left behind

    const second = load(file, cacheFile);
    expect(second.cache).toBe('used');
    expect(second.writes).toBe(0);
    expect(await second.cli.main([])).toBe(1);
  });

  // Not a cache at all, and what a torn write would leave (writeCache never renames one into
  // place, but a copy or a full disk might): both refused, compiled without, and written again.
  it.each([
    ['not a code cache', () => Buffer.from('not a code cache')],
    ['a cut-short cache', (made: Buffer) => made.subarray(0, made.length >> 1)],
  ])('compiles without %s, and writes it again', async (_what, damage) => {
    const file = join(dir, 'b.cjs');
    writeFileSync(file, BUNDLE);
    const cacheFile = join(dir, 'b.v8');
    load(file, cacheFile).writeCache();
    writeFileSync(cacheFile, damage(readFileSync(cacheFile)));
    const loaded = load(file, cacheFile);
    expect(loaded.cache).toBe('rejected');
    expect(await loaded.cli.main(['x'])).toBe(11);
    loaded.writeCache();
    expect(load(file, cacheFile).cache).toBe('used');
  });

  it('runs the same where the cache cannot be written', async () => {
    const file = join(dir, 'b.cjs');
    writeFileSync(file, BUNDLE);
    // A file where the cache folder should be stops the write, as a read-only folder would.
    writeFileSync(join(dir, 'cache'), '');
    const cacheFile = join(dir, 'cache', 'b.v8');
    const loaded = load(file, cacheFile);
    expect(() => loaded.writeCache()).not.toThrow();
    expect(await loaded.cli.main([])).toBe(1);
    expect(load(file, cacheFile).cache).toBe('none');
  });

  it('leaves no temporary file when the cache cannot be put in place', async () => {
    const file = join(dir, 'b.cjs');
    writeFileSync(file, BUNDLE);
    // A folder where the cache file should be: the temporary file is written, the rename fails.
    const cacheFile = join(dir, 'b.v8');
    mkdirSync(cacheFile);
    const loaded = load(file, cacheFile);
    expect(() => loaded.writeCache()).not.toThrow();
    expect(readdirSync(dir).filter((name) => !name.endsWith('.cjs'))).toEqual(['b.v8']);
    expect(readdirSync(cacheFile)).toEqual([]);
  });
});

describe('launch', () => {
  let dist: string;
  beforeEach(async () => {
    dist = await makeTempDir();
    mkdirSync(join(dist, 'cli', 'groups'), { recursive: true });
    writeFileSync(join(dist, 'cli', 'groups', 'status.cjs'), "module.exports.main = async (argv) => argv.length === 1 && argv[0] === 'status' ? 7 : 1;");
    writeFileSync(join(dist, 'cli', 'help.cjs'), 'module.exports.main = async () => 3;');
  });
  afterEach(() => removeDir(dist));
  const hashes = { 'groups/status.cjs': 'aaaa', 'help.cjs': 'bbbb' };

  it("runs the group's bundle, or help's, and caches each under its build", async () => {
    const writes: Array<() => void> = [];
    const atExit = (write: () => void) => writes.push(write);
    expect(await launch(['status'], dist, hashes, atExit)).toBe(7);
    expect(await launch(['frobnicate'], dist, hashes, atExit)).toBe(3);
    writes.forEach((write) => write());
    const cached = readdirSync(join(dist, 'cli', 'cache')).sort();
    expect(cached).toHaveLength(2);
    expect(cached[0]).toMatch(new RegExp(`^groups-status-aaaa-${process.version.replace(/\./g, '\\.')}-${process.arch}-[0-9a-z]+\\.v8$`));
    expect(cached[1]).toMatch(/^help-bbbb-/);
    expect(await launch([], dist, hashes, atExit)).toBe(3);
    expect(writes).toHaveLength(2); // the third run compiled with help's cache: nothing to write
  });

  it('names a bundle the build does not have, rather than running something else', async () => {
    await expect(launch(['frobnicate'], dist, { 'groups/status.cjs': 'aaaa' }, () => {})).rejects.toThrow('the CLI build has no help.cjs; run `npm run build`');
    expect(await launch(['status'], dist, { 'help.cjs': 'bbbb' }, () => {})).toBe(3);
    await expect(launch(['config'], dist, { ...hashes, 'groups/config.cjs': 'cccc' }, () => {})).rejects.toThrow('the CLI build has no groups/config.cjs');
  });
});
