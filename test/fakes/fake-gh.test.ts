// The fake GitHub CLI itself: run as the executable it is (through its shebang), in every mode,
// with what it records read back from the record file.
import { execFile } from 'node:child_process';
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
