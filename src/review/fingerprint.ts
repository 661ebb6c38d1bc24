// A finding's fingerprint: what makes two findings "the same" across reviews of one PR (the file,
// the title, and the code line it is about, not its line number, which moves with every edit
// above it). Pure. DECISIONS § "PR review findings".
import { createHash } from 'node:crypto';
import { normalizeLineText } from './diff-lines.js';

export function findingFingerprint(path: string, title: string, lineText: string): string {
  return createHash('sha256').update(`${path}\n${title.toLowerCase()}\n${normalizeLineText(lineText)}`).digest('hex');
}

/** The hidden line in a finding's comment: the first 12 hex digits of its fingerprint. */
export function findingMarker(fingerprint: string): string {
  return `<!-- iris-finding:${fingerprint.slice(0, 12)} -->`;
}

const MARKER = /<!--\s*iris-finding:([0-9a-f]{12})\s*-->/;

/** The short fingerprint a comment's marker carries, or undefined. */
export function findingMarkerIn(body: string): string | undefined {
  return MARKER.exec(body)?.[1];
}
