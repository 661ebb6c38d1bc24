// The GitHub PrDiffReader against the fake GitHub CLI (test/fakes/fake-gh.mjs, via IRIS_GH_BIN):
// what it returns, and exactly what gh was asked (argv from the fake's record).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addedPatch, writeGhPulls, type GhPullFile } from '../../test/helpers/pr-diff-fakes.js';
import { FILES_JQ, createGithubPrReads } from './github-pr-reads.js';
import type { PrRef } from './pr-forge.js';

const FAKE_GH = fileURLToPath(new URL('../../test/fakes/fake-gh.mjs', import.meta.url));
const PR: PrRef = { repo: 'octo/hello', number: 42 };
const BASE = 'b'.repeat(40);
const HEAD = 'c'.repeat(40);

describe.skipIf(process.platform === 'win32')('createGithubPrReads through the fake gh', () => {
  let dir: string;
  let recordPath: string;
  let pullsPath: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'iris-gh-reads-'));
    recordPath = join(dir, 'gh-calls.jsonl');
    pullsPath = join(dir, 'pulls.json');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const reads = (extra: Record<string, string> = {}) =>
    createGithubPrReads({ env: { PATH: process.env.PATH ?? '', HOME: dir, IRIS_GH_BIN: FAKE_GH, FAKE_GH_RECORD: recordPath, FAKE_GH_PULLS: pullsPath, ...extra } });
  const argvs = async () =>
    (await readFile(recordPath, 'utf8').catch(() => ''))
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { argv: string[] }).argv);

  async function seed(files: GhPullFile[], contents: Record<string, Record<string, string>> = {}, pull: { draft?: boolean; bot?: boolean } = {}) {
    await writeGhPulls(pullsPath, {
      pulls: {
        'octo/hello#42': {
          title: 'Fix the parser',
          draft: pull.draft ?? false,
          user: { login: pull.bot ? 'renovate[bot]' : 'mona', type: pull.bot ? 'Bot' : 'User' },
          head: { ref: 'fix', sha: HEAD },
          base: { ref: 'main', sha: BASE },
          files,
        },
      },
      contents: { 'octo/hello': contents },
    });
  }

  it('prFiles: the PR (shas, base branch, facts) and every page of its files', async () => {
    // 130 files: two pages of 100 and 30, read with --paginate.
    const many: GhPullFile[] = Array.from({ length: 127 }, (_, i) => ({ filename: `src/f${i}.ts`, status: 'modified', patch: addedPatch(2) }));
    await seed(
      [
        { filename: 'src/parser.ts', status: 'modified', patch: '@@ -1 +1 @@\n-a\n+b' },
        { filename: 'src/db/query.ts', status: 'renamed', previous_filename: 'src/query.ts', patch: '@@ -4 +4 @@\n-x\n+y' },
        { filename: 'logo.png', status: 'added' },
        ...many,
      ],
      {},
      { draft: true, bot: true },
    );
    const result = await reads().prFiles(PR);
    if (!result.ok) throw new Error(result.message);
    expect(result.value.files).toHaveLength(130);
    expect(result.value.files.slice(0, 4)).toEqual([
      { path: 'src/parser.ts', status: 'modified', patch: '@@ -1 +1 @@\n-a\n+b' },
      { path: 'src/db/query.ts', previousPath: 'src/query.ts', status: 'renamed', patch: '@@ -4 +4 @@\n-x\n+y' },
      { path: 'logo.png', status: 'added', patch: '' },
      { path: 'src/f0.ts', status: 'modified', patch: addedPatch(2) },
    ]);
    expect(result.value.files.at(-1)?.path).toBe('src/f126.ts');
    expect({ ...result.value, files: [] }).toEqual({ files: [], baseSha: BASE, headSha: HEAD, startSha: BASE, baseRef: 'main', facts: { draft: true, authorIsBot: true, title: 'Fix the parser' } });
    expect(await argvs()).toEqual([
      ['api', 'repos/octo/hello/pulls/42'],
      ['api', '--paginate', 'repos/octo/hello/pulls/42/files?per_page=100', '--jq', FILES_JQ],
    ]);
  });

  it("prFiles maps GitHub's other statuses onto the four", async () => {
    await seed([
      { filename: 'a', status: 'copied', patch: '' },
      { filename: 'b', status: 'changed', patch: '' },
      { filename: 'c', status: 'removed', patch: '@@ -1 +0,0 @@\n-x' },
    ]);
    const result = await reads().prFiles(PR);
    expect(result.ok && result.value.files.map((f) => f.status)).toEqual(['added', 'modified', 'removed']);
  });

  it('prFiles: a PR GitHub does not know is not_found, a signed-out gh unauthenticated', async () => {
    await seed([]);
    const missing = await reads().prFiles({ repo: 'octo/hello', number: 7 });
    expect(missing).toMatchObject({ ok: false, code: 'not_found', retryable: false });
    const signedOut = await reads({ FAKE_GH_MODE: 'unauthenticated' }).prFiles(PR);
    expect(signedOut).toMatchObject({ ok: false, code: 'unauthenticated', retryable: false });
  });

  it('readFile: the text at a ref, null when the file is not there', async () => {
    await seed([], { main: { '.iris/review.yaml': 'max_findings: 3\n', 'docs/my notes.md': 'ünïcode\n' }, fix: { '.iris/review.yaml': 'max_findings: 99\n' } });
    const gh = reads();
    expect(await gh.readFile(PR, '.iris/review.yaml', 'main')).toEqual({ ok: true, value: 'max_findings: 3\n' });
    expect(await gh.readFile(PR, 'docs/my notes.md', 'main')).toEqual({ ok: true, value: 'ünïcode\n' });
    expect(await gh.readFile(PR, 'AGENTS.md', 'main')).toEqual({ ok: true, value: null });
    expect(await argvs()).toEqual([
      ['api', 'repos/octo/hello/contents/.iris/review.yaml?ref=main'],
      ['api', 'repos/octo/hello/contents/docs/my%20notes.md?ref=main'],
      ['api', 'repos/octo/hello/contents/AGENTS.md?ref=main'],
    ]);
  });

  it('readFile refuses a path that could walk out of the contents endpoint, before gh runs', async () => {
    await seed([]);
    expect(await reads().readFile(PR, '../../issues', 'main')).toEqual({ ok: false, code: 'failed', retryable: false, message: 'not a file path in a repository: "../../issues"' });
    expect(await reads().readFile(PR, 'a.md', '')).toMatchObject({ ok: false, message: 'a ref is needed to read a file' });
    expect(await argvs()).toEqual([]);
  });
});
