// Images a user attaches to a message. A main model that takes images gets them as content parts;
// one that does not (or that the catalog does not know to) gets the vision slot's description of
// each as text instead. Either way the image reaches the answer: it is never silently dropped.
import type { ContentPart } from '../domain/messages.js';
import type { LoadedImage } from './tools/vision/load-image.js';
import type { VisionAnswer } from './tools/vision/vision-analyze.js';
import { describeForQuestion } from './vision-slot.js';

export type AttachedImage = {
  /** As the user named it (a path or a URL), for notes and the description's label. */
  readonly source: string;
  readonly image: LoadedImage;
};

export type ImageMessage =
  | { readonly ok: true; readonly content: string | readonly ContentPart[]; readonly notes: readonly string[] }
  | { readonly ok: false; readonly error: string };

export type ImageMessageDeps = {
  readonly mainTakesImages: boolean;
  /** Names the main model in notes: `provider · model`. */
  readonly mainLabel: string;
  readonly describe: (question: string, image: LoadedImage) => Promise<VisionAnswer>;
};

export function imagePart(image: LoadedImage): ContentPart {
  return { type: 'image', mediaType: image.mediaType, data: image.data.toString('base64') };
}

export async function composeImageMessage(text: string, images: readonly AttachedImage[], deps: ImageMessageDeps): Promise<ImageMessage> {
  if (images.length === 0) return { ok: true, content: text, notes: [] };
  if (deps.mainTakesImages) {
    return { ok: true, content: [{ type: 'text', text }, ...images.map((a) => imagePart(a.image))], notes: [] };
  }
  const described: string[] = [];
  const notes: string[] = [];
  for (const [index, attached] of images.entries()) {
    const answer = await deps.describe(describeForQuestion(text), attached.image);
    if (!answer.ok) return { ok: false, error: `image ${attached.source}: the vision slot could not describe it: ${answer.error}` };
    described.push(`[image ${index + 1} (${attached.source}), described by the vision model]\n${answer.text.trim()}`);
    notes.push(`image ${attached.source}: ${deps.mainLabel} does not take images; the vision slot's description was added to the message`);
  }
  return { ok: true, content: `${text}\n\n${described.join('\n\n')}`, notes };
}
