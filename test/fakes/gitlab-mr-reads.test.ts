// The fake GitLab's merge-request reads (gitlab-mr-reads.ts): GitLab's shapes, pages and 404s.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeGitlab, type FakeGitlab } from './gitlab-api.js';

let gitlab: FakeGitlab | null = null;
afterEach(async () => {
  await gitlab?.close();
  gitlab = null;
});

const REFS = { base_sha: 'b'.repeat(40), head_sha: 'c'.repeat(40), start_sha: 's'.repeat(40) };

async function get(path: string): Promise<{ status: number; headers: Headers; text: string }> {
  if (!gitlab) throw new Error('no fake');
  const response = await fetch(`${gitlab.url}${path}`, { headers: { 'PRIVATE-TOKEN': gitlab.token } });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe('fake GitLab: merge request reads', () => {
  it('the MR with diff_refs, its diffs in pages, and /changes', async () => {
    gitlab = await startFakeGitlab();
    gitlab.setMergeRequest('g/p', 3, {
      title: 'Fix',
      diff_refs: REFS,
      files: [
        { old_path: 'a.ts', new_path: 'a.ts', diff: '@@ -1 +1 @@\n-a\n+b\n' },
        { old_path: 'n.ts', new_path: 'n.ts', diff: '@@ -0,0 +1 @@\n+n\n', new_file: true },
        { old_path: 'o.ts', new_path: 'r.ts', diff: '', renamed_file: true },
      ],
    });
    const mr = await get('/projects/g%2Fp/merge_requests/3');
    expect(JSON.parse(mr.text)).toMatchObject({ iid: 3, title: 'Fix', draft: false, target_branch: 'main', source_branch: 'fix', sha: REFS.head_sha, diff_refs: REFS });
    const first = await get('/projects/g%2Fp/merge_requests/3/diffs?per_page=2&page=1');
    expect(JSON.parse(first.text)).toEqual([
      { old_path: 'a.ts', new_path: 'a.ts', a_mode: '100644', b_mode: '100644', diff: '@@ -1 +1 @@\n-a\n+b\n', new_file: false, renamed_file: false, deleted_file: false, generated_file: false },
      { old_path: 'n.ts', new_path: 'n.ts', a_mode: '0', b_mode: '100644', diff: '@@ -0,0 +1 @@\n+n\n', new_file: true, renamed_file: false, deleted_file: false, generated_file: false },
    ]);
    expect([first.headers.get('x-next-page'), first.headers.get('x-total'), first.headers.get('x-total-pages')]).toEqual(['2', '3', '2']);
    const second = await get('/projects/g%2Fp/merge_requests/3/diffs?per_page=2&page=2');
    expect((JSON.parse(second.text) as Array<{ new_path: string }>).map((f) => f.new_path)).toEqual(['r.ts']);
    expect(second.headers.get('x-next-page')).toBe('');
    const changes = await get('/projects/g%2Fp/merge_requests/3/changes');
    expect((JSON.parse(changes.text) as { changes: unknown[] }).changes).toHaveLength(3);
    expect(await get('/projects/g%2Fp/merge_requests/4')).toMatchObject({ status: 404, text: '{"message":"404 Not found"}' });
  });

  it('repository files raw: the text at a ref, 404 when absent, 400 without a ref', async () => {
    gitlab = await startFakeGitlab();
    gitlab.setFile('g/p', 'main', '.iris/review.yaml', 'max_findings: 3\n');
    const file = await get('/projects/g%2Fp/repository/files/.iris%2Freview.yaml/raw?ref=main');
    expect([file.status, file.headers.get('content-type'), file.text]).toEqual([200, 'text/plain; charset=utf-8', 'max_findings: 3\n']);
    expect(await get('/projects/g%2Fp/repository/files/.iris%2Freview.yaml/raw?ref=fix')).toMatchObject({ status: 404, text: '{"message":"404 File Not Found"}' });
    expect(await get('/projects/g%2Fp/repository/files/.iris%2Freview.yaml/raw')).toMatchObject({ status: 400, text: '{"error":"ref is missing"}' });
  });
});
