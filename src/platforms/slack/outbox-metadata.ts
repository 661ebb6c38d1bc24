// Slack's half of "exactly once" for the outbox (DECISIONS "Slack metadata", "Chat delivery
// guarantees"): every post of an outbox row carries the row's key in message metadata, and a row
// that may have gone out already (its sender died mid-send, or a try failed without an answer) is
// looked for in the conversation first. Pure: the metadata to send, the lookup's parameters and
// reading its answer; the adapter does the calls.

export const OUTBOX_EVENT_TYPE = 'iris_outbox';

/** How many recent messages a lookup reads (one page; a row is retried within minutes of its post). */
export const LOOKUP_LIMIT = 200;

export function outboxMetadata(key: string): { readonly event_type: string; readonly event_payload: { readonly key: string } } {
  return { event_type: OUTBOX_EVENT_TYPE, event_payload: { key } };
}

/** The method and parameters that list where the message would be: the thread's replies, or the channel's history. */
export function lookupCall(chatId: string, threadId: string | null): { readonly method: string; readonly params: Readonly<Record<string, unknown>> } {
  return threadId === null
    ? { method: 'conversations.history', params: { channel: chatId, limit: LOOKUP_LIMIT, include_all_metadata: true } }
    : { method: 'conversations.replies', params: { channel: chatId, ts: threadId, limit: LOOKUP_LIMIT, include_all_metadata: true } };
}

/** The ts of the message posted for `key`, if the listing holds it. */
export function findPostedKey(body: unknown, key: string): string | undefined {
  const messages = (body as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages)) return undefined;
  for (const message of messages) {
    const m = message as { ts?: unknown; metadata?: { event_type?: unknown; event_payload?: { key?: unknown } } } | null;
    if (m?.metadata?.event_type === OUTBOX_EVENT_TYPE && m.metadata.event_payload?.key === key && typeof m.ts === 'string') return m.ts;
  }
  return undefined;
}
