// A Message as stored: its whole JSON text. Checked on the way in (what is written can be read
// back) and on the way out (persisted JSON is a boundary). Keys this version does not know are
// kept, so a message written by a newer Iris survives a read and rewrite by this one.
import * as z from 'zod/mini';
import type { Message } from '../domain/messages.js';
import { errorMessage } from '../domain/error-message.js';

const contentPart = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text'), text: z.string() }),
  z.looseObject({ type: z.literal('image'), mediaType: z.string(), data: z.string() }),
  z.looseObject({ type: z.literal('image_url'), url: z.string() }),
]);

const toolCall = z.looseObject({
  id: z.string(),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  invalidArguments: z.optional(z.string()),
});

const messageSchema = z.discriminatedUnion('role', [
  z.looseObject({ role: z.literal('user'), content: z.union([z.string(), z.array(contentPart)]) }),
  z.looseObject({ role: z.literal('assistant'), content: z.string(), toolCalls: z.optional(z.array(toolCall)) }),
  z.looseObject({
    role: z.literal('tool'),
    toolCallId: z.string(),
    name: z.string(),
    content: z.string(),
    isError: z.optional(z.boolean()),
  }),
]);

export type Decoded = { ok: true; message: Message } | { ok: false; reason: string };

function describeIssue(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'not a message';
  const at = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `${at}${issue.message}`;
}

function check(value: unknown): Decoded {
  const parsed = messageSchema.safeParse(value);
  // The value itself, not zod's copy: what was stored is what comes back.
  return parsed.success ? { ok: true, message: value as Message } : { ok: false, reason: describeIssue(parsed.error) };
}

/** The JSON text to store, or why the message cannot be stored (a BigInt, a cycle, a bad shape). */
export function encodeMessage(message: Message): { ok: true; json: string } | { ok: false; reason: string } {
  let json: string | undefined;
  try {
    json = JSON.stringify(message);
  } catch (err) {
    return { ok: false, reason: errorMessage(err) };
  }
  if (json === undefined) return { ok: false, reason: 'not a message' };
  const checked = check(JSON.parse(json));
  return checked.ok ? { ok: true, json } : checked;
}

export function decodeMessage(json: string): Decoded {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    return { ok: false, reason: errorMessage(err) };
  }
  return check(value);
}
