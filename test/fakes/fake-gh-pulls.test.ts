// The fake gh's pull-request reads (fake-gh-pulls.mjs): GitHub's shapes, pages and 404s, through
// the executable as Iris runs it.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeGhPulls } from '../helpers/pr-diff-fakes.js';

const FAKE_GH = fileURLToPath(new URL('./fake-gh.mjs', import.meta.url));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'iris-fake-gh-pulls-'));
  await writeGhPulls(join(dir, 'pulls.json'), {
    pulls: {
      'octo/hello#42': {
        title: 'Fix',
        draft: true,
        user: { login: 'dependabot[bot]', type: 'Bot' },
        head: { ref: 'fix', sha: 'c'.repeat(40) },
        base: { ref: 'main', sha: 'b'.repeat(40) },
        files: [
          { filename: 'a.ts', status: 'modified', patch: '@@ -1,2 +1,2 @@\n x\n-a\n+b\n+c' },
          { filename: 'b.png', status: 'added' },
          { filename: 'new.ts', status: 'renamed', previous_filename: 'old.ts', patch: '' },
        ],
      },
    },
    contents: { 'octo/hello': { main: { '.iris/review.yaml': 'max_findings: 3\n' } } },
  });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function gh(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(FAKE_GH, [...args], { env: { PATH: process.env.PATH ?? '', FAKE_GH_RECORD: join(dir, 'calls.jsonl'), FAKE_GH_PULLS: join(dir, 'pulls.json') }, timeout: 10_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

describe('fake gh: pull request reads', () => {
  it('pulls/<n>: the PR with its shas, branches, draft and author type', async () => {
    const run = await gh(['api', 'repos/octo/hello/pulls/42']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      number: 42,
      state: 'open',
      draft: true,
      user: { login: 'dependabot[bot]', type: 'Bot' },
      head: { ref: 'fix', sha: 'c'.repeat(40) },
      base: { ref: 'main', sha: 'b'.repeat(40) },
      additions: 2,
      deletions: 1,
      changed_files: 3,
    });
    expect(await gh(['api', 'repos/octo/hello/pulls/43'])).toEqual({ code: 1, stdout: '', stderr: 'gh: Not Found (HTTP 404)\n' });
  });

  it('pulls/<n>/files: pages of per_page, every page with --paginate, and the jq filter Iris uses', async () => {
    const page = await gh(['api', 'repos/octo/hello/pulls/42/files?per_page=2']);
    const files = JSON.parse(page.stdout) as Array<Record<string, unknown>>;
    expect(files.map((f) => f.filename)).toEqual(['a.ts', 'b.png']);
    expect(files[0]).toMatchObject({ filename: 'a.ts', status: 'modified', additions: 2, deletions: 1, changes: 3, patch: '@@ -1,2 +1,2 @@\n x\n-a\n+b\n+c' });
    expect(files[1]).not.toHaveProperty('patch');
    const all = await gh(['api', '--paginate', 'repos/octo/hello/pulls/42/files?per_page=2', '--jq', '.[] | {filename, status, patch, previous_filename}']);
    expect(all.stdout).toBe(
      [
        '{"filename":"a.ts","patch":"@@ -1,2 +1,2 @@\\n x\\n-a\\n+b\\n+c","previous_filename":null,"status":"modified"}',
        '{"filename":"b.png","patch":null,"previous_filename":null,"status":"added"}',
        '{"filename":"new.ts","patch":"","previous_filename":"old.ts","status":"renamed"}',
        '',
      ].join('\n'),
    );
  });

  it('contents/<path>?ref=: base64 JSON at that ref; 404s as GitHub words them', async () => {
    const run = await gh(['api', 'repos/octo/hello/contents/.iris/review.yaml?ref=main']);
    const body = JSON.parse(run.stdout) as { type: string; encoding: string; content: string; path: string };
    expect(body).toMatchObject({ type: 'file', encoding: 'base64', path: '.iris/review.yaml' });
    expect(Buffer.from(body.content, 'base64').toString('utf8')).toBe('max_findings: 3\n');
    expect(await gh(['api', 'repos/octo/hello/contents/AGENTS.md?ref=main'])).toMatchObject({ code: 1, stderr: 'gh: Not Found (HTTP 404)\n' });
    expect(await gh(['api', 'repos/octo/hello/contents/.iris/review.yaml?ref=nope'])).toMatchObject({ code: 1, stderr: 'gh: No commit found for the ref nope (HTTP 404)\n' });
  });
});
