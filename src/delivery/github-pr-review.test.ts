// The GitHub PrReviewPoster's look at a finding's thread (threadNow) against the fake GitHub CLI
// (test/fakes/fake-gh.mjs, via IRIS_GH_BIN): through GraphQL when the thread's node id is known,
// through the PR's review comments when it is not, and null for a thread that is gone.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGithubPrReview } from './github-pr-review.js';
import type { PrRef } from './pr-forge.js';
import type { PostedFinding } from './pr-review-poster.js';

const FAKE_GH = fileURLToPath(new URL('../../test/fakes/fake-gh.mjs', import.meta.url));
const PR: PrRef = { repo: 'octo/hello', number: 42 };
const HEAD = 'a'.repeat(40);
const SHAS = { base: 'b'.repeat(40), head: HEAD, start: 'b'.repeat(40) };

describe.skipIf(process.platform === 'win32')('createGithubPrReview.threadNow through the fake gh', () => {
  let dir: string;
  let recordPath: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'iris-gh-review-'));
    recordPath = join(dir, 'gh-calls.jsonl');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const poster = (login = 'iris-bot') => createGithubPrReview({ env: { PATH: process.env.PATH ?? '', HOME: dir, IRIS_GH_BIN: FAKE_GH, FAKE_GH_RECORD: recordPath, FAKE_GH_LOGIN: login } });
  const argvs = async () =>
    (await readFile(recordPath, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { argv: string[] }).argv);

  async function postOne(): Promise<PostedFinding> {
    const posted = await poster().postFindings(PR, { body: 'review', shas: SHAS, comments: [{ fingerprint: 'f'.repeat(64), path: 'a.ts', oldPath: 'a.ts', line: 3, body: 'Finding <!-- iris-finding:ffffffffffff -->' }] }, {});
    if (!posted.ok) throw new Error(posted.message);
    return posted.value[0]!;
  }

  it('by the node id: resolved or not, and the replies without the finding itself, each with its author', async () => {
    const finding = await postOne();
    expect(finding.threadId).toMatch(/^PRRT_/);
    const thread = { threadId: finding.threadId, commentId: finding.commentId };
    expect(await poster().threadNow(PR, thread)).toEqual({ ok: true, value: { resolved: false, replies: [] } });

    const replied = await poster('alice').replyInThread(PR, thread, 'Will fix.');
    expect(replied.ok).toBe(true);
    expect(await poster().resolveOutdated(PR, thread, null)).toEqual({ ok: true, value: undefined });
    expect(await poster().threadNow(PR, thread)).toEqual({ ok: true, value: { resolved: true, replies: [{ id: replied.ok ? replied.value.id : '', body: 'Will fix.', author: 'alice' }] } });
    // resolveOutdated with no reply resolved the thread and posted nothing.
    expect((await argvs()).filter((argv) => argv.some((arg) => arg.endsWith('/replies')))).toHaveLength(1);
  });

  it('without a node id: the PR comments in reply to the finding; resolved cannot be told, so false', async () => {
    const finding = await postOne();
    const replied = await poster().replyInThread(PR, { threadId: finding.threadId, commentId: finding.commentId }, 'Outdated.\n\n<!-- iris-outdated:ffffffffffff -->');
    expect(replied.ok).toBe(true);
    expect(await poster().threadNow(PR, { threadId: null, commentId: finding.commentId })).toEqual({
      ok: true,
      value: { resolved: false, replies: [{ id: replied.ok ? replied.value.id : '', body: 'Outdated.\n\n<!-- iris-outdated:ffffffffffff -->', author: 'iris-bot' }] },
    });
    expect((await argvs()).at(-1)).toEqual(['api', '--paginate', 'repos/octo/hello/pulls/42/comments?per_page=100', '--jq', `.[] | select(.in_reply_to_id == ${finding.commentId}) | {id, body, login: .user.login}`]);
  });

  it('a thread that is gone is null; a node id or comment id that is not one is never sent', async () => {
    expect(await poster().threadNow(PR, { threadId: 'PRRT_999', commentId: '5' })).toEqual({ ok: true, value: null });
    expect(await poster().threadNow(PR, { threadId: 'x"}) { id } #', commentId: '1; rm' })).toEqual({ ok: true, value: null });
    expect((await argvs()).map((argv) => argv.slice(0, 3))).toEqual([['api', '--method', 'POST']]);
  });
});
