import { execFileSync } from 'node:child_process';
import { mkdir, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeContext, makeTempDirs, type TempDirs } from '../test-support.js';
import { numberLines, readFileTool } from './read-file.js';

let dirs: TempDirs;
beforeEach(async () => {
  dirs = await makeTempDirs();
});
afterEach(() => dirs.cleanup());

const read = (args: Record<string, unknown>) => readFileTool.run(args, makeContext(dirs));

describe('read_file', () => {
  it('returns the text with line numbers', async () => {
    await writeFile(join(dirs.workspace, 'a.txt'), 'one\r\ntwo\nthree\n');
    expect(await read({ path: 'a.txt' })).toEqual({ ok: true, content: '     1\tone\n     2\ttwo\n     3\tthree' });
  });

  it('pages with offset_line and max_lines, saying where to read on', async () => {
    await writeFile(join(dirs.workspace, 'a.txt'), Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n'));
    expect(await read({ path: 'a.txt', offset_line: 4, max_lines: 2 })).toEqual({
      ok: true,
      content: '     4\tline 4\n     5\tline 5\n[lines 4-5 of 10; read on with offset_line: 6]',
    });
    expect(await read({ path: 'a.txt', offset_line: 9 })).toEqual({ ok: true, content: '     9\tline 9\n    10\tline 10' });
    expect(await read({ path: 'a.txt', offset_line: 11 })).toEqual({
      ok: true,
      content: '(the file has 10 lines; offset_line 11 is past the end)',
    });
  });

  it('says when a file is empty', async () => {
    await writeFile(join(dirs.workspace, 'empty.txt'), '');
    expect(await read({ path: 'empty.txt' })).toEqual({ ok: true, content: '(empty file)' });
  });

  it('refuses binary files', async () => {
    await writeFile(join(dirs.workspace, 'b.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    expect(await read({ path: 'b.bin' })).toEqual({ ok: false, content: '"b.bin" looks binary (it contains NUL bytes): not shown' });
  });

  it('refuses files over 10 MiB', async () => {
    const path = join(dirs.workspace, 'huge.log');
    await writeFile(path, '');
    await truncate(path, 11 * 1024 * 1024);
    expect(await read({ path: 'huge.log' })).toEqual({
      ok: false,
      content:
        '"huge.log" is 11.0 MiB, over the 10.0 MiB read_file reads: use search_files, or the terminal (head, tail, sed -n, grep) to read parts of it',
    });
  });

  it('explains a missing file, a folder and a FIFO', async () => {
    await mkdir(join(dirs.workspace, 'src'));
    makeFifo(join(dirs.workspace, 'pipe'));
    expect(await read({ path: 'nope.txt' })).toEqual({ ok: false, content: 'no file at "nope.txt"' });
    expect(await read({ path: 'src' })).toEqual({ ok: false, content: '"src" is a folder: use list_files' });
    expect(await read({ path: 'pipe' })).toEqual({ ok: false, content: '"pipe" is not a regular file' });
  });

  it('refuses paths that escape the workspace', async () => {
    await writeFile(join(dirs.base, 'secret.txt'), 'secret');
    await symlink(join(dirs.base, 'secret.txt'), join(dirs.workspace, 'link.txt'));
    expect(await read({ path: '../secret.txt' })).toEqual({ ok: false, content: 'path "../secret.txt" is outside the workspace' });
    expect(await read({ path: join(dirs.base, 'secret.txt') })).toEqual({
      ok: false,
      content: `path "${join(dirs.base, 'secret.txt')}" is outside the workspace`,
    });
    expect(await read({ path: 'link.txt' })).toEqual({
      ok: false,
      content: 'path "link.txt" leads outside the workspace through a symbolic link',
    });
  });

  it('is read-only', () => {
    expect(readFileTool.readOnly).toBe(true);
  });
});

describe('numberLines', () => {
  it('cuts very long lines and stops at the output cap', () => {
    const long = 'x'.repeat(2_500);
    expect(numberLines([long], 1, 10)).toBe(`     1\t${'x'.repeat(2_000)} … [line cut]`);
    const many = Array.from({ length: 100 }, () => 'y'.repeat(1_000));
    const out = numberLines(many, 1, 100).split('\n');
    // 64 KiB fits 65 lines of 1,008 bytes (7 for the number and tab, 1 for the newline).
    expect(out.length).toBe(66);
    expect(out[65]).toBe('[lines 1-65 of 100; read on with offset_line: 66]');
  });
});

function makeFifo(path: string): void {
  // Node has no mkfifo; the coreutils one is on every POSIX system the terminal tool runs on.
  execFileSync('mkfifo', [path], { timeout: 5_000 });
}
