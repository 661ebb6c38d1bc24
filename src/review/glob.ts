// The paths of `.iris/review.yaml` (`ignore`, `path_instructions`) as globs: the dialect of the
// files tools (src/agent/tools/files/glob.ts: `*` and `?` within a segment, `**` across them), read
// the way .gitignore-minded users write them: a glob without a `/` names files at any depth
// (`*.lock`), one with a `/` is matched against the whole path from the repository's root, a
// leading `/` only anchors, and a trailing `/` means everything under that folder (`vendor/`).
import { compileGlob } from '../agent/tools/files/glob.js';

export type PathGlob = { readonly ok: true; readonly matches: (path: string) => boolean } | { readonly ok: false; readonly error: string };

export function compilePathGlob(glob: string): PathGlob {
  const trimmed = glob.trim();
  if (trimmed === '' || trimmed === '/') return { ok: false, error: `glob ${JSON.stringify(glob)} is empty` };
  const anchored = trimmed.startsWith('/') ? trimmed.slice(1) : trimmed;
  // `vendor/` is `vendor/**`; a leading `/` keeps a one-segment glob at the root (`/Makefile`).
  const source = anchored.endsWith('/') ? `${anchored}**` : anchored;
  const rooted = trimmed.startsWith('/') && !source.includes('/');
  const compiled = compileGlob(source);
  if (!compiled.ok) return { ok: false, error: `glob ${JSON.stringify(glob)} is not valid` };
  return { ok: true, matches: (path) => (rooted ? !path.includes('/') && compiled.test(path) : compiled.test(path)) };
}

/** True when any of the (already checked) globs matches the path. */
export function matchesAny(globs: readonly string[], path: string): boolean {
  return globs.some((glob) => {
    const compiled = compilePathGlob(glob);
    return compiled.ok && compiled.matches(path);
  });
}
