// forge_comment: the pure rules in tables, then the real process code against the fake GitHub CLI
// (test/fakes/fake-gh.mjs), asserting what gh was given: argv, body and environment.
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GhRun } from './gh-binary.js';
import {
  EMPTY_OUTPUT_BODY,
  MAX_COMMENT_CHARS,
  buildCommentBody,
  deliveryMarker,
  classifyGhRun,
  deliverForgeComment,
  ghBinary,
  postForgeComment,
  validateForgeTarget,
} from './forge-comment.js';
import type { ForgeCommentFailureCode, ForgeCommentInput } from './forge-comment.js';
import { stringContaining, stringMatching } from '../../test/helpers/documents.js';

const FAKE_GH = fileURLToPath(new URL('../../test/fakes/fake-gh.mjs', import.meta.url));

describe('validateForgeTarget', () => {
  it.each([
    [{ repo: 'octo/hello', pr_number: '42' }, 'octo/hello', 42],
    [{ repo: 'Octo-Org/hello.world_2', pr_number: '1' }, 'Octo-Org/hello.world_2', 1],
    [{ repo: ' octo/.github ', pr_number: ' 7 ' }, 'octo/.github', 7],
    [{ repo: 'o/r', pr_number: '2147483647' }, 'o/r', 2_147_483_647],
  ])('accepts %j', (extra, repo, prNumber) => {
    expect(validateForgeTarget(extra)).toEqual({ ok: true, repo, prNumber });
  });

  it.each([
    [{ pr_number: '1' }, 'deliver_extra.repo is required'],
    [{ repo: 'o/r' }, 'deliver_extra.pr_number is required'],
    [{ repo: 'o/r', pr_number: '' }, 'deliver_extra.pr_number is required'],
    [{ repo: 'octo', pr_number: '1' }, 'owner/name'],
    [{ repo: 'a/b/c', pr_number: '1' }, 'owner/name'],
    [{ repo: 'github.com/a/b', pr_number: '1' }, 'owner/name'],
    [{ repo: '-R/evil', pr_number: '1' }, 'owner/name'],
    [{ repo: 'o/--body=x', pr_number: '1' }, 'owner/name'],
    [{ repo: 'o/r name', pr_number: '1' }, 'owner/name'],
    [{ repo: 'o/r;id', pr_number: '1' }, 'owner/name'],
    [{ repo: 'o/$(id)', pr_number: '1' }, 'owner/name'],
    [{ repo: 'o/..', pr_number: '1' }, 'owner/name'],
    [{ repo: './r', pr_number: '1' }, 'owner/name'],
    [{ repo: '/r', pr_number: '1' }, 'owner/name'],
    [{ repo: `o/${'r'.repeat(101)}`, pr_number: '1' }, 'owner/name'],
    [{ repo: 'o/r', pr_number: '0' }, 'positive integer'],
    [{ repo: 'o/r', pr_number: '-1' }, 'positive integer'],
    [{ repo: 'o/r', pr_number: '+1' }, 'positive integer'],
    [{ repo: 'o/r', pr_number: '01' }, 'positive integer'],
    [{ repo: 'o/r', pr_number: '1.5' }, 'positive integer'],
    [{ repo: 'o/r', pr_number: '1e3' }, 'positive integer'],
    [{ repo: 'o/r', pr_number: '0x10' }, 'positive integer'],
    [{ repo: 'o/r', pr_number: '2147483648' }, 'positive integer'],
    [{ repo: 'o/r', pr_number: '9'.repeat(400) }, 'positive integer'],
    [{ repo: 'o/r', pr_number: '{pull_request.number}' }, 'positive integer'],
  ])('rejects %j', (extra, error) => {
    const check = validateForgeTarget(extra);
    expect(check.ok).toBe(false);
    expect(check).toMatchObject({ error: stringContaining(error) });
  });

  it('quotes a rejected value briefly', () => {
    expect(validateForgeTarget({ repo: 'o/r', pr_number: 'x'.repeat(1_000) })).toMatchObject({
      error: stringMatching(/got "x{120}…"$/),
    });
  });
});

