// Every path a tool touches is resolved inside the workspace root, twice: by its text (no `..` or
// absolute path out of it) and by where it really leads (no symlink out of it), using realpath on
// the path or, for a file not yet written, on its nearest existing parent.
//
// The check is made before the tool acts, so a process that swaps a folder for a symlink in
// between could still win that race. The tools narrow it where it is cheap: a file is read without
// following a symlink in its last component, and a write replaces the path by rename, which never
// follows one.
import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

export type WorkspacePath = {
  /** The real path (symlinks resolved). */
  readonly absolute: string;
  /** Relative to the workspace root, `.` for the root itself: what the model is shown. */
  readonly relative: string;
  /** The workspace root's real path. */
  readonly root: string;
};

export type WorkspacePathResult =
  | { readonly ok: true; readonly path: WorkspacePath }
  | { readonly ok: false; readonly error: string };

export function isInside(base: string, path: string): boolean {
  const rel = relative(base, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

export async function resolveWorkspacePath(root: string, input: string): Promise<WorkspacePathResult> {
  if (input.includes('\0')) return { ok: false, error: 'a path cannot contain a NUL character' };
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return { ok: false, error: `the workspace root ${root} is not available` };
  }
  const outside = { ok: false, error: `path "${input}" is outside the workspace` } as const;
  let lexical: string;
  if (isAbsolute(input)) {
    // An absolute path may be written against the root as configured or as resolved.
    const given = resolve(root);
    const path = resolve(input);
    if (isInside(realRoot, path)) lexical = path;
    else if (isInside(given, path)) lexical = join(realRoot, relative(given, path));
    else return outside;
  } else {
    lexical = resolve(realRoot, input);
    if (!isInside(realRoot, lexical)) return outside;
  }
  const real = await realpathAllowingMissing(lexical);
  if (real.kind === 'dangling') {
    return { ok: false, error: `path "${input}" goes through a symbolic link whose target does not exist` };
  }
  if (!isInside(realRoot, real.path)) {
    return { ok: false, error: `path "${input}" leads outside the workspace through a symbolic link` };
  }
  return { ok: true, path: { absolute: real.path, relative: relative(realRoot, real.path) || '.', root: realRoot } };
}

type RealPath = { readonly kind: 'real'; readonly path: string } | { readonly kind: 'dangling' };

/** realpath of the nearest existing ancestor, with the missing rest appended. */
async function realpathAllowingMissing(path: string): Promise<RealPath> {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    try {
      return { kind: 'real', path: join(await realpath(current), ...missing.reverse()) };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
      // A dangling link cannot be checked: where a write through it would land is unknown here.
      const info = await lstat(current).catch(() => undefined);
      if (info?.isSymbolicLink()) return { kind: 'dangling' };
      const parent = dirname(current);
      if (parent === current) throw err;
      missing.push(basename(current));
      current = parent;
    }
  }
}
