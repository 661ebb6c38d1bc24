import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import { prepareHome, resolveHomePaths, type HomePaths } from './home.js';
import { loadConfig, updateConfig } from './store.js';
import { setScalarIn } from './yaml-document.js';

let dir: string;
let paths: HomePaths;

beforeEach(async () => {
  dir = await makeTempDir();
  paths = resolveHomePaths({ IRIS_HOME: `${dir}/home` });
  const prepared = await prepareHome(paths);
  expect(prepared.ok).toBe(true);
});
afterEach(() => removeDir(dir));

function set(path: string[], value: string | number | boolean) {
  return updateConfig(paths, (doc) => setScalarIn(doc, path, value));
}

describe('loadConfig', () => {
  it('reads a missing file as a fresh install without creating it', async () => {
    const loaded = await loadConfig(paths);
    expect(loaded).toMatchObject({ ok: true, exists: false, config: { model: '' } });
    await expect(stat(paths.configPath)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('fails with parse_error on malformed YAML, naming the line', async () => {
    await writeFile(paths.configPath, 'a: 1\nb: c: d\n', { mode: 0o600 });
    const loaded = await loadConfig(paths);
    expect(loaded.ok).toBe(false);
    expect(loaded.ok ? '' : loaded.error.code).toBe('parse_error');
    expect(loaded.ok ? '' : loaded.error.message).toBe(
      `${paths.configPath}: invalid YAML at line 2, column 4: Nested mappings are not allowed in compact mappings`,
    );
  });
});

describe('updateConfig', () => {
  it('creates the file from the starter config at 0600', async () => {
    const result = await set(['model', 'provider'], 'openrouter');
    expect(result.ok).toBe(true);
    const text = await readFile(paths.configPath, 'utf8');
    expect(text).toContain('# Iris configuration.');
    expect(text).toContain('model:\n  provider: openrouter\n');
    expect((await stat(paths.configPath)).mode & 0o777).toBe(0o600);
  });

  it('keeps comments and unknown keys of an existing file and leaves no temp files', async () => {
    const original = '# mine\nmodel: { provider: openai, default: gpt-5 } # inline\nextra_thing: [1, 2]\n';
    await writeFile(paths.configPath, original, { mode: 0o600 });
    await set(['approval_mode'], 'smart');
    const text = await readFile(paths.configPath, 'utf8');
    // Flow collections come back with yaml's padding; everything else is byte-identical.
    expect(text).toBe(`${original.replace('[1, 2]', '[ 1, 2 ]')}approval_mode: smart\n`);
    expect((await readdir(paths.dir)).sort()).toEqual(['config.yaml']);
  });

  it('writes nothing when the edit fails', async () => {
    await writeFile(paths.configPath, 'model:\n  provider: x\n', { mode: 0o600 });
    const result = await set(['model'], 'flat');
    expect(result.ok ? '' : result.error.code).toBe('not_scalar');
    expect(await readFile(paths.configPath, 'utf8')).toBe('model:\n  provider: x\n');
  });

  it('refuses to overwrite a file it cannot parse', async () => {
    await writeFile(paths.configPath, 'a: [\n', { mode: 0o600 });
    const result = await set(['b'], 1);
    expect(result.ok ? '' : result.error.code).toBe('parse_error');
    expect(await readFile(paths.configPath, 'utf8')).toBe('a: [\n');
  });

  it('loses no change when many writers run at once', async () => {
    const writes = Array.from({ length: 40 }, (_, i) => set(['concurrent', `key${i}`], i));
    const results = await Promise.all(writes);
    expect(results.every((r) => r.ok)).toBe(true);
    const loaded = await loadConfig(paths);
    const written = loaded.ok ? (loaded.config as Record<string, unknown>).concurrent : undefined;
    expect(written).toEqual(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`key${i}`, i])));
  });

  it('times out with lock_timeout while another live process holds the lock', async () => {
    await writeFile(`${paths.configPath}.lock`, `${process.pid} ${(await import('node:os')).hostname()} ${Date.now()}`);
    const result = await updateConfig(paths, (doc) => setScalarIn(doc, ['a'], 1), { timeoutMs: 100 });
    expect(result.ok ? '' : result.error.code).toBe('lock_timeout');
    await expect(stat(paths.configPath)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('breaks a lock left by a process that is gone', async () => {
    await writeFile(`${paths.configPath}.lock`, `999999999 ${(await import('node:os')).hostname()} ${Date.now()}`);
    const result = await updateConfig(paths, (doc) => setScalarIn(doc, ['a'], 1), { timeoutMs: 2000 });
    expect(result.ok).toBe(true);
    expect(await readFile(paths.configPath, 'utf8')).toContain('a: 1');
    await expect(stat(`${paths.configPath}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('breaks a lock older than the stale limit', async () => {
    await writeFile(`${paths.configPath}.lock`, '1 some-other-host 0');
    const result = await updateConfig(paths, (doc) => setScalarIn(doc, ['a'], 2), { staleMs: 0, timeoutMs: 2000 });
    expect(result.ok).toBe(true);
  });
});
