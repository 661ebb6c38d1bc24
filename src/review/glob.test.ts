import { describe, expect, it } from 'vitest';
import { compilePathGlob, matchesAny } from './glob.js';

const PATHS = ['yarn.lock', 'web/yarn.lock', 'src/a.ts', 'src/lib/b.ts', 'src/lib/b.test.ts', 'vendor/x/y.js', 'docs/vendor/z.md', 'Makefile', 'tools/Makefile', 'a?.ts', 'ab.ts'];

function matching(glob: string): string[] {
  const compiled = compilePathGlob(glob);
  if (!compiled.ok) throw new Error(compiled.error);
  return PATHS.filter((path) => compiled.matches(path));
}

describe('compilePathGlob', () => {
  it('matches a glob without a slash against the file name, at any depth', () => {
    expect(matching('*.lock')).toEqual(['yarn.lock', 'web/yarn.lock']);
    expect(matching('Makefile')).toEqual(['Makefile', 'tools/Makefile']);
  });

  it('matches a glob with a slash against the whole path: * within a segment, ** across', () => {
    expect(matching('src/*.ts')).toEqual(['src/a.ts']);
    expect(matching('src/**/*.ts')).toEqual(['src/a.ts', 'src/lib/b.ts', 'src/lib/b.test.ts']);
    expect(matching('**/*.test.ts')).toEqual(['src/lib/b.test.ts']);
    expect(matching('src/**')).toEqual(['src/a.ts', 'src/lib/b.ts', 'src/lib/b.test.ts']);
  });

  it('takes ? as one character of a name', () => {
    expect(matching('a?.ts')).toEqual(['a?.ts', 'ab.ts']);
  });

  it('reads a trailing slash as the whole folder, and a leading one as the root', () => {
    expect(matching('vendor/')).toEqual(['vendor/x/y.js']);
    expect(matching('/Makefile')).toEqual(['Makefile']);
    expect(matching('/vendor/**')).toEqual(['vendor/x/y.js']);
  });

  it('refuses an empty or broken glob', () => {
    expect(compilePathGlob('  ')).toEqual({ ok: false, error: 'glob "  " is empty' });
    expect(compilePathGlob('src/[ab')).toEqual({ ok: false, error: 'glob "src/[ab" is not valid' });
  });

  it('matchesAny: true when one of the globs matches', () => {
    expect(matchesAny(['*.lock', 'dist/**'], 'dist/app.js')).toBe(true);
    expect(matchesAny(['*.lock', 'dist/**'], 'src/app.js')).toBe(false);
    expect(matchesAny([], 'src/app.js')).toBe(false);
  });
});
