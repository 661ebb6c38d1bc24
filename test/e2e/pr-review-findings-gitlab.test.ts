// Findings on the lines, end to end on GitLab: a discussion per finding with its position (an added
// line: new_line; a context line: old_line and new_line), GitLab's suggestion form, and a push that
// fixes a finding's code: the discussion gets the outdated reply and is resolved, nothing repeated.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeGitlab, type FakeGitlab } from '../fakes/gitlab-api.js';
import type { FakeMrFile } from '../fakes/gitlab-mr-reads.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { allEnded, configurePr, makePrHome, postGitlab, reviewAnswer, sha, startPrGateway, type PrHome } from '../helpers/pr-review.js';
import { findingFingerprint } from '../../src/review/fingerprint.js';

const PROJECT = 'acme/tools/hello';
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
  for (const [c, parent] of [['a', null], ['b', 'a']] as const) gitlab.addCommit(PROJECT, sha(c), parent === null ? null : sha(parent));
  pr = await makePrHome(await makeTempDir());
});
afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.stop('SIGKILL');
  await gitlab.close();
  await removeDir(pr.dir);
});

const project = { id: 15, path_with_namespace: PROJECT };
const mergeRequest = (action: string, head: string, oldrev?: string) => ({
  object_kind: 'merge_request',
  user: { id: 5, username: 'mona' },
  project,
  object_attributes: { iid: 7, title: 'Speed up the parser', action, state: 'opened', last_commit: { id: head }, ...(oldrev ? { oldrev } : {}) },
});

const PARSE: FakeMrFile = { old_path: 'src/parse.ts', new_path: 'src/parse.ts', diff: ['@@ -1,3 +1,4 @@', ' export function parse(text) {', "-  return text.split(',');", "+  const parts = text.split(',');", '+  return parts;', ' }', ''].join('\n') };
const PARSE_FIXED: FakeMrFile = { ...PARSE, diff: ['@@ -1,3 +1,4 @@', ' export function parse(text) {', "-  return text.split(',');", "+  const parts = (text ?? '').split(',');", '+  return parts;', ' }', ''].join('\n') };
const seed = (head: string, files: FakeMrFile[]) =>
  gitlab.setMergeRequest(PROJECT, 7, { title: 'Speed up the parser', diff_refs: { base_sha: sha('0'), head_sha: head, start_sha: sha('9') }, files });

async function start(): Promise<GatewayProcess> {
  await configurePr(
    pr,
    `events: ["Merge Request Hook", "Note Hook"]\nsession: per_pr\ncommands: true\ncoalesce_seconds: 0\nprompt: "Review !{object_attributes.iid}"\ndeliver: forge_comment\ndeliver_extra:\n  mode: update`,
    `gitlab:\n  api_base: ${gitlab.url}\n`,
  );
  const gateway = await startPrGateway(pr, fake, { GITLAB_TOKEN: gitlab.token });
  running.push(gateway);
  return gateway;
}

const UNCHECKED = { path: 'src/parse.ts', line: 2, severity: 'major', title: 'Unchecked input', body: 'text may be undefined.', suggestion: "  const parts = (text ?? '').split(',');" };
const BRACE = { path: 'src/parse.ts', line: 4, severity: 'nit', title: 'Brace style', body: 'Fine, really.' };

