// Pull-request reviews end to end: `iris gateway run` as a subprocess, the fake model upstream, the
// fake gh (comments, edits, the commit graph) on PATH. A session per PR, comment commands, the
// incremental review of a push, coalesced pushes, the one living summary comment, /pause.
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { failedStart, waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, REPO_ROOT, removeDir } from '../helpers/iris.js';
import {
  allEnded,
  configurePr,
  deliveries,
  ghCalls,
  issueComment,
  lastUserText,
  mainRequests,
  makePrHome,
  noFindingsSummary,
  postGithub,
  prComments,
  pullRequest,
  REPO,
  reviewAnswer,
  sha,
  startPrGateway,
  writeCommits,
  type PrHome,
} from '../helpers/pr-review.js';

const run = promisify(execFile);
let fake: FakeUpstream;
let pr: PrHome;
const running: GatewayProcess[] = [];

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  pr = await makePrHome(await makeTempDir());
  await writeCommits(pr, [sha('a'), sha('b'), sha('c'), sha('d')]);
});
afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.stop('SIGKILL');
  await removeDir(pr.dir);
});

async function start(): Promise<GatewayProcess> {
  const gateway = await startPrGateway(pr, fake);
  running.push(gateway);
  return gateway;
}

const SUMMARY_ROUTE = `events: [pull_request, issue_comment]
session: per_pr
commands: true
coalesce_seconds: 0
prompt: "Review pull request #{number}: {pull_request.title}"
deliver: forge_comment
deliver_extra:
  mode: update`;

const MARKER = `<!-- iris:pr:${REPO}#42 -->`;

/** The `gh api` calls that wrote a comment: [method, endpoint]. */
async function writes(): Promise<string[][]> {
  return (await ghCalls(pr))
    .map((call) => call.argv)
    .filter((argv) => argv[0] === 'api' && argv.includes('--method'))
    .map((argv) => [argv[argv.indexOf('--method') + 1]!, argv.find((a) => a.startsWith('repos/'))!]);
}

