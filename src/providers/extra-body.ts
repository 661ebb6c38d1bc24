// What config's `extra_body` may add to a request. It exists for a provider's own knobs
// (temperature, top_p, reasoning effort, routing preferences, max token fields, …), merged last.
// The keys that carry the conversation and the protocol are the client's alone: a config that
// set `model`, `stream` or `messages` would silently change which model answers or break stream
// decoding, so those are never overridden — dropped here, and reported by routing (resolve.ts)
// as a warning that names them.

/** The request fields the three wire clients build themselves, across all three formats. */
export const CLIENT_OWNED_KEYS: ReadonlySet<string> = new Set([
  'model',
  'stream',
  'stream_options',
  'messages',
  'input',
  'instructions',
  'system',
  'tools',
  'store',
]);

export type ExtraBodySplit = { readonly allowed: Readonly<Record<string, unknown>>; readonly ignored: readonly string[] };

export function splitExtraBody(extra: Readonly<Record<string, unknown>> | undefined): ExtraBodySplit {
  const allowed: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(extra ?? {})) {
    if (CLIENT_OWNED_KEYS.has(key)) ignored.push(key);
    else allowed[key] = value;
  }
  return { allowed, ignored };
}

/** The wire body with `extra_body` merged in, the client's own fields kept as built. */
export function withExtraBody(body: Record<string, unknown>, extra: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
  return { ...body, ...splitExtraBody(extra).allowed };
}
