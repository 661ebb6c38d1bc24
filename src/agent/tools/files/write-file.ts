// write_file: the whole content of a file, written atomically (a reader, or a crash, never sees
// half a file), with missing parent folders created. A replaced file keeps its mode (a script
// stays executable).
import { lstat, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as z from 'zod/mini';
import { writeFileAtomic } from '../../../config/atomic-write.js';
import { defineTool } from '../define-tool.js';
import type { ToolResult } from '../types.js';
import { resolveWorkspacePath } from '../workspace-path.js';
import { formatBytes } from './text-file.js';

const NEW_FILE_MODE = 0o644;

const args = z.strictObject({
  path: z.string().check(z.minLength(1), z.describe('File path, relative to the workspace root.')),
  content: z.string().check(z.describe('The complete new content of the file.')),
});

export const writeFileTool = defineTool({
  name: 'write_file',
  description:
    'Create or replace a file in the workspace with the given content (the whole file). ' +
    'Missing parent folders are created.',
  args,
  readOnly: false,
  async run({ path, content }, context): Promise<ToolResult> {
    const resolved = await resolveWorkspacePath(context.workspaceRoot, path);
    if (!resolved.ok) return { ok: false, content: resolved.error };
    const { absolute, relative } = resolved.path;
    const existing = await lstat(absolute).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
    if (existing && !existing.isFile()) {
      return { ok: false, content: `"${relative}" exists and is not a regular file: not replaced` };
    }
    await mkdir(dirname(absolute), { recursive: true });
    await writeFileAtomic(absolute, content, existing ? existing.mode & 0o7777 : NEW_FILE_MODE);
    const size = formatBytes(Buffer.byteLength(content));
    return { ok: true, content: `${existing ? 'replaced' : 'created'} "${relative}" (${size})` };
  },
});
