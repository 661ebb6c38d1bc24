// The chat endpoints' request bodies: 400 with a message for anything else. Pure.

/** Longest message the page may send (the model's context is the real bound; this one keeps a paste sane). */
export const MAX_MESSAGE_CHARS = 20_000;

export type BodyCheck<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

function isObject(body: unknown): body is Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body);
}

/** `{"text": "..."}`: a message or a chat command. */
export function parseMessageBody(body: unknown): BodyCheck<string> {
  if (!isObject(body) || typeof body.text !== 'string') return { ok: false, error: 'the body must be a JSON object {"text": "<message>"}' };
  if (body.text.trim() === '') return { ok: false, error: 'text is empty: type a message' };
  if (body.text.length > MAX_MESSAGE_CHARS) return { ok: false, error: `text is ${body.text.length} characters; the limit is ${MAX_MESSAGE_CHARS}` };
  return { ok: true, value: body.text };
}

/** `{"decision": "approve" | "deny"}`. */
export function parseApprovalBody(body: unknown): BodyCheck<boolean> {
  if (!isObject(body) || (body.decision !== 'approve' && body.decision !== 'deny')) {
    return { ok: false, error: 'the body must be a JSON object {"decision": "approve" | "deny"}' };
  }
  return { ok: true, value: body.decision === 'approve' };
}
