// The GitLab PrDiffReader against the fake GitLab API (test/fakes/gitlab-api.ts): what it returns
// and exactly what went on the wire.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeGitlab, type FakeGitlab } from '../../test/fakes/gitlab-api.js';
import { addedPatch } from '../../test/helpers/pr-diff-fakes.js';
import { createGitlabPrReads } from './gitlab-pr-reads.js';

const PROJECT = 'group/sub/project';
const ENCODED = 'group%2Fsub%2Fproject';
const pr = { repo: PROJECT, number: 7 };
const REFS = { base_sha: 'b'.repeat(40), head_sha: 'c'.repeat(40), start_sha: 's'.repeat(40) };

let fake: FakeGitlab | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

async function setup() {
  fake = await startFakeGitlab();
  fake.addProject(PROJECT);
  return { gitlab: fake, reads: createGitlabPrReads({ apiBase: `${fake.url}/`, token: fake.token }) };
}

const wire = (gitlab: FakeGitlab) => gitlab.requests.map((r) => ({ method: r.method, path: r.path, query: r.query, token: r.headers['private-token'] }));

describe('createGitlabPrReads', () => {
  it('prFiles: diff_refs, the target branch, the facts, and every page of diffs', async () => {
    const { gitlab, reads } = await setup();
    const many = Array.from({ length: 120 }, (_, i) => ({ old_path: `src/f${i}.ts`, new_path: `src/f${i}.ts`, diff: addedPatch(1) }));
    gitlab.setMergeRequest(PROJECT, 7, {
      title: 'Draft: parser',
      draft: true,
      author: { id: 9, username: 'project_12_bot_0f3a9c' },
      target_branch: 'develop',
      diff_refs: REFS,
      files: [
        { old_path: 'src/parser.ts', new_path: 'src/parser.ts', diff: '@@ -1 +1 @@\n-a\n+b\n' },
        { old_path: 'src/new.ts', new_path: 'src/new.ts', diff: '@@ -0,0 +1 @@\n+x\n', new_file: true },
        { old_path: 'src/gone.ts', new_path: 'src/gone.ts', diff: '@@ -1 +0,0 @@\n-x\n', deleted_file: true },
        { old_path: 'src/query.ts', new_path: 'src/db/query.ts', diff: '', renamed_file: true },
        { old_path: 'logo.png', new_path: 'logo.png', diff: 'Binary files a/logo.png and b/logo.png differ\n' },
        ...many,
      ],
    });
    const result = await reads.prFiles(pr);
    if (!result.ok) throw new Error(result.message);
    expect(result.value.files.slice(0, 5)).toEqual([
      { path: 'src/parser.ts', status: 'modified', patch: '@@ -1 +1 @@\n-a\n+b\n' },
      { path: 'src/new.ts', status: 'added', patch: '@@ -0,0 +1 @@\n+x\n' },
      { path: 'src/gone.ts', status: 'removed', patch: '@@ -1 +0,0 @@\n-x\n' },
      { path: 'src/db/query.ts', previousPath: 'src/query.ts', status: 'renamed', patch: '' },
      { path: 'logo.png', status: 'modified', patch: '' },
    ]);
    expect(result.value.files).toHaveLength(125);
    expect({ ...result.value, files: [] }).toEqual({
      files: [],
      baseSha: REFS.base_sha,
      headSha: REFS.head_sha,
      startSha: REFS.start_sha,
      baseRef: 'develop',
      facts: { draft: true, authorIsBot: true, title: 'Draft: parser' },
    });
    expect(wire(gitlab)).toEqual([
      { method: 'GET', path: `/api/v4/projects/${ENCODED}/merge_requests/7`, query: {}, token: gitlab.token },
      { method: 'GET', path: `/api/v4/projects/${ENCODED}/merge_requests/7/diffs`, query: { per_page: '100', page: '1' }, token: gitlab.token },
      { method: 'GET', path: `/api/v4/projects/${ENCODED}/merge_requests/7/diffs`, query: { per_page: '100', page: '2' }, token: gitlab.token },
    ]);
  });

  it('prFiles: a human author is no bot; an MR without diff_refs yet is a retryable failure', async () => {
    const { gitlab, reads } = await setup();
    gitlab.setMergeRequest(PROJECT, 7, { title: 'Fix', author: { id: 3, username: 'alice' }, diff_refs: REFS, files: [] });
    const human = await reads.prFiles(pr);
    expect(human.ok && human.value.facts).toEqual({ draft: false, authorIsBot: false, title: 'Fix' });
    gitlab.setMergeRequest(PROJECT, 7, { title: 'Fix', diff_refs: null, files: [] });
    expect(await reads.prFiles(pr)).toEqual({ ok: false, code: 'failed', retryable: true, message: 'GitLab prFiles: group/sub/project!7 has no diff yet (GitLab is still preparing it)' });
  });

  it('prFiles: an unknown MR is not_found; a bad token unauthenticated, without the token in the message', async () => {
    const { gitlab } = await setup();
    const missing = await createGitlabPrReads({ apiBase: gitlab.url, token: gitlab.token }).prFiles({ repo: PROJECT, number: 99 });
    expect(missing).toEqual({ ok: false, code: 'not_found', retryable: false, message: 'GitLab prFiles: HTTP 404: 404 Not found' });
    const refused = await createGitlabPrReads({ apiBase: gitlab.url, token: 'glpat-wrong-token-000000' }).prFiles(pr);
    expect(refused).toEqual({ ok: false, code: 'unauthenticated', retryable: false, message: 'GitLab prFiles: HTTP 401: 401 Unauthorized (check GITLAB_TOKEN)' });
    gitlab.failNext(1, 502);
    expect(await createGitlabPrReads({ apiBase: gitlab.url, token: gitlab.token }).prFiles(pr)).toMatchObject({ ok: false, code: 'failed', retryable: true });
  });

  it('readFile: the raw text at a ref, null when absent, the path one encoded segment', async () => {
    const { gitlab, reads } = await setup();
    gitlab.setFile(PROJECT, 'main', '.iris/review.yaml', 'max_findings: 3\n');
    gitlab.setFile(PROJECT, 'fix', '.iris/review.yaml', 'max_findings: 99\n');
    expect(await reads.readFile(pr, '.iris/review.yaml', 'main')).toEqual({ ok: true, value: 'max_findings: 3\n' });
    expect(await reads.readFile(pr, 'AGENTS.md', 'main')).toEqual({ ok: true, value: null });
    expect(await reads.readFile(pr, '.iris/review.yaml', 'release/1.0')).toEqual({ ok: true, value: null });
    expect(wire(gitlab)).toEqual([
      { method: 'GET', path: `/api/v4/projects/${ENCODED}/repository/files/.iris%2Freview.yaml/raw`, query: { ref: 'main' }, token: gitlab.token },
      { method: 'GET', path: `/api/v4/projects/${ENCODED}/repository/files/AGENTS.md/raw`, query: { ref: 'main' }, token: gitlab.token },
      { method: 'GET', path: `/api/v4/projects/${ENCODED}/repository/files/.iris%2Freview.yaml/raw`, query: { ref: 'release/1.0' }, token: gitlab.token },
    ]);
    expect(await reads.readFile(pr, 'a/../b', 'main')).toEqual({ ok: false, code: 'failed', retryable: false, message: 'not a file path in a repository: "a/../b"' });
    expect(gitlab.requests).toHaveLength(3);
  });
});
