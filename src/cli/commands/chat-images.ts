// `iris chat --image`: the images named on the command line, read once, then joined to the first
// message. A path is the user's own (relative to the cwd, no workspace rule: they typed it); a URL
// is fetched like vision_analyze fetches one: through the fetch guard, with the vision slot's
// download_timeout and the cap (a URL pasted into a chat is as much a stranger's as a model's).
import { resolve } from 'node:path';
import { composeImageMessage, type AttachedImage } from '../../agent/image-message.js';
import type { AgentRuntime } from '../../agent/runtime.js';
import { loadImage } from '../../agent/tools/vision/load-image.js';
import type { ContentPart } from '../../domain/messages.js';
import { takesImages } from '../../providers/catalog.js';
import { CliFailure } from '../exit-codes.js';

export async function loadChatImages(sources: readonly string[], vision: AgentRuntime['vision']): Promise<AttachedImage[]> {
  const images: AttachedImage[] = [];
  for (const source of sources) {
    const loaded = await loadImage(source, {
      downloadTimeoutMs: vision.downloadTimeoutMs,
      guard: vision.guard,
      resolvePath: async (path) => ({ ok: true, absolute: resolve(path) }),
    });
    if (!loaded.ok) throw new CliFailure('invalid_value', `--image ${source}: ${loaded.error}`);
    images.push({ source, image: loaded.image });
  }
  return images;
}

/** The first message with its images; notes (the vision slot stepped in) go to `note`. */
export async function withImages(
  text: string,
  images: readonly AttachedImage[],
  main: { readonly provider: string; readonly model: string },
  vision: AgentRuntime['vision'],
  note: (line: string) => void,
): Promise<string | readonly ContentPart[]> {
  const message = await composeImageMessage(text, images, {
    mainTakesImages: takesImages(main.provider, main.model),
    mainLabel: `${main.provider} · ${main.model}`,
    describe: (question, image) => vision.ask(question, image),
  });
  if (!message.ok) throw new CliFailure('io_error', message.error);
  for (const line of message.notes) note(line);
  return message.content;
}
