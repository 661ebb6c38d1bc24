// Session ids: `s_` and 12 random characters of Crockford's base32 alphabet (lower case; no i, l,
// o or u to misread when typed back into `--session`). 60 random bits: collisions are not a
// concern for one user's sessions, and createSession refuses a taken id anyway.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const LENGTH = 12;

export const SESSION_ID_PATTERN = /^s_[0-9a-hjkmnp-tv-z]{12}$/;

/** `random(n)` returns n random bytes; each byte's low 5 bits pick a character (256 is a multiple of 32, so the pick is uniform). */
export function newSessionId(random: (size: number) => Uint8Array = randomBytes): string {
  const bytes = random(LENGTH);
  let id = 's_';
  for (let i = 0; i < LENGTH; i += 1) id += ALPHABET[(bytes[i] ?? 0) & 31];
  return id;
}