describe('a session per pull request', () => {
  it('opened, then synchronize: the second run continues the session, carries the first review and names the compare range; the summary comment is edited', async () => {
    await configurePr(pr, SUMMARY_ROUTE);
    fake.script('main-m', reviewAnswer('First review: fine.'), reviewAnswer('Second review: the new commits are fine.'));
    const gateway = await start();
    expect((await postGithub(gateway, 'pull_request', pullRequest('opened', sha('a')), 'd-1')).status).toBe(202);
    await waitFor(allEnded(pr, 1), 15_000, 'the first review');
    expect((await postGithub(gateway, 'pull_request', pullRequest('synchronize', sha('c'), 42, { before: sha('a'), after: sha('c') }), 'd-2')).status).toBe(202);
    const rows = await waitFor(allEnded(pr, 2), 15_000, 'the second review');

    expect(rows.map((row) => row.state)).toEqual(['delivered', 'delivered']);
    expect(rows[1]!.session).toBe(rows[0]!.session);
    const [first, second] = mainRequests(fake);
    // The review prompt: the route's prompt, then the diff Iris read (issue 37).
    expect(lastUserText(first!).startsWith('Review pull request #42: Fix the parser\n\n')).toBe(true);
    expect(lastUserText(first!)).toContain('+new');
    // The whole conversation so far goes with the second request.
    expect(second!.messages.filter((m) => m.role !== 'system').map((m) => [m.role, m.content])).toEqual([
      ['user', lastUserText(first!)],
      ['assistant', JSON.stringify({ summary: 'First review: fine.', findings: [] })],
      ['user', expect.stringContaining(`Review only these commits: ${sha('a').slice(0, 12)}..${sha('c').slice(0, 12)} (compare range ${sha('a')}..${sha('c')}, 2 commits).`)],
    ]);
    expect(lastUserText(second!).startsWith('Review pull request #42: Fix the parser\n\nNew commits were pushed since your last review')).toBe(true);

    const comments = await prComments(pr);
    expect(comments).toEqual([expect.objectContaining({ repo: REPO, number: 42, body: `${noFindingsSummary('Second review: the new commits are fine.')}\n\n${MARKER}` })]);
    expect(await writes()).toEqual([
      ['POST', `repos/${REPO}/issues/42/comments`],
      ['PATCH', `repos/${REPO}/issues/comments/${comments[0]!.id}`],
    ]);
    // The head compared against was the one reviewed first.
    expect((await ghCalls(pr)).filter((call) => call.argv[1]?.startsWith(`repos/${REPO}/compare/`)).map((call) => call.argv[1])).toEqual([`repos/${REPO}/compare/${sha('a')}...${sha('c')}`]);
  });

  it('a force-push that lost the reviewed commit makes a full review, and the prompt says so', async () => {
    await configurePr(pr, SUMMARY_ROUTE);
    await writeCommits(pr, [sha('e'), sha('f')]); // a and its history are gone
    const gateway = await start();
    fake.script('main-m', reviewAnswer('Reviewed.'));
    await postGithub(gateway, 'pull_request', pullRequest('opened', sha('a')), 'd-1');
    await waitFor(allEnded(pr, 1), 15_000, 'the first review');
    await postGithub(gateway, 'pull_request', pullRequest('synchronize', sha('f')), 'd-2');
    await waitFor(allEnded(pr, 2), 15_000, 'the second review');
    expect(lastUserText(mainRequests(fake)[1]!).startsWith(
      `Review pull request #42: Fix the parser\n\nThe commit you last reviewed (${sha('a').slice(0, 12)}) is no longer part of this branch (a force-push rewrote it), so this is a full review: review the whole pull request again at ${sha('f').slice(0, 12)}.\n\n`,
    )).toBe(true);
  });

  it('three pushes within the coalescing window make one run, on the newest head', async () => {
    await configurePr(pr, SUMMARY_ROUTE.replace('coalesce_seconds: 0', 'coalesce_seconds: 2'));
    fake.script('main-m', reviewAnswer('Reviewed.'));
    const gateway = await start();
    await postGithub(gateway, 'pull_request', pullRequest('opened', sha('a')), 'd-0');
    await waitFor(allEnded(pr, 1), 15_000, 'the first review');
    const sent = Date.now();
    for (const [i, head] of [sha('b'), sha('c'), sha('d')].entries()) {
      expect((await postGithub(gateway, 'pull_request', pullRequest('synchronize', head), `d-${i + 1}`)).status).toBe(202);
    }
    const rows = await waitFor(allEnded(pr, 4), 20_000, 'the coalesced pushes');
    expect(Date.now() - sent).toBeGreaterThanOrEqual(2_000);
    expect(rows.map((row) => [row.state, row.reason])).toEqual([
      ['delivered', null],
      ['skipped', `superseded by a newer push (event ${rows[3]!.id})`],
      ['skipped', `superseded by a newer push (event ${rows[3]!.id})`],
      ['delivered', null],
    ]);
    expect(mainRequests(fake)).toHaveLength(2);
    expect(lastUserText(mainRequests(fake)[1]!)).toContain(`compare range ${sha('a')}..${sha('d')}, 3 commits`);
  });
});

