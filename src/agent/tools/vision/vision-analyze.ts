// vision_analyze: a question about one image, answered by the `vision` slot's model. The tool only
// finds and checks the image; asking the slot is injected, so the tool never builds a model client
// and its tests need no network.
import { visionAskVia } from '../../vision-slot.js';
import * as z from 'zod/mini';
import { STRICT_GUARD, type FetchGuard } from '../../../net/fetch-guard.js';
import { defineTool } from '../define-tool.js';
import type { Tool, ToolResult } from '../types.js';
import { resolveWorkspacePath } from '../workspace-path.js';
import { loadImage, megabytes, IMAGE_MAX_BYTES, type LoadedImage } from './load-image.js';

export type VisionAnswer = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: string };

/** Asks the vision slot one question about one image. */
export type AskVision = (question: string, image: LoadedImage, signal?: AbortSignal) => Promise<VisionAnswer>;

export type VisionToolOptions = {
  readonly ask: AskVision;
  /** The vision slot's download_timeout, in ms. */
  readonly downloadTimeoutMs: number;
  /** Where an image URL may lead (tools.web) and through which proxy. */
  readonly guard: FetchGuard;
};

/** Where no slot is wired (a toolset listing in a test): the tool says so instead of pretending. */
const NOT_WIRED: VisionToolOptions = {
  ask: async () => ({ ok: false, error: 'the vision slot is not available in this process' }),
  downloadTimeoutMs: 30_000,
  guard: STRICT_GUARD,
};

const args = z.strictObject({
  image: z
    .string()
    .check(z.minLength(1), z.describe('The image: an http(s) URL, a data: URL, or a file path relative to the workspace root.')),
  question: z.string().check(z.minLength(1), z.describe('What to find out about the image.')),
});

export function createVisionAnalyzeTool(options: VisionToolOptions = NOT_WIRED): Tool {
  return defineTool({
    name: 'vision_analyze',
    description:
      'Look at an image and answer a question about it (what it shows, text in it, a chart\'s values, a UI\'s state). ' +
      `PNG, JPEG, GIF or WebP, up to ${megabytes(IMAGE_MAX_BYTES)} MB.`,
    args,
    readOnly: true,
    async run({ image, question }, context): Promise<ToolResult> {
      const loaded = await loadImage(image, {
        downloadTimeoutMs: options.downloadTimeoutMs,
        guard: options.guard,
        ...(context.signal ? { signal: context.signal } : {}),
        resolvePath: async (path) => {
          const resolved = await resolveWorkspacePath(context.workspaceRoot, path);
          return resolved.ok ? { ok: true, absolute: resolved.path.absolute } : resolved;
        },
      });
      if (!loaded.ok) return { ok: false, content: loaded.error };
      // Through the session when there is one, so the call's usage is the session's.
      const sideJob = context.sideJob;
      const ask = sideJob ? visionAskVia((request) => sideJob('vision', request)) : options.ask;
      const answer = await ask(question, loaded.image, context.signal);
      if (!answer.ok) return { ok: false, content: `the vision model failed: ${answer.error}` };
      return { ok: true, content: answer.text };
    },
  });
}
