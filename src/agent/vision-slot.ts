// The `vision` slot as the rest of the agent sees it: one question about one image, sent as a
// user message [question, image] through routing (never a client of its own), answered as text.
import type { Config } from '../config/schema.js';
import { AUX_TASKS } from '../domain/slots.js';
import type { TaskRequest } from '../routing/call-model.js';
import type { RoutingDeps, RoutingSnapshot } from '../routing/call-model.js';
import { callCounted, type UsageSink } from './slot-usage.js';
import type { AskVision } from './tools/vision/vision-analyze.js';
import type { SideJobText } from './tools/types.js';
import type { LoadedImage } from './tools/vision/load-image.js';

/** Enough for a detailed description; the slot's own max-token settings do not exist. */
const VISION_MAX_OUTPUT_TOKENS = 1500;

export function buildVisionRequest(question: string, image: LoadedImage): TaskRequest {
  return {
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: question },
          { type: 'image', mediaType: image.mediaType, data: image.data.toString('base64') },
        ],
      },
    ],
    maxOutputTokens: VISION_MAX_OUTPUT_TOKENS,
  };
}

/** The vision question as one call of `call` (the session's side-job, or callModel on fixed routes). */
export function visionAskVia(call: (request: TaskRequest) => Promise<SideJobText>): AskVision {
  return async (question, image, signal) => {
    const result = await call({ ...buildVisionRequest(question, image), ...(signal ? { signal } : {}) });
    if (!result.ok) return result;
    if (!result.text.trim()) return { ok: false, error: 'the vision model gave an empty answer' };
    return { ok: true, text: result.text };
  };
}

/** The vision slot outside a turn (an image in a chat message for a main model without sight), counted with no session. */
export function createVisionAsk(routes: RoutingSnapshot, routing: RoutingDeps, sink: UsageSink): AskVision {
  return visionAskVia(async (request) => {
    const result = await callCounted('vision', request, routes, routing, sink);
    return result.ok ? { ok: true, text: result.text } : { ok: false, error: result.error.message };
  });
}

/** What the vision slot is asked when an image in a chat message cannot go to the main model. */
export function describeForQuestion(userText: string): string {
  return (
    'The user sent this image with the message below to an assistant that cannot see images. ' +
    'Describe the image for that assistant: everything in it that bears on the message, and any text in it verbatim.\n\n' +
    `Message: ${userText}`
  );
}

const DEFAULT_DOWNLOAD_SECONDS = AUX_TASKS.find((t) => t.id === 'vision')?.downloadTimeout ?? 30;

/** `auxiliary.vision.download_timeout` in ms (the schema types it loosely: only vision has it). */
export function visionDownloadTimeoutMs(config: Readonly<Config>): number {
  const seconds = config.auxiliary.vision.download_timeout;
  return (typeof seconds === 'number' && seconds > 0 ? seconds : DEFAULT_DOWNLOAD_SECONDS) * 1000;
}
