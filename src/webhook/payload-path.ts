// Looks up a dotted path such as `pull_request.user.login` or `commits.0.id` in a payload. Shared by
// filters and prompt templates, so `field` in a filter and `{field}` in a prompt mean the same.
// Only own properties count: `{constructor}` must not find Object.prototype.constructor.

export type PathLookup = { readonly found: true; readonly value: unknown } | { readonly found: false };

/** One or more segments of letters, digits and `_`, joined by single dots. */
export const PAYLOAD_PATH = /^[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*$/;

/** An array index as JavaScript writes it: `0`, `7`, `12`, never `07`. */
const INDEX = /^(?:0|[1-9][0-9]*)$/;

const NOT_FOUND: PathLookup = Object.freeze({ found: false });

/**
 * Digit segments index arrays; on an object every segment, digits included, is a key. A path that
 * breaks the rules, or runs into a string, number, boolean or null before its end, finds nothing.
 */
export function lookupPath(payload: unknown, path: string): PathLookup {
  if (!PAYLOAD_PATH.test(path)) return NOT_FOUND;
  let current: unknown = payload;
  for (const segment of path.split('.')) {
    if (Array.isArray(current)) {
      if (!INDEX.test(segment)) return NOT_FOUND;
      const index = Number(segment);
      if (index >= current.length) return NOT_FOUND;
      current = current[index];
    } else if (typeof current === 'object' && current !== null && Object.hasOwn(current, segment)) {
      current = (current as Record<string, unknown>)[segment];
    } else {
      return NOT_FOUND;
    }
  }
  return { found: true, value: current };
}
