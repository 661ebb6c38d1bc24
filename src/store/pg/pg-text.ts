// Text as PostgreSQL can hold it (DECISIONS "Text on both stores"). PostgreSQL's text refuses
// U+0000, which SQLite stores and the agent must see, so on the way in U+0000 becomes an escape
// and on the way out the escape becomes U+0000 again. The escape starts with U+FDD0, a Unicode
// noncharacter (set aside for a program's internal use, never meaningful in interchange); an
// U+FDD0 that was really sent is itself escaped, so every string comes back exactly as written.
// Text without either character (nearly all) is stored unchanged, so rows written before this
// codec read back as they were, and an escaped value compares, sorts and prefixes like its source.
//
// Lone UTF-16 surrogates are the only other strings PostgreSQL could not take; the driver (like
// SQLite's) turns them into U+FFFD before they reach either store, so both stores agree on them.

const ESCAPE = '\uFDD0';
const NUL = '\u0000';
/** What follows ESCAPE: which character it stands for. */
const ESCAPED_NUL = '0';
const ESCAPED_ESCAPE = ESCAPE;

const NEEDS_ESCAPE = new RegExp(`[${NUL}${ESCAPE}]`, 'g');
const ESCAPED = /\uFDD0([0\uFDD0])/g;

/** The text to store on PostgreSQL for `text`. */
export function escapePgText(text: string): string {
  if (text.indexOf(NUL) === -1 && text.indexOf(ESCAPE) === -1) return text;
  return text.replace(NEEDS_ESCAPE, (ch) => ESCAPE + (ch === NUL ? ESCAPED_NUL : ESCAPED_ESCAPE));
}

/** The text that was written, from what PostgreSQL holds. */
export function restorePgText(stored: string): string {
  if (stored.indexOf(ESCAPE) === -1) return stored;
  return stored.replace(ESCAPED, (_match, ch: string) => (ch === ESCAPED_NUL ? NUL : ESCAPE));
}

/** A query parameter as stored: strings escaped, arrays (of strings, for unnest) element by element. */
export function escapePgParam(value: unknown): unknown {
  if (typeof value === 'string') return escapePgText(value);
  if (Array.isArray(value)) return value.map(escapePgParam);
  return value;
}
