// The diff text the model is given, within `max_diff_tokens` (DECISIONS: 4 characters a token;
// the prompt and AGENTS.md are not counted). Pure. When the whole diff does not fit, the largest
// files are cut to their hunk headers (`@@ -a,b +c,d @@` lines) first, one at a time, until it fits;
// if the headers alone are still too much, files are left out, largest first. Never silently:
// `cut` names every file cut or left out and `note` says so in words for the prompt.
import { printablePath, type ReviewFile } from './diff-reader.js';

export const CHARS_PER_TOKEN = 4;

export type BudgetedDiff = {
  readonly text: string;
  /** Every file not given whole: cut to its hunk headers or left out. */
  readonly cut: readonly string[];
  readonly note?: string;
};

type Entry = { readonly file: ReviewFile; readonly index: number; text: string; state: 'whole' | 'headers' | 'dropped' };

/** One file as the model reads it: a git-style header, then its hunks. */
export function fileDiffText(file: ReviewFile, patch: string = file.patch): string {
  const from = file.status === 'added' ? '/dev/null' : `a/${file.previousPath ?? file.path}`;
  const to = file.status === 'removed' ? '/dev/null' : `b/${file.path}`;
  const header = [`diff --git a/${file.previousPath ?? file.path} b/${file.path}`];
  if (file.status === 'added') header.push('new file');
  if (file.status === 'removed') header.push('deleted file');
  if (file.status === 'renamed' && file.previousPath !== undefined) header.push(`rename from ${file.previousPath}`, `rename to ${file.path}`);
  header.push(`--- ${from}`, `+++ ${to}`);
  const body = patch === '' ? '(no text diff: a binary file, or too large for the code host to show)' : patch.replace(/\n+$/, '');
  return `${header.join('\n')}\n${body}`;
}

/** The hunk headers of a patch, with what was left out of each. */
export function hunkHeaders(patch: string): string {
  const lines = patch.split('\n');
  const headers = lines.filter((line) => line.startsWith('@@'));
  const hidden = lines.length - headers.length;
  return `${headers.join('\n')}${headers.length > 0 ? '\n' : ''}(cut to hunk headers: ${hidden} line${hidden === 1 ? '' : 's'} not shown)`;
}

export function budgetDiff(files: readonly ReviewFile[], maxTokens: number): BudgetedDiff {
  const maxChars = Math.max(0, Math.floor(maxTokens)) * CHARS_PER_TOKEN;
  const entries: Entry[] = files.map((file, index) => ({ file, index, text: fileDiffText(file), state: 'whole' }));
  // The files are joined by one blank line: each separator is two characters.
  const size = () => entries.reduce((sum, entry) => (entry.state === 'dropped' ? sum : sum + entry.text.length + 2), 0);
  let total = size();
  const largestFirst = (state: Entry['state']) => entries.filter((entry) => entry.state === state).sort((a, b) => b.text.length - a.text.length || a.index - b.index);
  for (const entry of largestFirst('whole')) {
    if (total <= maxChars) break;
    if (entry.file.patch === '') continue;
    const before = entry.text.length;
    entry.text = fileDiffText(entry.file, hunkHeaders(entry.file.patch));
    entry.state = 'headers';
    total -= before - entry.text.length;
  }
  for (const entry of [...largestFirst('headers'), ...largestFirst('whole')]) {
    if (total <= maxChars) break;
    entry.state = 'dropped';
    total -= entry.text.length + 2;
  }
  const kept = entries.filter((entry) => entry.state !== 'dropped');
  const text = kept.map((entry) => entry.text).join('\n\n');
  const headers = entries.filter((entry) => entry.state === 'headers').map((entry) => printablePath(entry.file.path));
  const dropped = entries.filter((entry) => entry.state === 'dropped').map((entry) => printablePath(entry.file.path));
  const cut = entries.filter((entry) => entry.state !== 'whole').map((entry) => entry.file.path);
  if (cut.length === 0) return { text, cut };
  const parts = [`The diff is larger than its budget of ${maxTokens} tokens (${maxChars} characters).`];
  if (headers.length > 0) parts.push(`cut to hunk headers: ${headers.join(', ')} (ask pr_file_diff for the full diff).`);
  if (dropped.length > 0) parts.push(`left out: ${dropped.join(', ')} (ask pr_files for the list and pr_file_diff for each file's diff).`);
  return { text, cut, note: parts.join('\n') };
}
