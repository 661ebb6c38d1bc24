import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeContext, makeTempDirs, type TempDirs } from '../test-support.js';
import { listFilesTool } from './list-files.js';

let dirs: TempDirs;
beforeEach(async () => {
  dirs = await makeTempDirs();
  const ws = dirs.workspace;
  for (const folder of ['src/lib', 'node_modules/pkg', '.git/objects', 'empty']) await mkdir(join(ws, folder), { recursive: true });
  for (const file of ['README.md', 'src/a.ts', 'src/lib/b.ts', 'node_modules/pkg/index.js', '.git/HEAD']) {
    await writeFile(join(ws, file), 'x');
  }
  await symlink(dirs.base, join(ws, 'up'));
});
afterEach(() => dirs.cleanup());

const list = (args: Record<string, unknown>) => listFilesTool.run(args, makeContext(dirs));

describe('list_files', () => {
  it('lists the root, sorted, marking folders and symlinks', async () => {
    expect(await list({})).toEqual({
      ok: true,
      content: ['.git/', 'README.md', 'empty/', 'node_modules/', 'src/', 'up@'].join('\n'),
    });
  });

  it('lists recursively, relative to the root, without entering .git, node_modules or symlinks', async () => {
    expect(await list({ recursive: true })).toEqual({
      ok: true,
      content: [
        '.git/ (not descended into)',
        'README.md',
        'empty/',
        'node_modules/ (not descended into)',
        'src/',
        'src/a.ts',
        'src/lib/',
        'src/lib/b.ts',
        'up@',
      ].join('\n'),
    });
  });

  it('lists a subfolder, and a skipped folder when asked for it by name', async () => {
    expect(await list({ path: 'src', recursive: true })).toEqual({ ok: true, content: 'src/a.ts\nsrc/lib/\nsrc/lib/b.ts' });
    expect(await list({ path: 'node_modules', recursive: true })).toEqual({
      ok: true,
      content: 'node_modules/pkg/\nnode_modules/pkg/index.js',
    });
  });

  it('stops at max_entries and says how to see more', async () => {
    expect(await list({ recursive: true, max_entries: 3 })).toEqual({
      ok: true,
      content: '.git/ (not descended into)\nREADME.md\nempty/\n[stopped at 3 entries: list a subfolder, or pass max_entries (up to 2000)]',
    });
  });

  it('says when a folder is empty, missing, a file or outside', async () => {
    expect(await list({ path: 'empty' })).toEqual({ ok: true, content: '(empty folder)' });
    expect(await list({ path: 'missing' })).toEqual({ ok: false, content: 'no folder at "missing"' });
    expect(await list({ path: 'README.md' })).toEqual({ ok: false, content: '"README.md" is a file, not a folder: use read_file' });
    expect(await list({ path: 'up' })).toEqual({ ok: false, content: 'path "up" leads outside the workspace through a symbolic link' });
    expect(await list({ path: '..' })).toEqual({ ok: false, content: 'path ".." is outside the workspace' });
  });

  it('is read-only', () => {
    expect(listFilesTool.readOnly).toBe(true);
  });
});
