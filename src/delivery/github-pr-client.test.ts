// The GitHub PrForgeClient against the fake GitHub CLI (test/fakes/fake-gh.mjs, via IRIS_GH_BIN):
// what each method returns, and exactly what gh was given (argv and stdin, from the fake's record).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FORGE_FAILURE_CODES, createGithubPrClient } from './github-pr-client.js';
import type { PrForgeClient, PrRef } from './pr-forge.js';
import { stringContaining } from '../../test/helpers/documents.js';

const FAKE_GH = fileURLToPath(new URL('../../test/fakes/fake-gh.mjs', import.meta.url));
const PR: PrRef = { repo: 'octo/hello', number: 42 };
const COMMENTS = 'repos/octo/hello/issues/42/comments';
const url = (id: number) => `https://github.com/octo/hello/pull/42#issuecomment-${id}`;
// a ← b ← c, and a ← d: c and d diverged at a.
const [A, B, C, D] = ['a'.repeat(40), 'b'.repeat(40), 'c'.repeat(40), 'd'.repeat(40)];

type Recorded = { argv: string[]; body: string | null };

describe('FORGE_FAILURE_CODES', () => {
  it('maps every classifyGhRun code', () => {
    expect(FORGE_FAILURE_CODES).toEqual({
      gh_missing: 'missing_tool',
      gh_unauthenticated: 'unauthenticated',
      repo_not_found: 'not_found',
      pr_not_found: 'not_found',
      not_found: 'not_found',
      timeout: 'timeout',
      cancelled: 'cancelled',
      killed: 'failed',
      failed: 'failed',
    });
  });
});

