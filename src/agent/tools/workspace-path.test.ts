import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from './test-support.js';
import { isInside, resolveWorkspacePath } from './workspace-path.js';

let dirs: TempDirs;
let ws: string;

beforeEach(async () => {
  dirs = await makeTempDirs();
  ws = dirs.workspace;
  await mkdir(join(ws, 'src'));
  await writeFile(join(ws, 'src', 'a.ts'), 'a');
  await writeFile(join(dirs.base, 'outside.txt'), 'secret');
  await mkdir(join(dirs.base, 'outside-dir'));
});

afterEach(() => dirs.cleanup());

const inside = (relative: string) => ({ ok: true, path: { absolute: join(ws, relative), relative, root: ws } });

describe('resolveWorkspacePath', () => {
  it('resolves relative paths, existing or not, inside the root', async () => {
    expect(await resolveWorkspacePath(ws, 'src/a.ts')).toEqual(inside('src/a.ts'));
    expect(await resolveWorkspacePath(ws, './src/../src/a.ts')).toEqual(inside('src/a.ts'));
    expect(await resolveWorkspacePath(ws, 'src/new/deeper/b.ts')).toEqual(inside('src/new/deeper/b.ts'));
    expect(await resolveWorkspacePath(ws, '.')).toEqual({ ok: true, path: { absolute: ws, relative: '.', root: ws } });
  });

  it('accepts an absolute path inside the root', async () => {
    expect(await resolveWorkspacePath(ws, join(ws, 'src/a.ts'))).toEqual(inside('src/a.ts'));
  });

  it('accepts an absolute path written against a symlinked root', async () => {
    const link = join(dirs.base, 'ws-link');
    await symlink(ws, link);
    expect(await resolveWorkspacePath(link, join(link, 'src/a.ts'))).toEqual(inside('src/a.ts'));
    expect(await resolveWorkspacePath(link, 'src/a.ts')).toEqual(inside('src/a.ts'));
  });

  it('rejects .. escapes and absolute paths outside', async () => {
    for (const input of ['..', '../outside.txt', 'src/../../outside.txt', join(dirs.base, 'outside.txt'), '/etc/passwd']) {
      expect(await resolveWorkspacePath(ws, input)).toEqual({ ok: false, error: `path "${input}" is outside the workspace` });
    }
  });

  it('rejects symlinks that lead outside, to files and to folders', async () => {
    await symlink(join(dirs.base, 'outside.txt'), join(ws, 'file-link'));
    await symlink(join(dirs.base, 'outside-dir'), join(ws, 'dir-link'));
    for (const input of ['file-link', 'dir-link', 'dir-link/new.txt', 'dir-link/a/b/c.txt']) {
      expect(await resolveWorkspacePath(ws, input)).toEqual({
        ok: false,
        error: `path "${input}" leads outside the workspace through a symbolic link`,
      });
    }
  });

  it('follows symlinks that stay inside', async () => {
    await symlink(join(ws, 'src'), join(ws, 'src-link'));
    expect(await resolveWorkspacePath(ws, 'src-link/a.ts')).toEqual(inside('src/a.ts'));
  });

  it('rejects a dangling symlink, whose target cannot be checked', async () => {
    await symlink(join(dirs.base, 'does-not-exist.txt'), join(ws, 'dangling'));
    expect(await resolveWorkspacePath(ws, 'dangling')).toEqual({
      ok: false,
      error: 'path "dangling" goes through a symbolic link whose target does not exist',
    });
  });

  it('rejects NUL bytes and a missing root', async () => {
    expect(await resolveWorkspacePath(ws, 'a\0b')).toEqual({ ok: false, error: 'a path cannot contain a NUL character' });
    const gone = join(dirs.base, 'gone');
    expect(await resolveWorkspacePath(gone, 'a')).toEqual({ ok: false, error: `the workspace root ${gone} is not available` });
  });
});

describe('isInside', () => {
  it('is true for the base and below, false for siblings with a common prefix', () => {
    expect(isInside('/a/b', '/a/b')).toBe(true);
    expect(isInside('/a/b', '/a/b/c')).toBe(true);
    expect(isInside('/a/b', '/a/bc')).toBe(false);
    expect(isInside('/a/b', '/a')).toBe(false);
    expect(isInside('/a/b', '/a/b/..foo')).toBe(true);
  });
});
