// The agent tools of a PR review run: `pr_files` (the changed files, with status and +/− counts)
// and `pr_file_diff {path}` (one file's diff). Read-only, over the files Iris fetched before the run
// (gather.ts, after `ignore`): no shell, no network, nothing the rules left out. A run of a PR
// route is given them through the runtime's `extraTools`.
import * as z from 'zod/mini';
import { defineTool } from '../agent/tools/define-tool.js';
import type { Tool } from '../agent/tools/types.js';
import { CHARS_PER_TOKEN, fileDiffText } from './diff-budget.js';
import { patchCounts, type ReviewFile } from './diff-reader.js';

export const PR_REVIEW_TOOL_NAMES = ['pr_files', 'pr_file_diff'] as const;

/** `maxTokens`: the review's `max_diff_tokens`, the cap of one pr_file_diff answer too. */
export function prReviewTools(files: readonly ReviewFile[], maxTokens: number): readonly Tool[] {
  const maxChars = Math.max(1, Math.floor(maxTokens)) * CHARS_PER_TOKEN;
  const byPath = new Map(files.map((file) => [file.path, file]));

  const prFiles = defineTool({
    name: 'pr_files',
    description: "The pull request's changed files (the ones under review): path, status (added, modified, removed, renamed) and lines added and removed.",
    args: z.strictObject({}),
    readOnly: true,
    async run() {
      if (files.length === 0) return { ok: true, content: 'No changed files to review.' };
      const lines = files.map((file) => {
        const { added, removed } = patchCounts(file.patch);
        const from = file.previousPath === undefined ? '' : ` (from ${file.previousPath})`;
        return `${file.path}${from}\t${file.status}\t+${added} -${removed}${file.patch === '' ? '\t(no text diff)' : ''}`;
      });
      return { ok: true, content: `${files.length} file${files.length === 1 ? '' : 's'}:\n${lines.join('\n')}` };
    },
  });

  const prFileDiff = defineTool({
    name: 'pr_file_diff',
    description: `One changed file's diff (unified, with its hunk headers), as in the review prompt but whole. At most ${maxChars} characters an answer: a longer diff is shown in parts, from the line \`from_line\` of the diff on.`,
    args: z.strictObject({
      path: z.string().check(z.minLength(1)),
      from_line: z.optional(z.int().check(z.gte(1))),
    }),
    readOnly: true,
    async run(args) {
      const file = byPath.get(args.path);
      if (!file) return { ok: false, content: `${JSON.stringify(args.path)} is not one of the files under review (pr_files lists them)` };
      return { ok: true, content: pageOf(fileDiffText(file), args.from_line ?? 1, maxChars) };
    },
  });

  return [prFiles, prFileDiff];
}

/** Whole lines of `text` from line `from` (1-based) within `maxChars`, saying where to go on. */
export function pageOf(text: string, from: number, maxChars: number): string {
  const lines = text.split('\n');
  if (from > lines.length) return `The diff has ${lines.length} lines; from_line ${from} is past its end.`;
  if (from === 1 && text.length <= maxChars) return text;
  const shown: string[] = [];
  let size = 0;
  for (let at = from - 1; at < lines.length; at += 1) {
    const line = lines[at] as string;
    // One line longer than a whole page is cut rather than never shown.
    const piece = shown.length === 0 && line.length > maxChars ? line.slice(0, maxChars) : line;
    if (shown.length > 0 && size + piece.length + 1 > maxChars) break;
    shown.push(piece);
    size += piece.length + 1;
  }
  const last = from + shown.length - 1;
  const more = last < lines.length ? `\n(lines ${from}-${last} of ${lines.length}; ask again with from_line: ${last + 1} for the rest)` : `\n(lines ${from}-${last} of ${lines.length})`;
  return `${shown.join('\n')}${more}`;
}