describe('comment commands', () => {
  it('/ask from a MEMBER is answered in a reply, in the PR session', async () => {
    await configurePr(pr, SUMMARY_ROUTE);
    fake.script('main-m', reviewAnswer('Review.'), { kind: 'text', deltas: ['Because the parser needed it.'] });
    const gateway = await start();
    await postGithub(gateway, 'pull_request', pullRequest('opened', sha('a')), 'd-1');
    await waitFor(allEnded(pr, 1), 15_000, 'the review');
    await postGithub(gateway, 'issue_comment', issueComment('/ask why this change?', 'octocat', 'MEMBER'), 'd-2');
    const rows = await waitFor(allEnded(pr, 2), 15_000, 'the answer');
    expect(rows[1]!.session).toBe(rows[0]!.session);
    expect(lastUserText(mainRequests(fake)[1]!)).toBe(
      `@octocat asks about pull request ${REPO}#42 ("Fix the parser") with /ask:\n\nwhy this change?\n\nAnswer the question; your answer is posted as a reply on the pull request.`,
    );
    const comments = await prComments(pr);
    expect(comments.map((c) => c.body)).toEqual([`${noFindingsSummary('Review.')}\n\n${MARKER}`, `Because the parser needed it.\n\n<!-- iris-delivery:${rows[1]!.id} -->`]);
  });

  it('/review from a NONE association is refused once, with no model request; the bot ignores its own comments and marked ones', async () => {
    await configurePr(pr, SUMMARY_ROUTE);
    const gateway = await start();
    await postGithub(gateway, 'issue_comment', issueComment('/review', 'stranger', 'NONE', 42, 1), 'd-1');
    await postGithub(gateway, 'issue_comment', issueComment('/review please', 'stranger', 'NONE', 42, 2), 'd-2');
    await postGithub(gateway, 'issue_comment', issueComment('/review', 'iris-bot', 'MEMBER', 42, 3), 'd-3');
    await postGithub(gateway, 'issue_comment', issueComment('@iris see <!-- iris-delivery:7 -->', 'octocat', 'OWNER', 42, 4), 'd-4');
    await postGithub(gateway, 'issue_comment', issueComment('looks fine to me', 'octocat', 'OWNER', 42, 5), 'd-5');
    const rows = await waitFor(allEnded(pr, 5), 15_000, 'the comments');
    expect(rows.map((row) => [row.state, row.reason])).toEqual([
      ['delivered', null],
      ['skipped', 'a command from a user without write access (refused before on this pull request)'],
      ['skipped', "the bot's own comment"],
      ['skipped', "a comment carrying Iris's marker"],
      ['skipped', 'not a command'],
    ]);
    expect(fake.requests).toEqual([]);
    expect((await prComments(pr)).map((c) => c.body)).toEqual([
      `Sorry @stranger, I only take commands from people with write access to this repository. A maintainer can ask me with \`/review\` or \`/ask <question>\`.\n\n<!-- iris-delivery:${rows[0]!.id} -->`,
    ]);
    // The bot's login was asked once, and kept.
    expect((await ghCalls(pr)).filter((call) => call.argv.join(' ') === 'api user --jq .login')).toHaveLength(1);
  });

  it('/pause stops automatic reviews until /resume; /help lists the commands', async () => {
    await configurePr(pr, SUMMARY_ROUTE);
    fake.script('main-m', reviewAnswer('Reviewed.'));
    const gateway = await start();
    await postGithub(gateway, 'issue_comment', issueComment('/pause', 'octocat', 'COLLABORATOR', 42, 1), 'd-1');
    await postGithub(gateway, 'pull_request', pullRequest('synchronize', sha('b')), 'd-2');
    await postGithub(gateway, 'issue_comment', issueComment('/help', 'octocat', 'OWNER', 42, 2), 'd-3');
    await postGithub(gateway, 'issue_comment', issueComment('/resume', 'octocat', 'OWNER', 42, 3), 'd-4');
    await postGithub(gateway, 'pull_request', pullRequest('synchronize', sha('c')), 'd-5');
    const rows = await waitFor(allEnded(pr, 5), 15_000, 'the events');
    expect(rows.map((row) => [row.state, row.reason])).toEqual([
      ['delivered', null],
      ['skipped', 'automatic reviews are paused on this pull request (/resume turns them on)'],
      ['delivered', null],
      ['delivered', null],
      ['delivered', null],
    ]);
    expect(mainRequests(fake)).toHaveLength(1);
    const bodies = (await prComments(pr)).map((c) => c.body.split('\n')[0]);
    expect(bodies).toEqual([
      'Automatic reviews are paused for this pull request. `/resume` turns them back on; `/review` still works.',
      'Commands for Iris (from users with write access):',
      'Automatic reviews are on again for this pull request.',
      'Reviewed.',
    ]);
  });
});

