import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'iris-atomic-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh copy of the module, so its counter of temporary names starts at 0. */
async function freshWriter() {
  vi.resetModules();
  return (await import('./atomic-write.js')).writeFileAtomic;
}

describe('writeFileAtomic', () => {
  it('replaces the file with the new bytes, private, and leaves no temporary file', async () => {
    const writeFileAtomic = await freshWriter();
    const path = join(dir, 'config.yaml');
    writeFileSync(path, 'old: 1\n', { mode: 0o644 });
    await writeFileAtomic(path, 'new: 2\n');
    expect(readFileSync(path, 'utf8')).toBe('new: 2\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['config.yaml']);
  });

  it('writes through a symlink to its target, which stays a symlink', async () => {
    const writeFileAtomic = await freshWriter();
    const target = join(dir, 'real.yaml');
    writeFileSync(target, 'a: 1\n');
    symlinkSync(target, join(dir, 'config.yaml'));
    await writeFileAtomic(join(dir, 'config.yaml'), 'a: 2\n');
    expect(readFileSync(target, 'utf8')).toBe('a: 2\n');
    expect(readdirSync(dir).sort()).toEqual(['config.yaml', 'real.yaml']);
  });

  it('gives concurrent writes distinct temporary names (both succeed, one wins whole)', async () => {
    const writeFileAtomic = await freshWriter();
    const path = join(dir, 'config.yaml');
    vi.spyOn(Math, 'random').mockReturnValue(0.5); // the same random part for both
    await Promise.all([writeFileAtomic(path, 'x: 1\n'), writeFileAtomic(path, 'x: 2\n')]);
    expect(['x: 1\n', 'x: 2\n']).toContain(readFileSync(path, 'utf8'));
    expect(readdirSync(dir)).toEqual(['config.yaml']);
  });

  it('refuses a temporary name that is taken and leaves that file alone (it is not ours)', async () => {
    const writeFileAtomic = await freshWriter();
    const path = join(dir, 'config.yaml');
    writeFileSync(path, 'old: 1\n');
    vi.spyOn(Math, 'random').mockReturnValue(0.5); // (0.5).toString(36) is '0.i'
    const taken = join(dir, `.config.yaml.${process.pid}.1i.tmp`);
    writeFileSync(taken, 'someone else');
    await expect(writeFileAtomic(path, 'new: 2\n')).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(taken, 'utf8')).toBe('someone else');
    expect(readFileSync(path, 'utf8')).toBe('old: 1\n');
  });
});
