// read_file: a text file with line numbers, a window of lines at a time.
import * as z from 'zod/mini';
import { defineTool } from '../define-tool.js';
import type { ToolResult } from '../types.js';
import { resolveWorkspacePath } from '../workspace-path.js';
import { FILE_LIMITS } from './limits.js';
import { formatBytes, readTextFile, splitLines } from './text-file.js';

const args = z.strictObject({
  path: z.string().check(z.minLength(1), z.describe('File path, relative to the workspace root.')),
  offset_line: z.optional(z.int().check(z.minimum(1), z.describe('First line to return (1-based). Default 1.'))),
  max_lines: z.optional(
    z.int().check(
      z.minimum(1),
      z.maximum(FILE_LIMITS.readMaxLines),
      z.describe(`How many lines to return. Default ${FILE_LIMITS.readDefaultLines}.`),
    ),
  ),
});

export const readFileTool = defineTool({
  name: 'read_file',
  description:
    `Read a text file in the workspace. Lines come numbered ("  12\\t…"); use offset_line and max_lines ` +
    `to page through long files. Binary files and files over ${formatBytes(FILE_LIMITS.readMaxBytes)} are refused.`,
  args,
  readOnly: true,
  async run({ path, offset_line, max_lines }, context): Promise<ToolResult> {
    const resolved = await resolveWorkspacePath(context.workspaceRoot, path);
    if (!resolved.ok) return { ok: false, content: resolved.error };
    const { absolute, relative } = resolved.path;
    const file = await readTextFile(absolute, FILE_LIMITS.readMaxBytes);
    if (!file.ok) {
      switch (file.reason) {
        case 'not_found':
          return { ok: false, content: `no file at "${relative}"` };
        case 'folder':
          return { ok: false, content: `"${relative}" is a folder: use list_files` };
        case 'not_a_file':
          return { ok: false, content: `"${relative}" is not a regular file` };
        case 'binary':
          return { ok: false, content: `"${relative}" looks binary (it contains NUL bytes): not shown` };
        case 'too_large':
          return {
            ok: false,
            content:
              `"${relative}" is ${formatBytes(file.bytes)}, over the ${formatBytes(FILE_LIMITS.readMaxBytes)} read_file reads: ` +
              'use search_files, or the terminal (head, tail, sed -n, grep) to read parts of it',
          };
      }
    }
    return { ok: true, content: numberLines(splitLines(file.text), offset_line ?? 1, max_lines ?? FILE_LIMITS.readDefaultLines) };
  },
});

/** `cat -n` style, within the output cap, with a footer saying how to read on. */
export function numberLines(lines: readonly string[], offsetLine: number, maxLines: number): string {
  if (lines.length === 0) return '(empty file)';
  if (offsetLine > lines.length) {
    return `(the file has ${lines.length} line${lines.length === 1 ? '' : 's'}; offset_line ${offsetLine} is past the end)`;
  }
  const last = Math.min(lines.length, offsetLine - 1 + maxLines);
  const out: string[] = [];
  let bytes = 0;
  let shown = offsetLine - 1;
  for (let n = offsetLine; n <= last; n++) {
    const line = lines[n - 1] as string;
    const text = line.length > FILE_LIMITS.lineMaxChars ? `${line.slice(0, FILE_LIMITS.lineMaxChars)} … [line cut]` : line;
    const entry = `${String(n).padStart(6)}\t${text}`;
    bytes += Buffer.byteLength(entry) + 1;
    if (bytes > FILE_LIMITS.outputMaxBytes && out.length > 0) break;
    out.push(entry);
    shown = n;
  }
  if (shown < lines.length) {
    out.push(`[lines ${offsetLine}-${shown} of ${lines.length}; read on with offset_line: ${shown + 1}]`);
  }
  return out.join('\n');
}
