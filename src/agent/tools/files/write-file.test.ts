import { chmod, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeContext, makeTempDirs, type TempDirs } from '../test-support.js';
import { writeFileTool } from './write-file.js';

let dirs: TempDirs;
beforeEach(async () => {
  dirs = await makeTempDirs();
});
afterEach(() => dirs.cleanup());

const write = (args: Record<string, unknown>) => writeFileTool.run(args, makeContext(dirs));

describe('write_file', () => {
  it('creates a file and its missing parent folders', async () => {
    expect(await write({ path: 'src/deep/new.ts', content: 'export {};\n' })).toEqual({
      ok: true,
      content: 'created "src/deep/new.ts" (11 bytes)',
    });
    expect(await readFile(join(dirs.workspace, 'src/deep/new.ts'), 'utf8')).toBe('export {};\n');
    expect((await stat(join(dirs.workspace, 'src/deep/new.ts'))).mode & 0o777).toBe(0o644);
  });

  it('replaces a file whole, keeping its mode, and leaves no temporary file', async () => {
    const path = join(dirs.workspace, 'run.sh');
    await writeFile(path, 'old content that is longer');
    await chmod(path, 0o755);
    expect(await write({ path: 'run.sh', content: 'new' })).toEqual({ ok: true, content: 'replaced "run.sh" (3 bytes)' });
    expect(await readFile(path, 'utf8')).toBe('new');
    expect((await stat(path)).mode & 0o777).toBe(0o755);
    expect(await readdir(dirs.workspace)).toEqual(['run.sh']);
  });

  it('writes an empty file', async () => {
    expect(await write({ path: 'empty', content: '' })).toEqual({ ok: true, content: 'created "empty" (0 bytes)' });
  });

  it('refuses to replace a folder', async () => {
    await mkdir(join(dirs.workspace, 'src'));
    expect(await write({ path: 'src', content: 'x' })).toEqual({ ok: false, content: '"src" exists and is not a regular file: not replaced' });
  });

  it('refuses paths outside the workspace, including through symlinks', async () => {
    await mkdir(join(dirs.base, 'elsewhere'));
    await writeFile(join(dirs.base, 'target.txt'), 'untouched');
    await symlink(join(dirs.base, 'elsewhere'), join(dirs.workspace, 'out'));
    await symlink(join(dirs.base, 'target.txt'), join(dirs.workspace, 'target-link.txt'));
    expect(await write({ path: '../escape.txt', content: 'x' })).toEqual({ ok: false, content: 'path "../escape.txt" is outside the workspace' });
    expect(await write({ path: 'out/new.txt', content: 'x' })).toEqual({
      ok: false,
      content: 'path "out/new.txt" leads outside the workspace through a symbolic link',
    });
    expect(await write({ path: 'target-link.txt', content: 'x' })).toEqual({
      ok: false,
      content: 'path "target-link.txt" leads outside the workspace through a symbolic link',
    });
    expect(await readdir(join(dirs.base, 'elsewhere'))).toEqual([]);
    expect(await readFile(join(dirs.base, 'target.txt'), 'utf8')).toBe('untouched');
  });

  it('is not read-only', () => {
    expect(writeFileTool.readOnly).toBe(false);
  });
});
