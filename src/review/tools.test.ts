import { describe, expect, it } from 'vitest';
import { fileDiffText } from './diff-budget.js';
import type { ReviewFile } from './diff-reader.js';
import { pageOf, prReviewTools } from './tools.js';
import type { ToolContext } from '../agent/tools/types.js';

const files: ReviewFile[] = [
  { path: 'src/a.ts', status: 'modified', patch: '@@ -1,2 +1,2 @@\n x\n-a\n+b' },
  { path: 'src/new.ts', previousPath: 'src/old.ts', status: 'renamed', patch: '' },
];
// The tools read no context: they work on the files they were made with.
const context = {} as ToolContext;

function tool(name: string, maxTokens = 1000) {
  const found = prReviewTools(files, maxTokens).find((t) => t.definition.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

describe('prReviewTools', () => {
  it('are read-only and named pr_files and pr_file_diff', () => {
    const tools = prReviewTools(files, 1000);
    expect(tools.map((t) => [t.definition.name, t.readOnly])).toEqual([
      ['pr_files', true],
      ['pr_file_diff', true],
    ]);
  });

  it('pr_files lists the files with status and counts', async () => {
    expect(await tool('pr_files').run({}, context)).toEqual({ ok: true, content: '2 files:\nsrc/a.ts\tmodified\t+1 -1\nsrc/new.ts (from src/old.ts)\trenamed\t+0 -0\t(no text diff)' });
    expect(await prReviewTools([], 1000)[0]!.run({}, context)).toEqual({ ok: true, content: 'No changed files to review.' });
  });

  it('pr_file_diff gives one file of the review, and refuses any other path', async () => {
    expect(await tool('pr_file_diff').run({ path: 'src/a.ts' }, context)).toEqual({ ok: true, content: fileDiffText(files[0]!) });
    expect(await tool('pr_file_diff').run({ path: 'dist/ignored.js' }, context)).toEqual({ ok: false, content: '"dist/ignored.js" is not one of the files under review (pr_files lists them)' });
    expect(await tool('pr_file_diff').run({}, context)).toEqual({ ok: false, content: 'invalid arguments for pr_file_diff: path is required' });
  });

  it('pr_file_diff answers within the budget, page by page', async () => {
    const long: ReviewFile = { path: 'big.ts', status: 'added', patch: `@@ -0,0 +1,50 @@\n${Array.from({ length: 50 }, (_, i) => `+line ${i}`).join('\n')}` };
    const diff = prReviewTools([long], 25).find((t) => t.definition.name === 'pr_file_diff')!;
    const first = await diff.run({ path: 'big.ts' }, context);
    const text = fileDiffText(long);
    expect(first.content).toBe(pageOf(text, 1, 100));
    expect(first.content.split('\n').at(-1)).toBe('(lines 1-7 of 55; ask again with from_line: 8 for the rest)');
    const page = first.content.slice(0, first.content.lastIndexOf('\n'));
    expect(page.length).toBeLessThanOrEqual(100);
    expect((await diff.run({ path: 'big.ts', from_line: 55 }, context)).content).toBe('+line 49\n(lines 55-55 of 55)');
    expect((await diff.run({ path: 'big.ts', from_line: 56 }, context)).content).toBe('The diff has 55 lines; from_line 56 is past its end.');
  });
});