describe('findings on the lines (GitLab)', () => {
  it('a discussion per finding with its position; a push that fixes one resolves it with a reply and repeats nothing', async () => {
    seed(sha('a'), [PARSE]);
    fake.script('main-m', reviewAnswer('Two notes.', [UNCHECKED, BRACE]), reviewAnswer('One left.', [BRACE]));
    const gateway = await start();
    await postGitlab(gateway, 'Merge Request Hook', mergeRequest('open', sha('a')), 'u-1');
    await waitFor(allEnded(pr, 1), 20_000, 'the first review');

    const posts = gitlab.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/merge_requests/7/discussions'));
    const fp = findingFingerprint('src/parse.ts', 'Unchecked input', "  const parts = text.split(',');");
    const braceFp = findingFingerprint('src/parse.ts', 'Brace style', '}');
    const position = { position_type: 'text', base_sha: sha('0'), start_sha: sha('9'), head_sha: sha('a'), old_path: 'src/parse.ts', new_path: 'src/parse.ts' };
    expect(posts.map((r) => r.body)).toEqual([
      { body: `**major**: Unchecked input\n\ntext may be undefined.\n\n\`\`\`suggestion:-0+0\n  const parts = (text ?? '').split(',');\n\`\`\`\n\n<!-- iris-finding:${fp.slice(0, 12)} -->`, position: { ...position, new_line: 2 } },
      { body: `**nit**: Brace style\n\nFine, really.\n\n<!-- iris-finding:${braceFp.slice(0, 12)} -->`, position: { ...position, new_line: 4, old_line: 3 } },
    ]);
    const [unchecked] = gitlab.discussions(PROJECT, 7);

    seed(sha('b'), [PARSE_FIXED]);
    await postGitlab(gateway, 'Merge Request Hook', mergeRequest('update', sha('b'), sha('a')), 'u-2');
    await waitFor(allEnded(pr, 2), 20_000, 'the second review');
    const discussions = gitlab.discussions(PROJECT, 7);
    expect(discussions).toHaveLength(2);
    expect(discussions.map((d) => [d.notes.map((n) => n.body.split('\n')[0]), d.notes.every((n) => n.resolved)])).toEqual([
      [['**major**: Unchecked input', 'Outdated: the code this was about changed.'], true],
      [['**nit**: Brace style'], false],
    ]);
    expect(discussions[0]!.notes[1]!.body).toBe(`Outdated: the code this was about changed.\n\n<!-- iris-outdated:${fp.slice(0, 12)} -->`);
    expect(discussions[0]!.id).toBe(unchecked!.id);
  }, 45_000);

  it('a discussion a person resolved before its code changed gets no reply; the finding is kept as resolved', async () => {
    seed(sha('a'), [PARSE]);
    fake.script('main-m', reviewAnswer('One note.', [UNCHECKED]), reviewAnswer('Fixed.', []));
    const gateway = await start();
    await postGitlab(gateway, 'Merge Request Hook', mergeRequest('open', sha('a')), 'u-1');
    await waitFor(allEnded(pr, 1), 20_000, 'the first review');
    const [unchecked] = gitlab.discussions(PROJECT, 7);
    expect(gitlab.resolveDiscussion(PROJECT, 7, unchecked!.id, true)).toBe(true);

    seed(sha('b'), [PARSE_FIXED]);
    const before = gitlab.requests.length;
    await postGitlab(gateway, 'Merge Request Hook', mergeRequest('update', sha('b'), sha('a')), 'u-2');
    await waitFor(allEnded(pr, 2), 20_000, 'the second review');
    const discussionPath = `/merge_requests/7/discussions/${unchecked!.id}`;
    // The discussion was read, and nothing was written to it.
    const touched = gitlab.requests.slice(before).filter((r) => r.path.includes(discussionPath)).map((r) => `${r.method} ${r.path.slice(r.path.indexOf(discussionPath) + discussionPath.length) || '/'}`);
    expect(touched).toEqual(['GET /']);
    expect(gitlab.discussions(PROJECT, 7).map((d) => [d.notes.length, d.notes.every((n) => n.resolved)])).toEqual([[1, true]]);
    const shown = await runIris(['webhook', 'deliveries', '--show', '2'], { home: pr.home });
    expect(shown.stdout.endsWith('\n\nfindings marked outdated:\n  src/parse.ts:2 major Unchecked input (a person resolved its thread first: no reply)\n')).toBe(true);
  }, 45_000);

  it('GitLab refuses a position on a line that is not in the diff (400), as the real API does', async () => {
    seed(sha('a'), [PARSE]);
    const response = await fetch(`${gitlab.url}/projects/${encodeURIComponent(PROJECT)}/merge_requests/7/discussions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'private-token': gitlab.token },
      body: JSON.stringify({ body: 'x', position: { position_type: 'text', base_sha: sha('0'), start_sha: sha('9'), head_sha: sha('a'), old_path: 'src/parse.ts', new_path: 'src/parse.ts', new_line: 40 } }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}' });
  });
});
