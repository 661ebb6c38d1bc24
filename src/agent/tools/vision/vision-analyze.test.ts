import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startPageServer } from '../../../../test/fakes/page-server.js';
import { LOOPBACK_FORMS } from '../../../../test/helpers/loopback-forms.js';
import { buildFetchGuard, STRICT_GUARD } from '../../../net/fetch-guard.js';
import { makeContext, makeTempDirs, type TempDirs } from '../test-support.js';
import type { LoadedImage } from './load-image.js';
import { createVisionAnalyzeTool, type AskVision } from './vision-analyze.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');

let dirs: TempDirs;
beforeEach(async () => {
  dirs = await makeTempDirs();
});
afterEach(() => dirs.cleanup());

function recordingAsk(answer: Awaited<ReturnType<AskVision>> = { ok: true, text: 'a red square' }) {
  const asked: Array<{ question: string; image: LoadedImage }> = [];
  const ask: AskVision = async (question, image) => {
    asked.push({ question, image });
    return answer;
  };
  return { ask, asked };
}

describe('vision_analyze', () => {
  it('reads a workspace file, checks its bytes and asks the vision slot', async () => {
    await writeFile(join(dirs.workspace, 'shot.png'), PNG);
    const { ask, asked } = recordingAsk();
    const tool = createVisionAnalyzeTool({ ask, downloadTimeoutMs: 1000, guard: STRICT_GUARD });
    expect(await tool.run({ image: 'shot.png', question: 'what colour?' }, makeContext(dirs))).toEqual({ ok: true, content: 'a red square' });
    expect(asked).toEqual([{ question: 'what colour?', image: { mediaType: 'image/png', data: PNG } }]);
  });

  it('takes a data: URL and trusts its bytes, not its declared type', async () => {
    const { ask, asked } = recordingAsk();
    const tool = createVisionAnalyzeTool({ ask, downloadTimeoutMs: 1000, guard: STRICT_GUARD });
    const result = await tool.run({ image: `data:image/png;base64,${GIF.toString('base64')}`, question: 'q' }, makeContext(dirs));
    expect(result).toEqual({ ok: true, content: 'a red square' });
    expect(asked).toEqual([{ question: 'q', image: { mediaType: 'image/gif', data: GIF } }]);
  });

  it.each([
    ['a file that is not an image', 'notes.png', '"notes.png" is not a PNG, JPEG, GIF or WebP image (checked by its first bytes)'],
    ['a path outside the workspace', '../outside.png', 'path "../outside.png" is outside the workspace'],
    ['a missing file', 'none.png', '"none.png": no such file'],
    ['another URL scheme', 'ftp://host/a.png', '"ftp://host/a.png": only http(s) URLs, data: URLs and file paths are read'],
  ])('refuses %s as a tool error, without asking the model', async (_name, image, error) => {
    await writeFile(join(dirs.workspace, 'notes.png'), '<html>not an image</html>');
    await writeFile(join(dirs.base, 'outside.png'), PNG);
    const { ask, asked } = recordingAsk();
    const tool = createVisionAnalyzeTool({ ask, downloadTimeoutMs: 1000, guard: STRICT_GUARD });
    expect(await tool.run({ image, question: 'q' }, makeContext(dirs))).toEqual({ ok: false, content: error });
    expect(asked).toEqual([]);
  });

  it('refuses every spelling of a loopback URL before connecting, and reads it with allow_private', async () => {
    const site = await startPageServer();
    try {
      site.serve('/cat.png', { kind: 'page', contentType: 'image/png', body: PNG });
      const { ask, asked } = recordingAsk();
      const strict = createVisionAnalyzeTool({ ask, downloadTimeoutMs: 1000, guard: STRICT_GUARD });
      for (const [host, error] of [...LOOPBACK_FORMS, ['localhost', 'refused: localhost is loopback']]) {
        expect(await strict.run({ image: `http://${host}:${site.port}/cat.png`, question: 'q' }, makeContext(dirs))).toEqual({ ok: false, content: error });
      }
      expect(site.requests).toEqual([]);
      expect(asked).toEqual([]);

      const open = createVisionAnalyzeTool({ ask, downloadTimeoutMs: 1000, guard: buildFetchGuard({ allowPrivate: true, allowCidrs: [] }, {}) });
      expect(await open.run({ image: `${site.url}/cat.png`, question: 'q' }, makeContext(dirs))).toEqual({ ok: true, content: 'a red square' });
      expect(site.requests.map((r) => r.path)).toEqual(['/cat.png']);
    } finally {
      await site.close();
    }
  });

  it('refuses a symlink that leads out of the workspace', async () => {
    await writeFile(join(dirs.base, 'secret.png'), PNG);
    await symlink(join(dirs.base, 'secret.png'), join(dirs.workspace, 'link.png'));
    const tool = createVisionAnalyzeTool({ ask: recordingAsk().ask, downloadTimeoutMs: 1000, guard: STRICT_GUARD });
    expect(await tool.run({ image: 'link.png', question: 'q' }, makeContext(dirs))).toEqual({
      ok: false,
      content: 'path "link.png" leads outside the workspace through a symbolic link',
    });
  });

  it('passes the vision model\'s failure back as a tool error', async () => {
    await writeFile(join(dirs.workspace, 'shot.png'), PNG);
    const tool = createVisionAnalyzeTool({ ask: recordingAsk({ ok: false, error: 'openai: no API key' }).ask, downloadTimeoutMs: 1000, guard: STRICT_GUARD });
    expect(await tool.run({ image: 'shot.png', question: 'q' }, makeContext(dirs))).toEqual({ ok: false, content: 'the vision model failed: openai: no API key' });
  });

  it('says so when no vision slot is wired', async () => {
    await writeFile(join(dirs.workspace, 'shot.png'), PNG);
    expect(await createVisionAnalyzeTool().run({ image: 'shot.png', question: 'q' }, makeContext(dirs))).toEqual({
      ok: false,
      content: 'the vision model failed: the vision slot is not available in this process',
    });
  });

  it('is read-only and asks for image and question', () => {
    const tool = createVisionAnalyzeTool();
    expect(tool.readOnly).toBe(true);
    expect(tool.definition.parameters).toMatchObject({ type: 'object', required: ['image', 'question'], additionalProperties: false });
  });
});
