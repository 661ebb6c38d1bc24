// Walking a workspace folder in a stable order (sorted, depth first), without following symlinks:
// a link is listed, never entered, so a walk can neither loop nor leave the workspace.
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { SKIPPED_FOLDERS } from './limits.js';

export type WalkEntry = {
  readonly absolute: string;
  /** Relative to the workspace root. */
  readonly relative: string;
  readonly kind: 'folder' | 'file' | 'symlink' | 'other';
  /** Set on a folder whose contents the walk did not show, and why. */
  readonly skipped?: 'not descended into' | 'not readable';
};

function kindOf(entry: Dirent): WalkEntry['kind'] {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isDirectory()) return 'folder';
  if (entry.isFile()) return 'file';
  return 'other';
}

async function readFolder(folder: string): Promise<Dirent[] | undefined> {
  try {
    const entries = await readdir(folder, { withFileTypes: true });
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return undefined;
  }
}

/** The entries under `folder` (not `folder` itself); throws only when `folder` cannot be read. */
export async function* walk(folder: string, root: string, recursive: boolean): AsyncGenerator<WalkEntry> {
  const entries = await readdir(folder, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  yield* walkEntries(folder, entries, root, recursive);
}

async function* walkEntries(
  folder: string,
  entries: readonly Dirent[],
  root: string,
  recursive: boolean,
): AsyncGenerator<WalkEntry> {
  for (const entry of entries) {
    const absolute = join(folder, entry.name);
    const base = { absolute, relative: relative(root, absolute), kind: kindOf(entry) };
    if (base.kind !== 'folder' || !recursive) {
      yield base;
      continue;
    }
    if (SKIPPED_FOLDERS.has(entry.name)) {
      yield { ...base, skipped: 'not descended into' };
      continue;
    }
    const children = await readFolder(absolute);
    if (!children) {
      yield { ...base, skipped: 'not readable' };
      continue;
    }
    yield base;
    yield* walkEntries(absolute, children, root, recursive);
  }
}
