import { mkdir, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeContext, makeTempDirs, type TempDirs } from '../test-support.js';
import { searchFilesTool } from './search-files.js';

let dirs: TempDirs;
beforeEach(async () => {
  dirs = await makeTempDirs();
  const ws = dirs.workspace;
  for (const folder of ['src/lib', 'node_modules/pkg', 'docs']) await mkdir(join(ws, folder), { recursive: true });
  await writeFile(join(ws, 'src/a.ts'), 'import x from "y";\nconst TODO = 1;\n// todo: later\n');
  await writeFile(join(ws, 'src/lib/b.ts'), 'export const b = 2; // TODO\n');
  await writeFile(join(ws, 'src/lib/b.test.ts'), 'it("TODO")\n');
  await writeFile(join(ws, 'docs/notes.md'), '# TODO list\n');
  await writeFile(join(ws, 'node_modules/pkg/index.js'), '// TODO in a dependency\n');
  await writeFile(join(ws, 'image.png'), Buffer.from([0x89, 0x00, 0x54, 0x4f, 0x44, 0x4f]));
  await writeFile(join(dirs.base, 'outside.txt'), 'TODO outside\n');
  await symlink(join(dirs.base, 'outside.txt'), join(ws, 'outside-link.txt'));
});
afterEach(() => dirs.cleanup());

const search = (args: Record<string, unknown>) => searchFilesTool.run(args, makeContext(dirs));

describe('search_files', () => {
  it('finds matching lines as path:line: text, skipping binary files, dependencies and symlinks', async () => {
    expect(await search({ pattern: 'TODO' })).toEqual({
      ok: true,
      content: [
        'docs/notes.md:1: # TODO list',
        'src/a.ts:2: const TODO = 1;',
        'src/lib/b.test.ts:1: it("TODO")',
        'src/lib/b.ts:1: export const b = 2; // TODO',
        '[skipped files: 1 binary]',
      ].join('\n'),
    });
  });

  it('matches case-insensitively when asked', async () => {
    expect(await search({ pattern: 'todo:', ignore_case: true, path: 'src' })).toEqual({ ok: true, content: 'src/a.ts:3: // todo: later' });
  });

  it('filters by a file-name glob or a path glob', async () => {
    expect(await search({ pattern: 'TODO', glob: '*.test.ts' })).toEqual({ ok: true, content: 'src/lib/b.test.ts:1: it("TODO")' });
    expect(await search({ pattern: 'TODO', glob: 'lib/*.ts', path: 'src' })).toEqual({
      ok: true,
      content: 'src/lib/b.test.ts:1: it("TODO")\nsrc/lib/b.ts:1: export const b = 2; // TODO',
    });
    expect(await search({ pattern: 'TODO', glob: '{docs,src}/*.{md,ts}' })).toEqual({
      ok: true,
      content: 'docs/notes.md:1: # TODO list\nsrc/a.ts:2: const TODO = 1;',
    });
  });

  it('searches one file, or a skipped folder named as the path', async () => {
    expect(await search({ pattern: 'const', path: 'src/a.ts' })).toEqual({ ok: true, content: 'src/a.ts:2: const TODO = 1;' });
    expect(await search({ pattern: 'TODO', path: 'node_modules' })).toEqual({
      ok: true,
      content: 'node_modules/pkg/index.js:1: // TODO in a dependency',
    });
  });

  it('stops at max_results and says so', async () => {
    expect(await search({ pattern: 'TODO', max_results: 2 })).toEqual({
      ok: true,
      content: [
        'docs/notes.md:1: # TODO list',
        'src/a.ts:2: const TODO = 1;',
        '[stopped at 2 matches: narrow the pattern, path or glob, or raise max_results]',
        '[skipped files: 1 binary]',
      ].join('\n'),
    });
  });

  it('reports no matches, with the number of files searched', async () => {
    expect(await search({ pattern: 'nothing-like-this', path: 'src' })).toEqual({
      ok: true,
      content: 'no matches for /nothing-like-this/ in 3 files',
    });
  });

  it('skips files over 2 MiB', async () => {
    await writeFile(join(dirs.workspace, 'docs/big.log'), '');
    await truncate(join(dirs.workspace, 'docs/big.log'), 3 * 1024 * 1024);
    expect(await search({ pattern: 'TODO', path: 'docs' })).toEqual({
      ok: true,
      content: 'docs/notes.md:1: # TODO list\n[skipped files: 1 over 2.0 MiB]',
    });
  });

  it('cuts long matching lines', async () => {
    await writeFile(join(dirs.workspace, 'docs/long.txt'), `needle ${'z'.repeat(400)}\n`);
    expect(await search({ pattern: 'needle', path: 'docs' })).toEqual({ ok: true, content: `docs/long.txt:1: needle ${'z'.repeat(293)} …` });
  });

  it('rejects an invalid pattern or glob, and paths outside', async () => {
    expect(await search({ pattern: '(unclosed' })).toEqual({
      ok: false,
      content: 'pattern is not a valid regular expression: Invalid regular expression: /(unclosed/: Unterminated group',
    });
    expect(await search({ pattern: 'x', glob: '{a,b' })).toEqual({ ok: false, content: 'glob "{a,b" is not valid' });
    expect(await search({ pattern: 'x', path: '..' })).toEqual({ ok: false, content: 'path ".." is outside the workspace' });
    expect(await search({ pattern: 'x', path: 'outside-link.txt' })).toEqual({
      ok: false,
      content: 'path "outside-link.txt" leads outside the workspace through a symbolic link',
    });
    expect(await search({ pattern: 'x', path: 'missing' })).toEqual({ ok: false, content: 'nothing at "missing"' });
  });

  it('is read-only', () => {
    expect(searchFilesTool.readOnly).toBe(true);
  });
});
