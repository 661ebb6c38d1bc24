// Long answers are split to the platform's limit (DECISIONS § Chat platforms): at a paragraph
// break if one fits, else a line break, else a space, else hard at the limit. Parts keep their
// order and lose no text but the break they were split at. Pure; lengths in UTF-16 code units,
// as the platforms count them, without cutting a surrogate pair.

const BREAKS = ['\n\n', '\n', ' '] as const;

export function splitMessage(text: string, limit: number): string[] {
  if (limit < 2) throw new RangeError('the limit must be at least 2');
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > limit) {
    const cut = cutPoint(rest, limit);
    const part = rest.slice(0, cut.at).trimEnd();
    if (part.length > 0) parts.push(part);
    rest = rest.slice(cut.at + cut.skip).trimStart();
  }
  if (rest.length > 0 || parts.length === 0) parts.push(rest);
  return parts;
}

function cutPoint(text: string, limit: number): { at: number; skip: number } {
  const window = text.slice(0, limit + 1);
  for (const brk of BREAKS) {
    const at = window.lastIndexOf(brk, limit);
    // A break right at the start would make an empty part; look for a real one.
    if (at > 0 && at <= limit) return { at, skip: brk.length };
  }
  // No break at all: cut at the limit, but never between the halves of a surrogate pair.
  const code = text.charCodeAt(limit - 1);
  const at = code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
  return { at, skip: 0 };
}