describe('buildCommentBody', () => {
  it('sends an answer as it is, SKIP included', () => {
    expect(buildCommentBody('Looks good.\n')).toBe('Looks good.\n');
    expect(buildCommentBody('SKIP')).toBe('SKIP');
    expect(buildCommentBody('x'.repeat(MAX_COMMENT_CHARS))).toHaveLength(MAX_COMMENT_CHARS);
  });

  it('turns a blank answer into a note, since GitHub refuses a blank body', () => {
    expect(buildCommentBody('')).toBe(EMPTY_OUTPUT_BODY);
    expect(buildCommentBody(' \n\t')).toBe(EMPTY_OUTPUT_BODY);
  });

  it('cuts a long answer to GitHub\'s limit and says so at the end', () => {
    const body = buildCommentBody(`${'a'.repeat(70_000)}TAIL`);
    expect(body).toHaveLength(MAX_COMMENT_CHARS);
    expect(body.startsWith('a'.repeat(60_000))).toBe(true);
    expect(body).not.toContain('TAIL');
    expect(body).toMatch(/\n\n---\n_\(Cut by Iris: GitHub allows 65536 characters, the answer had 70004\.\)_$/);
  });

  it('ends with the hidden delivery marker when given one, also after a cut', () => {
    expect(deliveryMarker(12)).toBe('<!-- iris-delivery:12 -->');
    expect(buildCommentBody('Looks good.', deliveryMarker(12))).toBe('Looks good.\n\n<!-- iris-delivery:12 -->');
    expect(buildCommentBody(' ', deliveryMarker(3))).toBe(`${EMPTY_OUTPUT_BODY}\n\n<!-- iris-delivery:3 -->`);
    const cut = buildCommentBody('a'.repeat(70_000), deliveryMarker(12));
    expect(cut).toHaveLength(MAX_COMMENT_CHARS);
    expect(cut).toMatch(/the answer had 70000\.\)_\n\n<!-- iris-delivery:12 -->$/);
  });

  it('never splits a surrogate pair at the cut', () => {
    const emoji = '😀'.repeat(40_000); // 80,000 UTF-16 units
    const body = buildCommentBody(emoji);
    const kept = body.slice(0, body.indexOf('\n\n---\n'));
    expect(kept.length % 2).toBe(0);
    expect([...kept].every((ch) => ch === '😀')).toBe(true);
    expect(body.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
  });
});

describe('classifyGhRun', () => {
  const context = { bin: 'gh', repo: 'octo/hello', prNumber: 42, timeoutMs: 30_000 };
  const exited = (exitCode: number, stderr: string, stdout = ''): GhRun => ({ kind: 'exited', exitCode, stdout, stderr });

  it('reads the comment URL from stdout', () => {
    expect(classifyGhRun(exited(0, '', 'https://github.com/octo/hello/pull/42#issuecomment-1\n'), context)).toEqual({
      ok: true,
      url: 'https://github.com/octo/hello/pull/42#issuecomment-1',
    });
    expect(classifyGhRun(exited(0, '', ''), context)).toEqual({ ok: true });
  });

  const cases: ReadonlyArray<readonly [string, GhRun, ForgeCommentFailureCode, boolean, string]> = [
    ['missing binary', { kind: 'not_started', errno: 'ENOENT', message: 'spawn gh ENOENT' }, 'gh_missing', false, 'IRIS_GH_BIN'],
    ['unrunnable binary', { kind: 'not_started', errno: 'EACCES', message: 'spawn gh EACCES' }, 'gh_missing', false, 'EACCES'],
    ['exit 4', exited(4, 'To get started with GitHub CLI, please run:  gh auth login\n'), 'gh_unauthenticated', false, '`gh auth login`'],
    ['a rejected token', exited(1, 'HTTP 401: Bad credentials (https://api.github.com/graphql)\nTry authenticating with:  gh auth login\n'), 'gh_unauthenticated', false, 'GH_TOKEN'],
    ['authentication required', exited(1, 'error: authentication required\n'), 'gh_unauthenticated', false, 'gh auth login'],
    ['missing repository', exited(1, "GraphQL: Could not resolve to a Repository with the name 'octo/hello'. (repository)\n"), 'repo_not_found', false, 'octo/hello'],
    ['missing pull request', exited(1, 'GraphQL: Could not resolve to a PullRequest with the number of 42. (repository.pullRequest)\n'), 'pr_not_found', false, '#42'],
    ['timeout', { kind: 'timeout', stderr: '' }, 'timeout', true, '30000 ms'],
    ['cancel', { kind: 'cancelled' }, 'cancelled', true, 'cancelled'],
    ['a server error', exited(1, 'HTTP 502: Bad Gateway (https://api.github.com/graphql)\n'), 'failed', true, 'gh exited with 1: HTTP 502: Bad Gateway'],
    ['a blank body refused', exited(1, 'GraphQL: Body cannot be blank (addComment)\n'), 'failed', false, 'Body cannot be blank'],
    ['a long body refused', exited(1, 'GraphQL: Body is too long (maximum is 65536 characters) (addComment)\n'), 'failed', false, 'too long'],
    ['too much output', { kind: 'output_overflow', stderr: '' }, 'failed', false, 'more output'],
    ['a foreign signal', { kind: 'killed', signal: 'SIGTERM', stderr: '' }, 'killed', true, 'SIGTERM'],
    ['a silent failure', exited(2, ''), 'failed', true, 'gh exited with 2'],
    ['a REST 404', exited(1, 'gh: Not Found (HTTP 404)\n'), 'not_found', false, 'GitHub answered 404 in octo/hello: gone'],
    ['a REST 422', exited(1, 'gh: Validation Failed (HTTP 422)\n'), 'failed', false, 'Validation Failed'],
    ['a REST 502', exited(1, 'gh: Bad Gateway (HTTP 502)\n'), 'failed', true, 'Bad Gateway'],
  ];

  it.each(cases)('%s → %s (retryable: %s)', (_name, run, code, retryable, text) => {
    const result = classifyGhRun(run, context);
    expect(result).toMatchObject({ ok: false, code, retryable });
    expect(result).toMatchObject({ message: stringContaining(text) });
  });

  it('quotes only the first line of stderr, bounded, with credentials redacted', () => {
    const token = `ghp_${'A'.repeat(36)}`;
    const result = classifyGhRun(exited(1, `\n  boom ${token} Bearer abcdefghijklmnop ${'z'.repeat(1_000)}\nsecond line\n`), context);
    const message = result.ok ? '' : result.message;
    expect(message).toMatch(/^gh exited with 1: boom \[redacted\] Bearer \[redacted\] z+…$/);
    expect(message.length).toBeLessThan(400);
    expect(message).not.toContain('second line');
  });
});

