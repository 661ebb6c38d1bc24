// The fake GitHub CLI itself: run as the executable it is (through its shebang), in every mode,
// with what it records read back from the record file.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const FAKE_GH = fileURLToPath(new URL('./fake-gh.mjs', import.meta.url));
const COMMENT = ['pr', 'comment', '42', '--repo', 'octo/hello', '--body-file', '-'];

type Run = { code: number; stdout: string; stderr: string };
type Recorded = { argv: string[]; body: string | null; cwd: string; at: string; pid: number; envNames?: string[] };

let dir: string;
let recordPath: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'iris-fake-gh-'));
  recordPath = join(dir, 'calls.jsonl');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function gh(args: readonly string[], options: { stdin?: string; env?: Record<string, string> } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      FAKE_GH,
      [...args],
      {
        env: { PATH: process.env.PATH ?? '', FAKE_GH_RECORD: recordPath, ...options.env },
        cwd: dir,
        timeout: 10_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(options.stdin ?? '');
  });
}

async function recorded(): Promise<Recorded[]> {
  const text = await readFile(recordPath, 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Recorded);
}

describe.skipIf(process.platform === 'win32')('fake gh', () => {
  it('is an executable file', async () => {
    expect((await stat(FAKE_GH)).mode & 0o755).toBe(0o755);
  });

  it('refuses to run without FAKE_GH_RECORD', async () => {
    const run = await gh(COMMENT, { env: { FAKE_GH_RECORD: '' }, stdin: 'hi' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('FAKE_GH_RECORD');
  });

  it('posts a comment: prints its URL and records argv, body from stdin, cwd and time', async () => {
    const before = Date.now();
    const run = await gh(COMMENT, { stdin: 'Looks good.\n' });
    expect(run).toEqual({ code: 0, stdout: 'https://github.com/octo/hello/pull/42#issuecomment-2000000001\n', stderr: '' });
    const [call] = await recorded();
    expect(call).toMatchObject({ argv: COMMENT, body: 'Looks good.\n', cwd: dir });
    expect(Date.parse(call?.at ?? '')).toBeGreaterThanOrEqual(before - 1000);
    expect(call?.envNames).toBeUndefined();
  });

  it('accepts the short and --flag=value spellings, a #number and an inline --body', async () => {
    expect((await gh(['pr', 'comment', '#7', '-R', 'o/r', '-F', '-'], { stdin: 'a' })).code).toBe(0);
    expect((await gh(['pr', 'comment', '7', '--repo=o/r', '--body=inline'])).code).toBe(0);
    const bodyFile = join(dir, 'body.md');
    await writeFile(bodyFile, 'from a file');
    expect((await gh(['pr', 'comment', '7', '--repo', 'o/r', '--body-file', bodyFile])).code).toBe(0);
    expect((await recorded()).map((c) => c.body)).toEqual(['a', 'inline', 'from a file']);
  });

  it('uses GH_HOST or a HOST/OWNER/REPO repo for the URL', async () => {
    const viaEnv = await gh(COMMENT, { stdin: 'x', env: { GH_HOST: 'ghe.example.com' } });
    expect(viaEnv.stdout).toMatch(/^https:\/\/ghe\.example\.com\/octo\/hello\/pull\/42#issuecomment-\d+\n$/);
    const viaRepo = await gh(['pr', 'comment', '1', '--repo', 'git.corp/a/b', '--body-file', '-'], { stdin: 'x' });
    expect(viaRepo.stdout).toMatch(/^https:\/\/git\.corp\/a\/b\/pull\/1#/);
  });

  it.each([
    [['issue', 'list'], 'unknown command "issue" for "gh"'],
    [['pr', 'merge', '1'], 'unknown command "merge" for "gh pr"'],
    [['pr', 'comment', '1', '--repo', 'o/r', '--bogus'], 'unknown flag: --bogus'],
    [['pr', 'comment', '1', '--repo'], 'flag needs an argument: --repo'],
    [['pr', 'comment', '--repo', 'o/r', '--body-file', '-'], 'argument required when using the --repo flag'],
    [['pr', 'comment', '1', '2', '--repo', 'o/r', '--body-file', '-'], 'accepts at most 1 arg(s), received 2'],
    [['pr', 'comment', '1', '--repo', 'o/r'], 'flags required when not running interactively'],
    [['pr', 'comment', '1', '--repo', 'o/r', '-b', 'x', '-F', '-'], 'specify only one of'],
    [['pr', 'comment', '1', '--repo', 'nope', '--body-file', '-'], 'expected the "[HOST/]OWNER/REPO" format, got "nope"'],
    [['pr', 'comment', 'feature', '--repo', 'o/r', '--body-file', '-'], 'no pull requests found for branch "feature"'],
  ])('rejects %j like gh: exit 1, %s', async (args, message) => {
    const run = await gh(args, { stdin: 'x' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe('');
    expect(await recorded()).toEqual([expect.objectContaining({ argv: args, body: null })]);
  });

  it('signed out: gh\'s own hint and exit 4, before the body is read', async () => {
    const run = await gh(COMMENT, { stdin: 'x', env: { FAKE_GH_MODE: 'unauthenticated' } });
    expect(run.code).toBe(4);
    expect(run.stderr).toBe(
      'To get started with GitHub CLI, please run:  gh auth login\n' +
        'Alternatively, populate the GH_TOKEN environment variable with a GitHub API authentication token.\n',
    );
    expect((await recorded())[0]?.body).toBeNull();
  });

  it('fail-times:2 fails twice with HTTP 502, then posts', async () => {
    const env = { FAKE_GH_MODE: 'fail-times:2' };
    const runs = [await gh(COMMENT, { stdin: 'x', env }), await gh(COMMENT, { stdin: 'x', env }), await gh(COMMENT, { stdin: 'x', env })];
    expect(runs.map((r) => r.code)).toEqual([1, 1, 0]);
    expect(runs[0]?.stderr).toBe('HTTP 502: Bad Gateway (https://api.github.com/graphql)\n');
    expect(runs[2]?.stdout).toContain('#issuecomment-');
    expect(await readFile(`${recordPath}.count`, 'utf8')).toBe('3');
  });

  it('not-found and pr-not-found speak GraphQL like gh', async () => {
    const repo = await gh(COMMENT, { stdin: 'x', env: { FAKE_GH_MODE: 'not-found' } });
    expect(repo).toMatchObject({
      code: 1,
      stderr: "GraphQL: Could not resolve to a Repository with the name 'octo/hello'. (repository)\n",
    });
    const pr = await gh(COMMENT, { stdin: 'x', env: { FAKE_GH_MODE: 'pr-not-found' } });
    expect(pr).toMatchObject({
      code: 1,
      stderr: 'GraphQL: Could not resolve to a PullRequest with the number of 42. (repository.pullRequest)\n',
    });
  });

  it('refuses a blank body and one over 65,536 characters, as GitHub does', async () => {
    expect(await gh(COMMENT, { stdin: ' \n\t' })).toMatchObject({ code: 1, stderr: 'GraphQL: Body cannot be blank (addComment)\n' });
    const long = await gh(COMMENT, { stdin: 'x'.repeat(65_537) });
    expect(long).toMatchObject({ code: 1, stderr: 'GraphQL: Body is too long (maximum is 65536 characters) (addComment)\n' });
    // Characters, not bytes: 65,536 two-byte characters fit.
    expect((await gh(COMMENT, { stdin: 'é'.repeat(65_536) })).code).toBe(0);
  });

  it('hang: records the body, then sleeps before answering', async () => {
    const started = Date.now();
    const run = await gh(COMMENT, { stdin: 'x', env: { FAKE_GH_MODE: 'hang', FAKE_GH_HANG_MS: '300' } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(run.code).toBe(0);
    expect((await recorded())[0]?.body).toBe('x');
  });

  it('records env var names (never values) only when asked', async () => {
    await gh(COMMENT, { stdin: 'x', env: { FAKE_GH_RECORD_ENV: '1', SOME_SECRET: 'hunter2-value' } });
    const [call] = await recorded();
    expect(call?.envNames).toContain('SOME_SECRET');
    expect(call?.envNames).toEqual([...(call?.envNames ?? [])].sort());
    expect(await readFile(recordPath, 'utf8')).not.toContain('hunter2-value');
  });

  it('auth status: signed in, or gh\'s signed-out message with exit 1', async () => {
    const ok = await gh(['auth', 'status'], { env: { GH_TOKEN: 'x' } });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('✓ Logged in to github.com account iris-fake (GH_TOKEN)');
    const out = await gh(['auth', 'status'], { env: { FAKE_GH_MODE: 'unauthenticated' } });
    expect(out).toMatchObject({ code: 1, stderr: 'You are not logged into any GitHub hosts. To log in, run: gh auth login\n' });
  });

  it('rejects an unknown mode with exit 2', async () => {
    const run = await gh(COMMENT, { stdin: 'x', env: { FAKE_GH_MODE: 'sometimes' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown FAKE_GH_MODE');
  });

  it('prints a version', async () => {
    expect((await gh(['--version'])).stdout).toMatch(/^gh version \d+\.\d+\.\d+/);
  });
});

describe.skipIf(process.platform === 'win32')('fake gh api', () => {
  const COMMENTS = 'repos/octo/hello/issues/42/comments';
  const post = (body: string, method = ['--method', 'POST']) => gh(['api', ...method, COMMENTS, '--input', '-'], { stdin: JSON.stringify({ body }) });
  const edit = (id: number, body: string, method = ['--method', 'PATCH']) =>
    gh(['api', ...method, `repos/octo/hello/issues/comments/${id}`, '--input', '-'], { stdin: JSON.stringify({ body }) });
  const list = async (query = '') => JSON.parse((await gh(['api', `${COMMENTS}${query}`])).stdout) as { id: number; body: string }[];
  type Comment = { id: number; html_url: string; body: string; user: { login: string }; created_at: string; updated_at: string };

  it('user: the signed-in login, FAKE_GH_LOGIN or iris-bot; --jq .login prints it raw', async () => {
    expect(JSON.parse((await gh(['api', 'user'])).stdout)).toEqual({ login: 'iris-bot', id: 1, type: 'User' });
    expect(await gh(['api', 'user', '--jq', '.login'], { env: { FAKE_GH_LOGIN: 'review-bot' } })).toEqual({ code: 0, stdout: 'review-bot\n', stderr: '' });
    expect((await recorded()).map((c) => c.argv)).toEqual([['api', 'user'], ['api', 'user', '--jq', '.login']]);
  });

  it('POST creates a comment from {"body"} on stdin, in the store gh pr comment uses, and prints GitHub\'s JSON', async () => {
    await gh(COMMENT, { stdin: 'first' });
    const run = await post('second', ['-X', 'POST']);
    expect(run.code).toBe(0);
    const comment = JSON.parse(run.stdout) as Comment;
    expect(comment).toEqual({
      id: 2_000_000_002,
      html_url: 'https://github.com/octo/hello/pull/42#issuecomment-2000000002',
      body: 'second',
      user: { login: 'iris-bot' },
      created_at: comment.created_at,
      updated_at: comment.created_at,
    });
    expect(Date.parse(comment.created_at)).toBeGreaterThan(0);
    expect((await recorded())[1]).toMatchObject({ argv: ['api', '-X', 'POST', COMMENTS, '--input', '-'], body: '{"body":"second"}' });
    expect((await list()).map((c) => [c.id, c.body])).toEqual([[2_000_000_001, 'first'], [2_000_000_002, 'second']]);
  });

  it('POST with --input and no --method is a POST, as in gh', async () => {
    expect((await gh(['api', COMMENTS, '--input', '-'], { stdin: '{"body":"x"}' })).code).toBe(0);
    expect((await list()).map((c) => c.body)).toEqual(['x']);
  });

  it('refuses a blank or too long body with 422, and bad JSON with 400', async () => {
    expect(await post(' ')).toEqual({ code: 1, stdout: '', stderr: 'gh: Validation Failed (HTTP 422)\n' });
    expect((await post('x'.repeat(65_537))).stderr).toBe('gh: Validation Failed (HTTP 422)\nbody is too long (maximum is 65536 characters)\n');
    expect(await gh(['api', '-X', 'POST', COMMENTS, '--input', '-'], { stdin: 'body=x' })).toMatchObject({ code: 1, stderr: 'gh: Problems parsing JSON (HTTP 400)\n' });
    expect(await list()).toEqual([]);
  });

  it('PATCH edits the stored comment and prints it; listing and the store show the edit', async () => {
    const { id } = JSON.parse((await post('old')).stdout) as Comment;
    const run = await edit(id, 'new');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ id, body: 'new', user: { login: 'iris-bot' } });
    expect((await list()).map((c) => c.body)).toEqual(['new']);
    expect((await readFile(`${recordPath}.comments.jsonl`, 'utf8')).trim().split('\n').map((l) => (JSON.parse(l) as Comment).body)).toEqual(['new']);
  });

  it('DELETE removes a comment and prints nothing; PATCH or DELETE of an unknown id is 404', async () => {
    const { id } = JSON.parse((await post('doomed')).stdout) as Comment;
    expect(await gh(['api', '-X', 'DELETE', `repos/octo/hello/issues/comments/${id}`])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await list()).toEqual([]);
    expect(await edit(id, 'again', ['-X', 'PATCH'])).toEqual({ code: 1, stdout: '', stderr: 'gh: Not Found (HTTP 404)\n' });
    expect(await gh(['api', '--method', 'DELETE', `repos/octo/hello/issues/comments/${id}`])).toMatchObject({ code: 1, stderr: 'gh: Not Found (HTTP 404)\n' });
    expect(await gh(['api', '-X', 'PUT', COMMENTS])).toMatchObject({ code: 1, stderr: 'gh: Not Found (HTTP 404)\n' });
  });

  it('lists in pages: 30 by default, per_page and page, every page with --paginate', async () => {
    for (let i = 0; i < 35; i++) await post(`c${i}`);
    expect((await list()).length).toBe(30);
    expect((await list('?per_page=10&page=4')).map((c) => c.body)).toEqual(['c30', 'c31', 'c32', 'c33', 'c34']);
    const all = await gh(['api', '--paginate', `${COMMENTS}?per_page=20`]);
    const pages = all.stdout.trim().split('\n').map((l) => (JSON.parse(l) as Comment[]).length);
    expect(pages).toEqual([20, 15]);
  });

  it('--jq: the marker filters print one line per match, page by page; others are refused', async () => {
    for (let i = 0; i < 3; i++) await post(i === 1 ? 'plain' : `mark ${i} <!-- m -->`);
    const ids = await gh(['api', '--paginate', `${COMMENTS}?per_page=1`, '--jq', '.[] | select(.body | contains("<!-- m -->")) | {id, html_url, login: .user.login}']);
    expect(ids.stdout).toBe(
      '{"html_url":"https://github.com/octo/hello/pull/42#issuecomment-2000000001","id":2000000001,"login":"iris-bot"}\n' +
        '{"html_url":"https://github.com/octo/hello/pull/42#issuecomment-2000000003","id":2000000003,"login":"iris-bot"}\n',
    );
    const urls = await gh(['api', COMMENTS, '--jq', '.[] | select(.body | contains("plain")) | .html_url']);
    expect(urls.stdout).toBe('https://github.com/octo/hello/pull/42#issuecomment-2000000002\n');
    expect(await gh(['api', COMMENTS, '--jq', '.[0]'])).toMatchObject({ code: 1, stderr: 'fake-gh: unsupported --jq filter ".[0]"\n' });
  });

  describe('compare', () => {
    // a ← b ← c, and a ← d: c and d diverged at a.
    const [a, b, c, d] = ['a'.repeat(40), 'b'.repeat(40), 'c'.repeat(40), 'd'.repeat(40)];
    const compare = async (base: string, head: string, jq?: string) => {
      const graph = join(dir, 'commits.json');
      await writeFile(graph, JSON.stringify({ [a]: null, [b]: a, [c]: b, [d]: a, ['e'.repeat(40)]: null }));
      return gh(['api', `repos/octo/hello/compare/${base}...${head}`, ...(jq ? ['--jq', jq] : [])], { env: { FAKE_GH_COMMITS: graph } });
    };

    it('ahead: GitHub\'s shape, commits from the merge base to head', async () => {
      const run = await compare(a, c);
      expect(JSON.parse(run.stdout)).toEqual({
        status: 'ahead',
        ahead_by: 2,
        behind_by: 0,
        total_commits: 2,
        base_commit: { sha: a },
        merge_base_commit: { sha: a },
        commits: [
          { sha: b, parents: [{ sha: a }] },
          { sha: c, parents: [{ sha: b }] },
        ],
      });
    });

    it.each([
      ['identical', c, c, '{"ahead_by":0,"status":"identical"}'],
      ['behind', c, a, '{"ahead_by":0,"status":"behind"}'],
      ['diverged', c, d, '{"ahead_by":1,"status":"diverged"}'],
      ['ahead, by short shas', 'aaaaaaa', 'ccccccc', '{"ahead_by":2,"status":"ahead"}'],
    ])('%s, through --jq {status, ahead_by}', async (_name, base, head, stdout) => {
      expect(await compare(base, head, '{status, ahead_by}')).toEqual({ code: 0, stdout: `${stdout}\n`, stderr: '' });
    });

    it('an unknown sha, or unrelated histories, is a 404 with GitHub\'s message', async () => {
      expect(await compare('1234567', c)).toEqual({ code: 1, stdout: '', stderr: 'gh: No commit found for SHA: 1234567 (HTTP 404)\n' });
      expect((await compare(a, '7654321')).stderr).toBe('gh: No commit found for SHA: 7654321 (HTTP 404)\n');
      expect((await compare(a, 'e'.repeat(40))).stderr).toBe(`gh: No common ancestor between ${a} and ${'e'.repeat(40)}. (HTTP 404)\n`);
    });
  });

  it('signed out: exit 4 before --input is read; hang: records, then sleeps', async () => {
    const out = await gh(['api', '-X', 'POST', COMMENTS, '--input', '-'], { stdin: '{"body":"x"}', env: { FAKE_GH_MODE: 'unauthenticated' } });
    expect(out).toEqual({ code: 4, stdout: '', stderr: 'To get started with GitHub CLI, please run:  gh auth login\n' });
    expect((await recorded())[0]?.body).toBeNull();
    const started = Date.now();
    expect((await gh(['api', 'user'], { env: { FAKE_GH_MODE: 'hang', FAKE_GH_HANG_MS: '300' } })).code).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('fakes run at once: every post is kept with an id of its own, and an edit never hides or drops a comment', async () => {
    const first = JSON.parse((await post('first')).stdout) as { id: number };
    const runs = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? post(`post ${i}`) : edit(first.id, `edit ${i}`))));
    expect(runs.map((run) => run.code)).toEqual(runs.map(() => 0));
    const all = await list('?per_page=100');
    expect(all).toHaveLength(7);
    expect(new Set(all.map((c) => c.id)).size).toBe(7);
    expect(all[0]!.body).toMatch(/^edit \d+$/);
  });

  it('FAKE_GH_API_HANG_MS: a POST or PATCH writes, then lingers before answering (killed there, the comment stays); reads answer at once', async () => {
    const env = { FAKE_GH_API_HANG_MS: '60000' };
    const store = `${recordPath}.comments.jsonl`;
    const comments = async () => (await readFile(store, 'utf8').catch(() => '')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: number; body: string });
    const lingering = async (args: string[], body: string, written: (all: { id: number; body: string }[]) => boolean) => {
      const child = spawn(FAKE_GH, args, { env: { PATH: process.env.PATH ?? '', FAKE_GH_RECORD: recordPath, ...env }, stdio: ['pipe', 'pipe', 'ignore'] });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
      child.stdin.end(JSON.stringify({ body }));
      for (let i = 0; i < 200 && !written(await comments()); i++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(written(await comments())).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(child.exitCode).toBeNull(); // written, still not answered
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      expect(stdout).toBe('');
    };
    await lingering(['api', '--method', 'POST', COMMENTS, '--input', '-'], 'posted', (all) => all.length === 1);
    const id = (await comments())[0]!.id;
    await lingering(['api', '--method', 'PATCH', `repos/octo/hello/issues/comments/${id}`, '--input', '-'], 'edited', (all) => all[0]?.body === 'edited');
    expect((await comments()).map((c) => c.body)).toEqual(['edited']);
    const started = Date.now();
    expect((await gh(['api', COMMENTS], { env })).code).toBe(0);
    expect((await gh(['api', '--method', 'PATCH', 'repos/octo/hello/issues/comments/1', '--input', '-'], { stdin: '{"body":"x"}', env })).code).toBe(1);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
