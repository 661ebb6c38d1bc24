// The small glob dialect search_files filters with: `*` and `?` within one path segment, `**`
// across segments, `{a,b}` alternatives and `[abc]` classes. Node 20 has no stable glob matcher.

export type GlobResult = { readonly ok: true; readonly test: (path: string) => boolean } | { readonly ok: false; readonly error: string };

/**
 * A glob with a `/` is matched against the path relative to the searched folder; one without is
 * matched against the file name, so `*.ts` finds TypeScript files at any depth.
 */
export function compileGlob(glob: string): GlobResult {
  let source: string;
  try {
    source = globSource(glob);
    const regex = new RegExp(`^${source}$`);
    const byName = !glob.includes('/');
    return {
      ok: true,
      test: (path) => regex.test(byName ? path.slice(path.lastIndexOf('/') + 1) : path),
    };
  } catch {
    return { ok: false, error: `glob "${glob}" is not valid` };
  }
}

function globSource(glob: string): string {
  let out = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*' && glob[i + 1] === '*') {
      i++;
      if (glob[i + 1] === '/') {
        i++;
        out += '(?:[^/]*/)*';
      } else out += '.*';
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) out += '|';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) throw new Error('unclosed [');
      const inner = glob.slice(i + 1, end).replace(/\\/g, '\\\\');
      out += `[${inner.startsWith('!') ? `^${inner.slice(1)}` : inner}]`;
      i = end;
    } else out += c.replace(/[.+^$()|\\\]}]/g, '\\$&');
  }
  if (braces > 0) throw new Error('unclosed {');
  return out;
}
