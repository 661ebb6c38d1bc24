// Merge-request reviews on GitLab end to end: the real gateway, GitLab's headers and payloads, and
// the fake GitLab API (test/fakes/gitlab-api.ts) that the forge_comment delivery posts and edits
// notes on, asks for the bot's user, a commenter's access level and the commit graph.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeGitlab, type FakeGitlab } from '../fakes/gitlab-api.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir } from '../helpers/iris.js';
import { allEnded, configurePr, lastUserText, mainRequests, makePrHome, noFindingsSummary, postGitlab, reviewAnswer, sha, startPrGateway, type PrHome } from '../helpers/pr-review.js';

const PROJECT = 'acme/tools/hello';
const MARKER = `<!-- iris:pr:${PROJECT}#7 -->`;

let fake: FakeUpstream;
let gitlab: FakeGitlab;
let pr: PrHome;
const running: GatewayProcess[] = [];

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  gitlab = await startFakeGitlab();
  gitlab.addProject(PROJECT);
  gitlab.addCommit(PROJECT, sha('a'), null);
  gitlab.addCommit(PROJECT, sha('b'), sha('a'));
  // What a review reads first (issue 37): the merge request's diff.
  gitlab.setMergeRequest(PROJECT, 7, { title: 'Speed up the parser', diff_refs: { base_sha: sha('0'), head_sha: sha('b'), start_sha: sha('0') }, files: [{ old_path: 'a.ts', new_path: 'a.ts', diff: '@@ -1 +1 @@\n-a\n+b\n' }] });
  pr = await makePrHome(await makeTempDir());
});
afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.stop('SIGKILL');
  await gitlab.close();
  await removeDir(pr.dir);
});

const project = { id: 15, path_with_namespace: PROJECT, web_url: `https://gitlab.example/${PROJECT}` };

function mergeRequest(action: string, head: string, oldrev?: string) {
  return {
    object_kind: 'merge_request',
    event_type: 'merge_request',
    user: { id: 5, username: 'mona', name: 'Mona' },
    project,
    object_attributes: { iid: 7, title: 'Speed up the parser', action, state: 'opened', last_commit: { id: head }, ...(oldrev ? { oldrev } : {}) },
  };
}

function note(body: string, userId: number, username: string, id: number) {
  return {
    object_kind: 'note',
    event_type: 'note',
    user: { id: userId, username, name: username },
    project,
    object_attributes: { id, note: body, noteable_type: 'MergeRequest', action: 'create' },
    merge_request: { iid: 7, title: 'Speed up the parser', last_commit: { id: sha('b') } },
  };
}

async function start(): Promise<GatewayProcess> {
  await configurePr(
    pr,
    `events: ["Merge Request Hook", "Note Hook"]
session: per_pr
commands: true
coalesce_seconds: 0
prompt: "Review merge request !{object_attributes.iid}: {object_attributes.title}"
deliver: forge_comment
deliver_extra:
  mode: update`,
    `gitlab:\n  api_base: ${gitlab.url}\n`,
  );
  const gateway = await startPrGateway(pr, fake, { GITLAB_TOKEN: gitlab.token });
  running.push(gateway);
  return gateway;
}

const writes = () => gitlab.requests.filter((r) => r.method === 'POST' || r.method === 'PUT').map((r) => [r.method, r.path, r.body]);

describe('GitLab merge requests', () => {
  it('posts the review as a note, edits that note after a push (compare range from the merge base), and answers a Developer in a new note', async () => {
    gitlab.setMember(PROJECT, 9, 30);
    fake.script('main-m', reviewAnswer('First look.'), reviewAnswer('Second look.'), { kind: 'text', deltas: ['It is faster.'] });
    const gateway = await start();
    expect((await postGitlab(gateway, 'Merge Request Hook', mergeRequest('open', sha('a')), 'u-1')).status).toBe(202);
    await waitFor(allEnded(pr, 1), 15_000, 'the first review');
    expect((await postGitlab(gateway, 'Merge Request Hook', mergeRequest('update', sha('b'), sha('a')), 'u-2')).status).toBe(202);
    await waitFor(allEnded(pr, 2), 15_000, 'the second review');
    expect((await postGitlab(gateway, 'Note Hook', note('/ask is it faster?', 9, 'dev', 501), 'u-3')).status).toBe(202);
    const rows = await waitFor(allEnded(pr, 3), 15_000, 'the answer');

    expect(rows.map((row) => row.state)).toEqual(['delivered', 'delivered', 'delivered']);
    expect(new Set(rows.map((row) => row.session)).size).toBe(1);
    const encoded = encodeURIComponent(PROJECT);
    const summaryId = gitlab.notes(PROJECT, 7).find((n) => n.body.endsWith(MARKER))!.id;
    expect(writes()).toEqual([
      ['POST', `/api/v4/projects/${encoded}/merge_requests/7/notes`, { body: `${noFindingsSummary('First look.')}\n\n${MARKER}` }],
      ['PUT', `/api/v4/projects/${encoded}/merge_requests/7/notes/${summaryId}`, { body: `${noFindingsSummary('Second look.')}\n\n${MARKER}` }],
      ['POST', `/api/v4/projects/${encoded}/merge_requests/7/notes`, { body: `It is faster.\n\n<!-- iris-delivery:${rows[2]!.id} -->` }],
    ]);
    expect(gitlab.notes(PROJECT, 7).map((n) => n.body).sort()).toEqual([`It is faster.\n\n<!-- iris-delivery:${rows[2]!.id} -->`, `${noFindingsSummary('Second look.')}\n\n${MARKER}`]);
    expect(lastUserText(mainRequests(fake)[1]!)).toContain(`compare range ${sha('a')}..${sha('b')}, 1 commit)`);
    // Every call carried the token, and only in its header.
    expect(gitlab.requests.every((r) => r.headers['private-token'] === gitlab.token)).toBe(true);
  });

  it('a Reporter (access level 20) is refused once with no model request; the bot user\'s own note is ignored', async () => {
    gitlab.setMember(PROJECT, 8, 20);
    const gateway = await start();
    await postGitlab(gateway, 'Note Hook', note('/review', 8, 'reporter', 601), 'u-1');
    await postGitlab(gateway, 'Note Hook', note('/review', 8, 'reporter', 602), 'u-2');
    await postGitlab(gateway, 'Note Hook', note('/review', 42, 'iris-bot', 603), 'u-3');
    const rows = await waitFor(allEnded(pr, 3), 15_000, 'the notes');
    expect(rows.map((row) => [row.state, row.reason])).toEqual([
      ['delivered', null],
      ['skipped', 'a command from a user without write access (refused before on this pull request)'],
      ['skipped', "the bot's own comment"],
    ]);
    expect(fake.requests).toEqual([]);
    expect(gitlab.notes(PROJECT, 7).map((n) => n.body.split('\n')[0])).toEqual(['Sorry @reporter, I only take commands from people with write access to this repository. A maintainer can ask me with `/review` or `/ask <question>`.']);
    expect(gitlab.requests.filter((r) => r.path === `/api/v4/projects/${encodeURIComponent(PROJECT)}/members/all/8`)).toHaveLength(2);
  });
});