describe('the living summary comment', () => {
  it('edits the same comment id three times, and posts anew after it was deleted (404 on edit)', async () => {
    await configurePr(pr, SUMMARY_ROUTE);
    fake.script('main-m', { kind: 'echo', prefix: 'review of: ' });
    const gateway = await start();
    const heads = [sha('a'), sha('b'), sha('c'), sha('d')];
    for (const [i, head] of heads.entries()) {
      await postGithub(gateway, 'pull_request', pullRequest(i === 0 ? 'opened' : 'synchronize', head), `d-${i}`);
      await waitFor(allEnded(pr, i + 1), 15_000, `review ${i}`);
    }
    const [summary] = await prComments(pr);
    expect(await writes()).toEqual([
      ['POST', `repos/${REPO}/issues/42/comments`],
      ['PATCH', `repos/${REPO}/issues/comments/${summary!.id}`],
      ['PATCH', `repos/${REPO}/issues/comments/${summary!.id}`],
      ['PATCH', `repos/${REPO}/issues/comments/${summary!.id}`],
    ]);
    expect(await prComments(pr)).toHaveLength(1);

    // Someone deletes it; the next review finds the edit refused (404) and posts a new one.
    await run(join(REPO_ROOT, 'test', 'fakes', 'fake-gh.mjs'), ['api', '--method', 'DELETE', `repos/${REPO}/issues/comments/${summary!.id}`], { env: { ...process.env, FAKE_GH_RECORD: pr.ghRecord } });
    await postGithub(gateway, 'issue_comment', issueComment('/review', 'octocat', 'MEMBER'), 'd-9');
    await waitFor(allEnded(pr, 5), 15_000, 'the review after the deletion');
    const after = await prComments(pr);
    expect(after).toHaveLength(1);
    expect(after[0]!.id).not.toBe(summary!.id);
    expect(after[0]!.body.endsWith(MARKER)).toBe(true);
    expect((await writes()).slice(4)).toEqual([
      ['DELETE', `repos/${REPO}/issues/comments/${summary!.id}`],
      ['PATCH', `repos/${REPO}/issues/comments/${summary!.id}`],
      ['POST', `repos/${REPO}/issues/42/comments`],
    ]);
    expect((await deliveries(pr)).map((row) => row.state)).toEqual(['delivered', 'delivered', 'delivered', 'delivered', 'delivered']);
  });
});

describe('markers on comments of others', () => {
  it("a stranger's comment carrying the summary marker is not taken for the summary: the bot posts its own and edits only that", async () => {
    await configurePr(pr, SUMMARY_ROUTE);
    const fakeGh = join(REPO_ROOT, 'test', 'fakes', 'fake-gh.mjs');
    const posted = spawnSync(fakeGh, ['api', '--method', 'POST', `repos/${REPO}/issues/42/comments`, '--input', '-'], {
      input: JSON.stringify({ body: `LGTM, merge it\n\n${MARKER}` }),
      env: { ...process.env, FAKE_GH_RECORD: pr.ghRecord, FAKE_GH_LOGIN: 'mallory' },
    });
    expect(posted.status).toBe(0);
    fake.script('main-m', reviewAnswer('Review one.'), reviewAnswer('Review two.'));
    const gateway = await start();
    await postGithub(gateway, 'pull_request', pullRequest('opened', sha('a')), 'd-1');
    await waitFor(allEnded(pr, 1), 15_000, 'the first review');
    await postGithub(gateway, 'pull_request', pullRequest('synchronize', sha('b')), 'd-2');
    await waitFor(allEnded(pr, 2), 15_000, 'the second review');
    expect((await prComments(pr)).map((c) => c.body)).toEqual([`LGTM, merge it\n\n${MARKER}`, `${noFindingsSummary('Review two.')}\n\n${MARKER}`]);
  });
});

describe('route settings checked at start', () => {
  it.each([
    ['session: per_thread', 'iris: error: platforms.webhook.extra.routes.pr.session: "per_thread" is not valid (allowed: per_event, per_pr)'],
    ['coalesce_seconds: 5000', 'iris: error: platforms.webhook.extra.routes.pr.coalesce_seconds: 5000 is not valid (allowed: an integer from 0 to 3600)'],
    ['deliver: forge_comment\ndeliver_extra:\n  mode: edit', 'iris: error: route "pr" has deliver_extra.mode "edit": use one of new, update'],
    ['deliver: log\ndeliver_extra:\n  mode: update', 'iris: error: route "pr" has deliver_extra.mode "update", which only a forge_comment delivery can do (it delivers to log)'],
  ])('%s stops the gateway, naming the route', async (lines, message) => {
    await configurePr(pr, `events: [pull_request]\ncommands: true\n${lines}`);
    const { code, output } = await failedStart(pr.home);
    expect(code).toBe(2);
    expect(output.split('\n')).toContain(message);
  });
});
