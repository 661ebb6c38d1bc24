// Turns a webhook body into the payload object, or the exact message of the 400 answer
// (DECISIONS.md step 6). JSON, or GitHub's form encoding whose `payload` field holds the JSON.
import type { Buffer } from 'node:buffer';
import { TextDecoder } from 'node:util';

export type PayloadError =
  | 'Body is not valid UTF-8'
  | 'Missing payload field'
  | 'Malformed JSON'
  | 'Payload must be a JSON object'
  | 'Payload is nested too deeply';

export type ParsePayloadResult =
  /** `json`: the payload's JSON text as received (for the inbox; no re-serialising). */
  | { readonly ok: true; readonly payload: Record<string, unknown>; readonly json: string }
  | { readonly ok: false; readonly error: PayloadError };

/**
 * Deepest nesting accepted. Real payloads stay under ~10 levels; JSON.parse accepts far more
 * than JSON.stringify can print back (which throws past a few thousand), and the payload is stored
 * and rendered as JSON text, so a deeper body is refused here rather than failing later.
 */
export const MAX_PAYLOAD_DEPTH = 100;

const FORM = 'application/x-www-form-urlencoded';
// fatal: invalid bytes throw instead of becoming U+FFFD; a leading BOM is stripped (ignoreBOM false).
const utf8 = new TextDecoder('utf-8', { fatal: true });

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `text` holds more than `limit` opening brackets (stops counting at limit + 1). */
function bracketsOver(text: string, limit: number): boolean {
  let count = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      if (++count > limit) return true;
    }
  }
  return false;
}

const STRUCTURE = /["\\[\]{}]/g;

/** Iterative, so a hostile body cannot overflow the stack here either. */
function tooDeep(root: unknown): boolean {
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_PAYLOAD_DEPTH) return true;
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * Past this many brackets the depth is read from the text before parsing: JSON.parse would build
 * every level of a hostile body first (100,000 nested arrays cost tens of MB). Below it, parsing
 * then walking the value is cheaper (the text scan costs ~2× the walk), and costs little memory.
 */
const SCAN_TEXT_OVER_BRACKETS = 5_000;

/**
 * Whether the JSON text nests deeper than `limit`, read from the text itself (brackets inside
 * strings do not count). The regex jumps over ordinary characters natively. Malformed text may
 * give any answer: JSON.parse judges that.
 */
function nestedDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  STRUCTURE.lastIndex = 0;
  for (let match = STRUCTURE.exec(text); match !== null; match = STRUCTURE.exec(text)) {
    const char = match[0];
    if (inString) {
      if (char === '\\') STRUCTURE.lastIndex++; // the escaped character, whatever it is
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') {
      if (++depth > limit) return true;
    } else if (char === '}' || char === ']') depth--;
  }
  return false;
}

export function parsePayload(raw: Buffer, contentType: string | undefined): ParsePayloadResult {
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    return { ok: false, error: 'Body is not valid UTF-8' };
  }
  if (mediaType(contentType) === FORM) {
    const field = new URLSearchParams(text).get('payload');
    if (field === null) return { ok: false, error: 'Missing payload field' };
    text = field;
  }
  // Nesting deeper than the limit needs more brackets than the limit: most payloads skip both checks.
  const manyBrackets = bracketsOver(text, MAX_PAYLOAD_DEPTH);
  if (manyBrackets && bracketsOver(text, SCAN_TEXT_OVER_BRACKETS) && nestedDeeperThan(text, MAX_PAYLOAD_DEPTH)) {
    return { ok: false, error: 'Payload is nested too deeply' };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'Malformed JSON' };
  }
  if (!isObject(value)) return { ok: false, error: 'Payload must be a JSON object' };
  if (manyBrackets && tooDeep(value)) return { ok: false, error: 'Payload is nested too deeply' };
  return { ok: true, payload: value, json: text };
}
