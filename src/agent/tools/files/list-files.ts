// list_files: what is in a workspace folder, optionally all the way down.
import { stat } from 'node:fs/promises';
import * as z from 'zod/mini';
import { defineTool } from '../define-tool.js';
import type { ToolResult } from '../types.js';
import { resolveWorkspacePath } from '../workspace-path.js';
import { FILE_LIMITS, SKIPPED_FOLDERS } from './limits.js';
import { walk, type WalkEntry } from './walk.js';

const args = z.strictObject({
  path: z.optional(z.string().check(z.describe('Folder, relative to the workspace root. Default: the root.'))),
  recursive: z.optional(z.boolean().check(z.describe('List subfolders too. Default false.'))),
  max_entries: z.optional(
    z.int().check(
      z.minimum(1),
      z.maximum(FILE_LIMITS.listMaxEntries),
      z.describe(`Stop after this many entries. Default ${FILE_LIMITS.listDefaultEntries}.`),
    ),
  ),
});

export const listFilesTool = defineTool({
  name: 'list_files',
  description:
    'List a folder in the workspace, one path per line relative to the workspace root: folders end ' +
    'with "/", symlinks with "@" (not followed). Recursive listings do not descend into ' +
    `${[...SKIPPED_FOLDERS].join(', ')}.`,
  args,
  readOnly: true,
  async run({ path, recursive, max_entries }, context): Promise<ToolResult> {
    const resolved = await resolveWorkspacePath(context.workspaceRoot, path ?? '.');
    if (!resolved.ok) return { ok: false, content: resolved.error };
    const { absolute, relative, root } = resolved.path;
    const info = await stat(absolute).catch(() => undefined);
    if (!info) return { ok: false, content: `no folder at "${relative}"` };
    if (!info.isDirectory()) return { ok: false, content: `"${relative}" is a file, not a folder: use read_file` };

    const limit = max_entries ?? FILE_LIMITS.listDefaultEntries;
    const lines: string[] = [];
    let more = false;
    for await (const entry of walk(absolute, root, recursive ?? false)) {
      if (lines.length === limit) {
        more = true;
        break;
      }
      lines.push(formatEntry(entry));
    }
    if (lines.length === 0) return { ok: true, content: '(empty folder)' };
    if (more) {
      lines.push(
        `[stopped at ${limit} entries: list a subfolder` +
          (limit < FILE_LIMITS.listMaxEntries ? `, or pass max_entries (up to ${FILE_LIMITS.listMaxEntries})` : '') +
          ']',
      );
    }
    return { ok: true, content: lines.join('\n') };
  },
});

function formatEntry(entry: WalkEntry): string {
  const suffix = entry.kind === 'folder' ? '/' : entry.kind === 'symlink' ? '@' : '';
  return `${entry.relative}${suffix}${entry.skipped ? ` (${entry.skipped})` : ''}`;
}
