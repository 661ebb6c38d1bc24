import { describe, expect, it } from 'vitest';
import { compileGlob } from './glob.js';

function matches(glob: string, paths: string[]): string[] {
  const compiled = compileGlob(glob);
  if (!compiled.ok) throw new Error(compiled.error);
  return paths.filter((path) => compiled.test(path));
}

const PATHS = ['a.ts', 'src/b.ts', 'src/lib/c.ts', 'src/lib/c.test.ts', 'docs/d.md', 'e.tsx', 'f[1].txt'];

describe('compileGlob', () => {
  it('matches a glob without a slash against the file name', () => {
    expect(matches('*.ts', PATHS)).toEqual(['a.ts', 'src/b.ts', 'src/lib/c.ts', 'src/lib/c.test.ts']);
    expect(matches('?.md', PATHS)).toEqual(['docs/d.md']);
    expect(matches('*.{md,tsx}', PATHS)).toEqual(['docs/d.md', 'e.tsx']);
    expect(matches('[ab].ts', PATHS)).toEqual(['a.ts', 'src/b.ts']);
    expect(matches('[!ab].ts', PATHS)).toEqual(['src/lib/c.ts']);
  });

  it('matches a glob with a slash against the whole path; * stays within a segment, ** crosses them', () => {
    expect(matches('src/*.ts', PATHS)).toEqual(['src/b.ts']);
    expect(matches('src/**/*.ts', PATHS)).toEqual(['src/b.ts', 'src/lib/c.ts', 'src/lib/c.test.ts']);
    expect(matches('**/*.test.ts', PATHS)).toEqual(['src/lib/c.test.ts']);
    expect(matches('src/**', PATHS)).toEqual(['src/b.ts', 'src/lib/c.ts', 'src/lib/c.test.ts']);
  });

  it('takes regex characters literally', () => {
    expect(matches('f(1).txt', ['f(1).txt', 'f1.txt'])).toEqual(['f(1).txt']);
    expect(matches('a+b.ts', ['a+b.ts', 'aab.ts'])).toEqual(['a+b.ts']);
  });

  it('rejects unclosed braces and classes', () => {
    expect(compileGlob('{a,b')).toEqual({ ok: false, error: 'glob "{a,b" is not valid' });
    expect(compileGlob('[ab')).toEqual({ ok: false, error: 'glob "[ab" is not valid' });
  });
});