describe.skipIf(process.platform === 'win32')('createGithubPrClient through the fake gh', () => {
  let dir: string;
  let recordPath: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'iris-gh-pr-'));
    recordPath = join(dir, 'gh-calls.jsonl');
    await writeFile(join(dir, 'commits.json'), JSON.stringify({ [A]: null, [B]: A, [C]: B, [D]: A }));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      IRIS_GH_BIN: FAKE_GH,
      FAKE_GH_RECORD: recordPath,
      FAKE_GH_COMMITS: join(dir, 'commits.json'),
      ...extra,
    };
  }
  const client = (extra: Record<string, string> = {}, timeoutMs?: number): PrForgeClient =>
    createGithubPrClient({ env: env(extra), ...(timeoutMs === undefined ? {} : { timeoutMs }) });

  async function calls(): Promise<Recorded[]> {
    const text = await readFile(recordPath, 'utf8').catch(() => '');
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Recorded)
      .map(({ argv, body }) => ({ argv, body }));
  }
  const bodies = async () =>
    (await readFile(`${recordPath}.comments.jsonl`, 'utf8').catch(() => ''))
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { body: string }).body);

  it('whoAmI: the login gh is signed in as', async () => {
    let spawned = 0;
    const gh = createGithubPrClient({ env: env({ FAKE_GH_LOGIN: 'review-bot' }), onSpawn: (pid) => (spawned = pid) });
    expect(await gh.whoAmI()).toEqual({ ok: true, value: 'review-bot' });
    expect(await client().whoAmI()).toEqual({ ok: true, value: 'iris-bot' });
    expect(spawned).toBeGreaterThan(0);
    expect(await calls()).toEqual([
      { argv: ['api', 'user', '--jq', '.login'], body: null },
      { argv: ['api', 'user', '--jq', '.login'], body: null },
    ]);
  });

  it('postComment: the body as JSON on stdin, never in argv', async () => {
    const body = 'Looks good.\n\n<!-- iris-review:7 -->';
    expect(await client().postComment(PR, body)).toEqual({ ok: true, value: { id: '2000000001', url: url(2_000_000_001) } });
    expect(await calls()).toEqual([{ argv: ['api', '--method', 'POST', COMMENTS, '--input', '-'], body: JSON.stringify({ body }) }]);
    expect(await bodies()).toEqual([body]);
  });

  it('postComment: a body GitHub refuses (422) is not retried', async () => {
    expect(await client().postComment(PR, ' ')).toEqual({
      ok: false,
      code: 'failed',
      retryable: false,
      message: 'gh exited with 1: gh: Validation Failed (HTTP 422)',
    });
  });

  it('updateComment: PATCHes the body; after a delete it is not_found, not retryable', async () => {
    const gh = client();
    const posted = await gh.postComment(PR, 'first');
    expect(posted).toEqual({ ok: true, value: { id: '2000000001', url: url(2_000_000_001) } });
    expect(await gh.updateComment(PR, '2000000001', 'second')).toEqual({ ok: true, value: { id: '2000000001', url: url(2_000_000_001) } });
    expect(await bodies()).toEqual(['second']);
    expect((await calls())[1]).toEqual({
      argv: ['api', '--method', 'PATCH', 'repos/octo/hello/issues/comments/2000000001', '--input', '-'],
      body: '{"body":"second"}',
    });

    await promisify(execFile)(FAKE_GH, ['api', '-X', 'DELETE', 'repos/octo/hello/issues/comments/2000000001'], { env: env() });
    expect(await gh.updateComment(PR, '2000000001', 'third')).toEqual({
      ok: false,
      code: 'not_found',
      retryable: false,
      message: "GitHub answered 404 in octo/hello: gone, or not visible to gh's account: gh: Not Found (HTTP 404)",
    });
    expect(await bodies()).toEqual([]);
  });

  it('findComment: null when no comment carries the marker', async () => {
    const gh = client();
    await gh.postComment(PR, 'unrelated');
    expect(await gh.findComment(PR, '<!-- iris-review:7 -->')).toEqual({ ok: true, value: null });
    expect((await calls())[1]).toEqual({
      argv: ['api', '--paginate', `${COMMENTS}?per_page=100`, '--jq', '.[] | select(.body | contains("<!-- iris-review:7 -->")) | {id, html_url, login: .user.login}'],
      body: null,
    });
  });

  it('findComment: the oldest match, found past the first page of 100', async () => {
    // The fake's store, written directly: 160 comments, the marker on the 121st and 141st.
    const lines = Array.from({ length: 160 }, (_, i) => {
      const id = 3_000_000_000 + i;
      const body = i === 120 || i === 140 ? `review ${i}\n<!-- iris-review:7 -->` : `chatter ${i} <!-- iris-review:70 -->`;
      return JSON.stringify({ repo: 'octo/hello', number: 42, id, html_url: url(id), body });
    });
    await writeFile(`${recordPath}.comments.jsonl`, `${lines.join('\n')}\n`);
    expect(await client().findComment(PR, '<!-- iris-review:7 -->')).toEqual({ ok: true, value: { id: '3000000120', url: url(3_000_000_120) } });
  });

  it('findComment refuses an empty marker without running gh', async () => {
    expect(await client().findComment(PR, '')).toMatchObject({ ok: false, code: 'failed', retryable: false });
    expect(await calls()).toEqual([]);
  });

  it.each([
    ['ahead', A, C, { relation: 'ahead', commits: 2 }],
    ['identical', C, C, { relation: 'identical', commits: 0 }],
    ['behind', C, A, { relation: 'behind', commits: 0 }],
    ['diverged', C, D, { relation: 'diverged', commits: 1 }],
    ['lost (base unknown)', 'f'.repeat(40), C, { relation: 'lost', commits: 0 }],
    ['lost (head unknown)', A, '1234567', { relation: 'lost', commits: 0 }],
  ])('compare: %s', async (_name, base, head, value) => {
    expect(await client().compare(PR, base, head)).toEqual({ ok: true, value });
    expect(await calls()).toEqual([{ argv: ['api', `repos/octo/hello/compare/${base}...${head}`, '--jq', '{status, ahead_by}'], body: null }]);
  });

  it.each([
    ['a branch name', 'main', C],
    ['too short', A, 'cccccc'],
    ['a range', `${A}...${C}`, C],
    ['an option', '--jq=.', C],
  ])('compare refuses %s without running gh', async (_name, base, head) => {
    expect(await client().compare(PR, base, head)).toEqual({
      ok: false,
      code: 'failed',
      retryable: false,
      message: stringContaining('must be commit shas (7 to 40 hex digits)'),
    });
    expect(await calls()).toEqual([]);
  });

  it.each([
    [{ repo: '-R/evil', number: 1 }],
    [{ repo: 'octo/hello/issues', number: 1 }],
    [{ repo: 'octo/..', number: 1 }],
    [{ repo: 'octo/hello', number: 0 }],
    [{ repo: 'octo/hello', number: 1.5 }],
    [{ repo: 'octo/hello', number: 2 ** 31 }],
  ])('refuses %j without running gh', async (pr) => {
    const gh = client();
    for (const result of [await gh.postComment(pr, 'x'), await gh.findComment(pr, 'm'), await gh.compare(pr, A, C)]) {
      expect(result).toMatchObject({ ok: false, code: 'failed', retryable: false });
    }
    expect(await gh.updateComment(PR, '1/../../x', 'x')).toEqual({ ok: false, code: 'failed', retryable: false, message: 'not a GitHub comment id: "1/../../x"' });
    expect(await calls()).toEqual([]);
  });

  it('signed out: every method is unauthenticated, not retryable, and no body is read', async () => {
    const gh = client({ FAKE_GH_MODE: 'unauthenticated' });
    const results = [
      await gh.whoAmI(),
      await gh.postComment(PR, 'x'),
      await gh.updateComment(PR, '2000000001', 'x'),
      await gh.findComment(PR, 'm'),
      await gh.compare(PR, A, C),
    ];
    for (const result of results) {
      expect(result).toEqual({ ok: false, code: 'unauthenticated', retryable: false, message: stringContaining('gh auth login') });
    }
    expect((await calls()).map((c) => c.body)).toEqual([null, null, null, null, null]);
  });

  it('no gh: missing_tool', async () => {
    expect(await client({ IRIS_GH_BIN: join(dir, 'nope', 'gh') }).whoAmI()).toMatchObject({ ok: false, code: 'missing_tool', retryable: false });
  });

  it('a stuck gh: timeout, retryable, naming the endpoint', async () => {
    expect(await client({ FAKE_GH_MODE: 'hang' }, 500).compare(PR, A, C)).toEqual({
      ok: false,
      code: 'timeout',
      retryable: true,
      message: `gh api repos/octo/hello/compare/${A}...${C} did not finish within 500 ms and was stopped`,
    });
  });

  it('a cancelled call: cancelled, without running gh', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await client().postComment(PR, 'x', { signal: controller.signal })).toMatchObject({ ok: false, code: 'cancelled', retryable: true });
    expect(await calls()).toEqual([]);
  });
});
