// Reading a workspace file as text, or saying clearly why not: not a regular file, too large,
// binary. Binary means a NUL byte near the start (the heuristic git and grep use).
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

const SNIFF_BYTES = 8_000;

export type TextFile =
  | { readonly ok: true; readonly text: string; readonly bytes: number }
  | { readonly ok: false; readonly reason: 'not_found' | 'folder' | 'not_a_file' | 'binary' }
  | { readonly ok: false; readonly reason: 'too_large'; readonly bytes: number };

// O_NONBLOCK: opening a FIFO must not wait for a writer (regular files ignore it). O_NOFOLLOW:
// for workspace files the path check already resolved a last-component symlink away, so refusing
// one here keeps a link swapped in afterwards from being followed. Neither exists on Windows.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

export type ReadOptions = {
  /** Default true; false for files outside the workspace that may be symlinks (a SKILL.md). */
  readonly noFollow?: boolean;
};

export async function readTextFile(path: string, maxBytes: number, options: ReadOptions = {}): Promise<TextFile> {
  let handle;
  try {
    handle = await open(path, READ_FLAGS | (options.noFollow === false ? 0 : NO_FOLLOW));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, reason: 'not_found' };
    if (code === 'EISDIR') return { ok: false, reason: 'folder' };
    throw err;
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) return { ok: false, reason: 'folder' };
    // A FIFO or a device would block or never end.
    if (!info.isFile()) return { ok: false, reason: 'not_a_file' };
    if (info.size > maxBytes) return { ok: false, reason: 'too_large', bytes: info.size };
    const data = await handle.readFile();
    if (data.subarray(0, SNIFF_BYTES).includes(0)) return { ok: false, reason: 'binary' };
    const text = data.toString('utf8');
    return { ok: true, text: text.startsWith('\uFEFF') ? text.slice(1) : text, bytes: data.length };
  } finally {
    await handle.close();
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** Lines of a text, without the empty one after a final newline. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
