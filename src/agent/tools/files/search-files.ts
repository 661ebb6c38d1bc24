// search_files: lines matching a regular expression, as `path:line: text`, like grep -rn.
import { stat } from 'node:fs/promises';
import { relative as relativePath, sep } from 'node:path';
import * as z from 'zod/mini';
import { defineTool } from '../define-tool.js';
import type { ToolResult } from '../types.js';
import { resolveWorkspacePath } from '../workspace-path.js';
import { compileGlob } from './glob.js';
import { FILE_LIMITS, SKIPPED_FOLDERS } from './limits.js';
import { createLineMatcher, type LineMatcher } from './line-matcher.js';
import { formatBytes, readTextFile, splitLines } from './text-file.js';
import { walk } from './walk.js';
import { errorMessage } from '../../../domain/error-message.js';

const BATCH_BYTES = 512 * 1024;
const BATCH_FILES = 256;

const args = z.strictObject({
  pattern: z.string().check(z.minLength(1), z.describe('A JavaScript regular expression, matched against each line.')),
  path: z.optional(z.string().check(z.describe('Folder or file to search, relative to the workspace root. Default: the root.'))),
  glob: z.optional(
    z.string().check(
      z.describe('Only files matching this glob: without "/" it matches the file name ("*.ts"), with "/" the path below `path` ("src/**/*.test.ts").'),
    ),
  ),
  ignore_case: z.optional(z.boolean().check(z.describe('Match case-insensitively. Default false.'))),
  max_results: z.optional(
    z.int().check(
      z.minimum(1),
      z.maximum(FILE_LIMITS.searchMaxResults),
      z.describe(`Stop after this many matching lines. Default ${FILE_LIMITS.searchDefaultResults}.`),
    ),
  ),
});

type Pending = { relative: string; text: string };

type Search = {
  readonly matcher: LineMatcher;
  readonly limit: number;
  readonly deadline: number;
  readonly results: string[];
  outOfTime: boolean;
  filesSearched: number;
};

export const searchFilesTool = defineTool({
  name: 'search_files',
  description:
    'Search the text files of the workspace for lines matching a regular expression; returns ' +
    '"path:line: text" per match. Binary files, files over ' +
    `${formatBytes(FILE_LIMITS.searchFileMaxBytes)} and the folders ${[...SKIPPED_FOLDERS].join(', ')} are skipped.`,
  args,
  readOnly: true,
  async run({ pattern, path, glob, ignore_case, max_results }, context): Promise<ToolResult> {
    const resolved = await resolveWorkspacePath(context.workspaceRoot, path ?? '.');
    if (!resolved.ok) return { ok: false, content: resolved.error };
    const { absolute, relative, root } = resolved.path;
    const info = await stat(absolute).catch(() => undefined);
    if (!info) return { ok: false, content: `nothing at "${relative}"` };
    const flags = ignore_case ? 'i' : '';
    try {
      new RegExp(pattern, flags);
    } catch (err) {
      return { ok: false, content: `pattern is not a valid regular expression: ${errorMessage(err)}` };
    }
    const filter = glob === undefined ? undefined : compileGlob(glob);
    if (filter && !filter.ok) return { ok: false, content: filter.error };

    const search: Search = {
      matcher: createLineMatcher(pattern, flags),
      limit: max_results ?? FILE_LIMITS.searchDefaultResults,
      deadline: Date.now() + FILE_LIMITS.searchBudgetMs,
      results: [],
      outOfTime: false,
      filesSearched: 0,
    };
    const skipped = { large: 0, binary: 0 };
    let batch: Pending[] = [];
    let batchBytes = 0;
    const done = (): boolean => search.results.length >= search.limit || search.outOfTime;

    const candidates = info.isDirectory() ? files(absolute, root) : single(absolute, root);
    for await (const file of candidates) {
      if (done()) break;
      if (Date.now() > search.deadline) {
        search.outOfTime = true;
        break;
      }
      if (filter?.ok && !filter.test(toSlashes(relativePath(absolute, file.absolute)) || file.relative)) continue;
      const text = await readTextFile(file.absolute, FILE_LIMITS.searchFileMaxBytes);
      if (!text.ok) {
        if (text.reason === 'too_large') skipped.large++;
        if (text.reason === 'binary') skipped.binary++;
        continue;
      }
      batch.push({ relative: file.relative, text: text.text });
      batchBytes += text.bytes;
      if (batchBytes >= BATCH_BYTES || batch.length >= BATCH_FILES) {
        matchBatch(search, batch);
        batch = [];
        batchBytes = 0;
      }
    }
    if (!done()) matchBatch(search, batch);
    return { ok: true, content: summarize(search, skipped, pattern) };
  },
});

async function* files(folder: string, root: string): AsyncGenerator<{ absolute: string; relative: string }> {
  for await (const entry of walk(folder, root, true)) {
    if (entry.kind === 'file') yield { absolute: entry.absolute, relative: toSlashes(entry.relative) };
  }
}

async function* single(file: string, root: string): AsyncGenerator<{ absolute: string; relative: string }> {
  yield { absolute: file, relative: toSlashes(relativePath(root, file)) };
}

function toSlashes(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

function matchBatch(search: Search, batch: readonly Pending[]): void {
  if (batch.length === 0) return;
  const hits = search.matcher.match(
    batch.map((file) => file.text),
    search.limit - search.results.length,
    search.deadline - Date.now(),
  );
  if (!hits) {
    search.outOfTime = true;
    return;
  }
  search.filesSearched += batch.length;
  batch.forEach((file, i) => {
    const at = hits[i] ?? [];
    if (at.length === 0) return;
    const lines = splitLines(file.text);
    for (const index of at) {
      const line = lines[index] ?? '';
      const text = line.length > FILE_LIMITS.searchLineMaxChars ? `${line.slice(0, FILE_LIMITS.searchLineMaxChars)} …` : line;
      search.results.push(`${file.relative}:${index + 1}: ${text}`);
    }
  });
}

function summarize(search: Search, skipped: { large: number; binary: number }, pattern: string): string {
  const lines = [...search.results];
  if (lines.length === 0) {
    lines.push(`no matches for /${pattern}/ in ${search.filesSearched} file${search.filesSearched === 1 ? '' : 's'}`);
  }
  if (search.results.length >= search.limit) {
    lines.push(`[stopped at ${search.limit} matches: narrow the pattern, path or glob, or raise max_results]`);
  }
  if (search.outOfTime) {
    lines.push(
      `[search stopped after ${FILE_LIMITS.searchBudgetMs / 1000} s, results are partial: ` +
        'narrow the path or glob, or simplify the pattern]',
    );
  }
  const notes: string[] = [];
  if (skipped.binary > 0) notes.push(`${skipped.binary} binary`);
  if (skipped.large > 0) notes.push(`${skipped.large} over ${formatBytes(FILE_LIMITS.searchFileMaxBytes)}`);
  if (notes.length > 0) lines.push(`[skipped files: ${notes.join(', ')}]`);
  return lines.join('\n');
}
