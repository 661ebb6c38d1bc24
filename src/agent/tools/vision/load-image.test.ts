import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STRICT_GUARD } from '../../../net/fetch-guard.js';
import { makeTempDirs, type TempDirs } from '../test-support.js';
import { loadImage, type ImageSourceDeps } from './load-image.js';

const MiB = 1024 * 1024;
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let dirs: TempDirs;
beforeEach(async () => {
  dirs = await makeTempDirs();
});
afterEach(() => dirs.cleanup());

const deps = (maxBytes: number): ImageSourceDeps => ({
  downloadTimeoutMs: 1000,
  guard: STRICT_GUARD,
  maxBytes,
  resolvePath: async (path) => ({ ok: true, absolute: join(dirs.workspace, path) }),
});

describe('loadImage', () => {
  it('reads a file up to the cap and refuses one byte more', async () => {
    const exact = Buffer.concat([PNG_HEAD, Buffer.alloc(MiB - PNG_HEAD.length)]);
    await writeFile(join(dirs.workspace, 'exact.png'), exact);
    await writeFile(join(dirs.workspace, 'over.png'), Buffer.concat([exact, Buffer.from([0])]));
    expect(await loadImage('exact.png', deps(MiB))).toEqual({ ok: true, image: { mediaType: 'image/png', data: exact } });
    expect(await loadImage('over.png', deps(MiB))).toEqual({ ok: false, error: '"over.png": is larger than 1 MB' });
  });

  it('applies the cap to data: URLs too', async () => {
    const over = Buffer.concat([PNG_HEAD, Buffer.alloc(MiB)]).toString('base64');
    expect(await loadImage(`data:image/png;base64,${over}`, deps(MiB))).toEqual({ ok: false, error: `the data: URL holds more than ${MiB} bytes` });
  });

  it('refuses a folder', async () => {
    expect(await loadImage('.', deps(MiB))).toEqual({ ok: false, error: '".": is a folder' });
  });

  it('names a data: URL by its head only in errors', async () => {
    expect(await loadImage(`data:text/plain;base64,${Buffer.from('hello there').toString('base64')}`, deps(MiB))).toEqual({
      ok: false,
      error: 'the data: URL (data:text/plain;base64,…) is not a PNG, JPEG, GIF or WebP image (checked by its first bytes)',
    });
  });
});