type Recorded = { argv: string[]; body: string | null; cwd: string; pid: number; envNames?: string[] };

describe.skipIf(process.platform === 'win32')('posting through the fake gh', () => {
  let dir: string;
  let binDir: string;
  let recordPath: string;
  const strays: number[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'iris-forge-'));
    binDir = join(dir, 'bin');
    await mkdir(binDir);
    await symlink(FAKE_GH, join(binDir, 'gh'));
    recordPath = join(dir, 'gh-calls.jsonl');
  });
  afterEach(async () => {
    for (const pid of strays.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await rm(dir, { recursive: true, force: true });
  });

  /** gh found on PATH, as on a gateway host. */
  function gatewayEnv(extra: Record<string, string> = {}): Record<string, string> {
    return { PATH: `${binDir}:${process.env.PATH ?? ''}`, HOME: dir, FAKE_GH_RECORD: recordPath, ...extra };
  }

  function input(body: string, env: Record<string, string>, more: Partial<ForgeCommentInput> = {}): ForgeCommentInput {
    return { repo: 'octo/hello', prNumber: 42, body, env, ...more };
  }

  async function calls(): Promise<Recorded[]> {
    const text = await readFile(recordPath, 'utf8').catch(() => '');
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Recorded);
  }

  const ARGV = ['pr', 'comment', '42', '--repo', 'octo/hello', '--body-file', '-'];

  it('runs `gh pr comment` with the body on stdin, verbatim, and returns the comment URL', async () => {
    const body = "Review: `rm -rf $HOME`; $(id) 'single' \"double\" | & > <\n-- --repo other/repo\n";
    const result = await postForgeComment(input(body, gatewayEnv()));
    expect(result).toEqual({ ok: true, url: 'https://github.com/octo/hello/pull/42#issuecomment-2000000001' });
    expect(await calls()).toEqual([expect.objectContaining({ argv: ARGV, body, cwd: tmpdir() })]);
  });

  it('uses IRIS_GH_BIN when set, with no gh on PATH', async () => {
    const env = { ...gatewayEnv(), PATH: process.env.PATH ?? '', IRIS_GH_BIN: FAKE_GH };
    expect(ghBinary(env)).toBe(FAKE_GH);
    expect(await postForgeComment(input('hi', env))).toMatchObject({ ok: true });
    expect((await calls())[0]?.argv).toEqual(ARGV);
  });

  it('delivers an empty answer as a note, and a long one cut to fit', async () => {
    expect(await postForgeComment(input('', gatewayEnv()))).toMatchObject({ ok: true });
    expect(await postForgeComment(input('é'.repeat(100_000), gatewayEnv()))).toMatchObject({ ok: true });
    const [empty, long] = await calls();
    expect(empty?.body).toBe(EMPTY_OUTPUT_BODY);
    expect(long?.body).toHaveLength(MAX_COMMENT_CHARS);
    expect(long?.body).toMatch(/Cut by Iris/);
  });

  it('gives gh its credentials and nothing else secret', async () => {
    const env = gatewayEnv({
      FAKE_GH_RECORD_ENV: '1',
      GH_TOKEN: 'gho_fake',
      GITHUB_TOKEN: 'ghs_fake',
      GH_HOST: 'github.com',
      GH_CONFIG_DIR: join(dir, 'gh'),
      XDG_CONFIG_HOME: join(dir, 'xdg'),
      HTTPS_PROXY: 'http://127.0.0.1:9',
      OPENROUTER_API_KEY: 'sk-or-v1-secret',
      OPENAI_API_KEY: 'sk-secret',
      ANTHROPIC_API_KEY: 'sk-ant-secret',
      CLOUD_HOSTED_API_KEY: 'cloud-secret',
      CLOUD_CLIENT_SECRET: 'client-secret',
      WEBHOOK_SECRET: 'whsec',
      GH_DEBUG: 'api',
    });
    expect(await postForgeComment(input('hi', env))).toMatchObject({ ok: true });
    const names = (await calls())[0]?.envNames ?? [];
    expect(names).toEqual(expect.arrayContaining(['PATH', 'HOME', 'GH_TOKEN', 'GITHUB_TOKEN', 'GH_HOST', 'GH_CONFIG_DIR', 'XDG_CONFIG_HOME', 'HTTPS_PROXY']));
    for (const secret of ['OPENROUTER_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'CLOUD_HOSTED_API_KEY', 'CLOUD_CLIENT_SECRET', 'WEBHOOK_SECRET', 'GH_DEBUG']) {
      expect(names).not.toContain(secret);
    }
    const recordedText = await readFile(recordPath, 'utf8');
    expect(recordedText).not.toContain('gho_fake'); // never on the command line
  });

  it('signed out: gh_unauthenticated, not retryable, and the unread stdin does not crash the run', async () => {
    const result = await postForgeComment(input('hi', gatewayEnv({ FAKE_GH_MODE: 'unauthenticated' })));
    expect(result).toMatchObject({ ok: false, code: 'gh_unauthenticated', retryable: false });
    expect(result).toMatchObject({ message: stringContaining('run `gh auth login` there, or set GH_TOKEN') });
    expect((await calls())[0]?.body).toBeNull();
  });

  it('a repository gh cannot see: repo_not_found; a pull request that is not there: pr_not_found', async () => {
    expect(await postForgeComment(input('hi', gatewayEnv({ FAKE_GH_MODE: 'not-found' })))).toMatchObject({
      ok: false,
      code: 'repo_not_found',
      retryable: false,
      message: stringContaining("Could not resolve to a Repository with the name 'octo/hello'"),
    });
    expect(await postForgeComment(input('hi', gatewayEnv({ FAKE_GH_MODE: 'pr-not-found' })))).toMatchObject({
      ok: false,
      code: 'pr_not_found',
      retryable: false,
    });
  });

  it('a server error: failed, retryable, quoting gh', async () => {
    expect(await postForgeComment(input('hi', gatewayEnv({ FAKE_GH_MODE: 'fail-times:1' })))).toEqual({
      ok: false,
      code: 'failed',
      retryable: true,
      message: 'gh exited with 1: HTTP 502: Bad Gateway (https://api.github.com/graphql)',
    });
  });

  it('gh not installed: gh_missing, saying how to fix it', async () => {
    const noGh = await postForgeComment(input('hi', { ...gatewayEnv(), PATH: join(dir, 'empty') }));
    expect(noGh).toMatchObject({ ok: false, code: 'gh_missing', retryable: false });
    expect(noGh).toMatchObject({ message: stringMatching(/install it .*or set IRIS_GH_BIN/) });
    const wrongPath = await postForgeComment(input('hi', gatewayEnv({ IRIS_GH_BIN: join(dir, 'nope', 'gh') })));
    expect(wrongPath).toMatchObject({ ok: false, code: 'gh_missing', message: stringContaining(join(dir, 'nope', 'gh')) });
  });

  it('a hung gh: stopped at the timeout, retryable, and the process is gone', async () => {
    const started = Date.now();
    const result = await postForgeComment(input('hi', gatewayEnv({ FAKE_GH_MODE: 'hang' }), { timeoutMs: 1_000 }));
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(result).toMatchObject({ ok: false, code: 'timeout', retryable: true, message: stringContaining('1000 ms') });
    const pid = (await calls())[0]?.pid ?? 0;
    expect(pid).toBeGreaterThan(0);
    strays.push(pid);
    expect(() => process.kill(pid, 0)).toThrow();
  });

  it('a wrapper that does not exec gh still ends at the timeout, not when gh does', async () => {
    const wrapper = join(dir, 'gh-wrapper');
    await writeFile(wrapper, `#!/bin/sh\n"${process.execPath}" "${FAKE_GH}" "$@"\n`);
    await chmod(wrapper, 0o755);
    const started = Date.now();
    // The orphaned gh sleeps 20 s at most, should it record its pid too late to be killed below.
    const env = gatewayEnv({ FAKE_GH_MODE: 'hang', FAKE_GH_HANG_MS: '20000', IRIS_GH_BIN: wrapper });
    const result = await postForgeComment(input('hi', env, { timeoutMs: 1_000 }));
    strays.push(...(await calls()).map((c) => c.pid));
    expect(result).toMatchObject({ ok: false, code: 'timeout', retryable: true });
    expect(Date.now() - started).toBeLessThan(6_000);
  });

  it('cancelled while gh runs: cancelled, and no retry', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const slept: number[] = [];
    const delivery = await deliverForgeComment(
      input('hi', gatewayEnv({ FAKE_GH_MODE: 'hang' }), { signal: controller.signal }),
      { sleep: async (ms) => void slept.push(ms) },
    );
    expect(delivery.result).toMatchObject({ ok: false, code: 'cancelled' });
    expect(delivery.attempts).toHaveLength(1);
    expect(slept).toEqual([]);
  });

  describe('deliverForgeComment', () => {
    it('retries a retryable failure with the default backoff until gh succeeds', async () => {
      const slept: number[] = [];
      const delivery = await deliverForgeComment(input('hi', gatewayEnv({ FAKE_GH_MODE: 'fail-times:2' })), {
        sleep: async (ms) => void slept.push(ms),
      });
      expect(delivery.result).toMatchObject({ ok: true, url: stringContaining('/octo/hello/pull/42#issuecomment-') });
      expect(delivery.attempts.map((a) => (a.ok ? 'ok' : a.code))).toEqual(['failed', 'failed', 'ok']);
      expect(slept).toEqual([1_000, 4_000]);
      const seen = await calls();
      expect(seen.map((c) => c.argv)).toEqual([ARGV, ARGV, ARGV]);
      expect(seen.map((c) => c.body)).toEqual(['hi', 'hi', 'hi']);
    });

    it('gives up after 4 tries by default, returning the last failure', async () => {
      const slept: number[] = [];
      const delivery = await deliverForgeComment(input('hi', gatewayEnv({ FAKE_GH_MODE: 'fail-times:10' })), {
        sleep: async (ms) => void slept.push(ms),
      });
      expect(delivery.result).toMatchObject({ ok: false, code: 'failed', retryable: true });
      expect(delivery.attempts).toHaveLength(4);
      expect(slept).toEqual([1_000, 4_000, 15_000]);
      expect(await calls()).toHaveLength(4);
    });

    it('takes its own attempts and schedule', async () => {
      const slept: number[] = [];
      const delivery = await deliverForgeComment(input('hi', gatewayEnv({ FAKE_GH_MODE: 'fail-times:10' })), {
        attempts: 3,
        backoffMs: [5],
        sleep: async (ms) => void slept.push(ms),
      });
      expect(delivery.attempts).toHaveLength(3);
      expect(slept).toEqual([5, 5]);
    });

    it('does not retry what cannot succeed', async () => {
      const slept: number[] = [];
      const delivery = await deliverForgeComment(input('hi', gatewayEnv({ FAKE_GH_MODE: 'unauthenticated' })), {
        sleep: async (ms) => void slept.push(ms),
      });
      expect(delivery.result).toMatchObject({ ok: false, code: 'gh_unauthenticated' });
      expect(delivery.attempts).toHaveLength(1);
      expect(slept).toEqual([]);
    });
  });
});
