// The lines of a file's unified patch that a review comment can sit on: the new side's added and
// context lines (GitHub and GitLab only accept a comment on a line shown in the diff). Pure.

export type DiffLine = {
  /** The line's text without its `+` or ` ` prefix. */
  readonly text: string;
  readonly kind: 'added' | 'context';
  /** A context line's number on the old side (GitLab's position needs it). */
  readonly oldLine?: number;
};

/** New-side line number → the line, for every added and context line of the patch. */
export type DiffLines = ReadonlyMap<number, DiffLine>;

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

export function diffLines(patch: string): DiffLines {
  const lines = new Map<number, DiffLine>();
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  for (const raw of patch.split('\n')) {
    const hunk = HUNK.exec(raw);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      inHunk = true;
      continue;
    }
    // Before the first hunk: a full diff's `diff --git`, `---` and `+++` headers.
    if (!inHunk) continue;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const mark = line[0];
    if (mark === '+') {
      lines.set(newLine, { text: line.slice(1), kind: 'added' });
      newLine += 1;
    } else if (mark === '-') {
      oldLine += 1;
    } else if (mark === ' ') {
      lines.set(newLine, { text: line.slice(1), kind: 'context', oldLine });
      oldLine += 1;
      newLine += 1;
    } else if (mark === '\\') {
      // "\ No newline at end of file": belongs to the line before.
    } else if (line.startsWith('diff --git')) {
      inHunk = false;
    }
  }
  return lines;
}

/** A line's text as the fingerprint and the outdated check compare it: whitespace collapsed and trimmed. */
export function normalizeLineText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
