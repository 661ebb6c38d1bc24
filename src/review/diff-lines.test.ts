import { describe, expect, it } from 'vitest';
import { diffLines, normalizeLineText } from './diff-lines.js';

const PATCH = [
  '@@ -1,4 +1,5 @@',
  ' import x from "x";',
  '-const a = 1;',
  '+const a = 2;',
  '+const b = 3;',
  ' ',
  ' export { a };',
  '@@ -20,2 +21,3 @@ function tail() {',
  '   return 1;',
  '+  // added',
  ' }',
  '\\ No newline at end of file',
].join('\n');

describe('diffLines', () => {
  it('maps each new-side line of the hunks to its text and kind, with the old line of a context line', () => {
    expect([...diffLines(PATCH)]).toEqual([
      [1, { text: 'import x from "x";', kind: 'context', oldLine: 1 }],
      [2, { text: 'const a = 2;', kind: 'added' }],
      [3, { text: 'const b = 3;', kind: 'added' }],
      [4, { text: '', kind: 'context', oldLine: 3 }],
      [5, { text: 'export { a };', kind: 'context', oldLine: 4 }],
      [21, { text: '  return 1;', kind: 'context', oldLine: 20 }],
      [22, { text: '  // added', kind: 'added' }],
      [23, { text: '}', kind: 'context', oldLine: 21 }],
    ]);
  });

  it('skips the headers of a full git diff and reads a new file', () => {
    const full = ['diff --git a/n.ts b/n.ts', 'new file mode 100644', '--- /dev/null', '+++ b/n.ts', '@@ -0,0 +1,2 @@', '+one', '+two', ''].join('\n');
    expect([...diffLines(full)]).toEqual([
      [1, { text: 'one', kind: 'added' }],
      [2, { text: 'two', kind: 'added' }],
    ]);
  });

  it('an empty patch (a binary file, a pure rename) has no lines', () => {
    expect(diffLines('').size).toBe(0);
  });
});

describe('normalizeLineText', () => {
  it('collapses whitespace and trims', () => {
    expect(normalizeLineText('\t  const  a =\t1;  ')).toBe('const a = 1;');
  });
});
