// `npm run demo` as a new user runs it: the whole script as a subprocess (it starts its own fake
// model, gateway and fake gh), checked on what it prints and that it leaves nothing behind.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ASK_ANSWER, FIRST_HEAD, SECOND_HEAD, SECOND_REVIEW } from '../../scripts/demo/pr-review.js';
import { DEMO_QUESTION, TELEGRAM_ANSWER } from '../../scripts/demo/telegram.js';
import { markdownToTelegramHtml } from '../../src/platforms/telegram/markdown-html.js';
import { REPO_ROOT, cleanEnv } from '../helpers/iris.js';

type Run = { code: number | string; stdout: string; stderr: string };

function runDemo(args: readonly string[] = []): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(REPO_ROOT, 'scripts', 'run-ts.mjs'), join('scripts', 'demo.ts'), ...args],
      // No provider keys from this machine: the demo must not need one.
      { cwd: REPO_ROOT, env: cleanEnv(), timeout: 55_000, maxBuffer: 4 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : (error.signal ?? 1)) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const ACCEPTED = '{"status":"accepted","route":"github-pr","event":"pull_request","delivery_id":"72d3162e-cc78-11e3-81ab-4c9367dc0958"}';

const SCRIPTED_ANSWER = [
  '**Iris demo review** _(scripted: written in scripts/demo/scenario.ts, not by a real model)_',
  '',
  'PR #42 "Add a greeting to the README" by @octocat, `feature/greeting` → `main`.',
  '',
  '- I asked to run `gh pr diff 42 --repo octo-org/hello-world`; Iris refused it (`approval_mode: manual` has no one to ask in an unattended run), so this review has not seen the diff.',
  '- With a real model, and an approval policy that lets it read the diff, the review would go here.',
].join('\n');

describe('npm run demo', () => {
  it('posts a signed pull_request event, runs the scripted agent and shows the recorded comment', { timeout: 60_000 }, async () => {
    const result = await runDemo();
    if (result.code !== 0) throw new Error(`the demo exited with ${result.code}\n--- stdout ---\n${result.stdout}\n--- stderr ---\n${result.stderr}`);
    const out = result.stdout;

    expect(out).toMatch(/\[model\] +scripted fake model at http:\/\/127\.0\.0\.1:\d+\/v1/);
    expect(out).toContain('secret: "<masked>"');
    expect(out).toMatch(/gateway \| gateway listening on 127\.0\.0\.1:\d+ \(pid \d+\)/);
    expect(out).toContain('X-Hub-Signature-256: sha256=');
    expect(out).toContain(`[response]  202 Accepted\n              | ${ACCEPTED}\n`);

    // The tool loop: the scripted tool call, refused under approval_mode manual, and the model told.
    expect(out).toContain('tool call: run_command {"command":"gh pr diff 42 --repo octo-org/hello-world"}');
    expect(out).toContain('| command not run: approval_mode manual: no one to ask in an unattended run');

    // The agent's answer, verbatim, and the comment exactly as the fake gh recorded it.
    expect(out).toContain(`----- answer -----\n${SCRIPTED_ANSWER}\n\n<!-- iris-delivery:1 -->\n------------------\n`);
    expect(out).toContain('gh pr comment 42 --repo octo-org/hello-world --body-file -');
    expect(out).toContain(`|   "body": ${JSON.stringify(`${SCRIPTED_ANSWER}\n\n<!-- iris-delivery:1 -->`)},`);

    expect(out).toContain('gateway | gateway stopped');
    expect(out).toContain('the gateway exited with code 0');
    const removed = /removed (\S*iris-demo-\S+)/.exec(out)?.[1];
    expect(removed).toBeDefined();
    expect(existsSync(removed!)).toBe(false);
    expect(result.stderr).not.toContain('[failed]');
  });

  it('--platform telegram: a message in the fake chat, the scripted answer back through sendMessage', { timeout: 60_000 }, async () => {
    const result = await runDemo(['--platform', 'telegram']);
    if (result.code !== 0) throw new Error(`the demo exited with ${result.code}\n--- stdout ---\n${result.stdout}\n--- stderr ---\n${result.stderr}`);
    const out = result.stdout;

    expect(out).toMatch(/\[telegram\] +fake Telegram Bot API at http:\/\/127\.0\.0\.1:\d+ \(bot @iris_demo_bot\)/);
    expect(out).toContain('| TELEGRAM_BOT_TOKEN=<masked>');
    expect(out).not.toMatch(/7000000001:AA[0-9a-f]{32}/);
    expect(out).toContain('|       allowed_users: [424242]');
    expect(out).toContain('gateway |   platform telegram: connected (connected as @iris_demo_bot)');
    expect(out).toContain(`Ada > ${DEMO_QUESTION}`);
    expect(out).toMatch(/\[answer\] +sendMessage to chat 424242 after \d+\.\d s \(parse_mode HTML\):/);
    // Exactly what the fake Telegram received: the scripted Markdown as Telegram HTML.
    const html = markdownToTelegramHtml(TELEGRAM_ANSWER);
    expect(html).toContain('<b>Iris</b>');
    expect(out).toContain(`----- answer -----\n${html}\n------------------\n`);

    expect(out).toContain('gateway | gateway stopped');
    expect(out).toContain('the gateway exited with code 0');
    const removed = /removed (\S*iris-demo-\S+)/.exec(out)?.[1];
    expect(removed).toBeDefined();
    expect(existsSync(removed!)).toBe(false);
    expect(result.stderr).not.toContain('[failed]');
  });

  it('--pr-review: one session for the PR, the /ask reply, the summary comment edited once after the push, the compare range', { timeout: 60_000 }, async () => {
    const result = await runDemo(['--pr-review']);
    if (result.code !== 0) throw new Error(`the demo exited with ${result.code}\n--- stdout ---\n${result.stdout}\n--- stderr ---\n${result.stderr}`);
    const out = result.stdout;

    expect(out).toContain('|           secret: "<masked>"');
    expect(out.match(/→ 202; event #\d delivered after \d+\.\d s \(session \S+\)/g)).toHaveLength(3);
    // One summary comment: posted by the first review, edited (not posted again) by the second.
    const summary = /summary comment (\d+): posted once, edited once \(by the second review\):/.exec(out)?.[1];
    expect(summary).toBeDefined();
    expect(out).toContain(`PATCH repos/octo-org/hello-world/issues/comments/${summary!}   ${SECOND_REVIEW} ⏎ **Findings**: 0 critical, 0 major, 0 minor, 1 nit ⏎ 1 raised before and not repeated; 1 earlier finding marked outdated ⏎ <!-- iris:pr-review:octo-org/hello-world#42 -->`);
    expect(out).toContain(`| ${SECOND_REVIEW}\n              |\n              | **Findings**: 0 critical, 0 major, 0 minor, 1 nit\n`);
    // The inline suggestion, and on the push the repeat skipped and the fixed finding outdated (issue 37).
    expect(out).toContain('| ```suggestion\n              | Hello, world.\n              | ```\n');
    expect(out).toContain('| findings skipped as repeats:\n              |   docs/greeting.md:2 nit End the greeting with a full stop (open)\n              | findings marked outdated:\n              |   docs/greeting.md:3 minor Typo\n');
    // The /ask answer, a comment of its own with its delivery marker.
    expect(out).toMatch(/reply comment \d+: the answer to \/ask:/);
    expect(out).toContain(`| ${ASK_ANSWER}\n              |\n              | <!-- iris-delivery:2 -->\n`);
    // The push's review: the range asked of gh, and named in the prompt.
    expect(out).toContain(`gh api repos/octo-org/hello-world/compare/${FIRST_HEAD}...${SECOND_HEAD} --jq {status, ahead_by}`);
    expect(out).toContain(`(compare range ${FIRST_HEAD}..${SECOND_HEAD}, 2 commits)`);
    expect(out).toMatch(/\| #3 \S+ pr-review pull_request demo-pr-3 delivered\n/);

    expect(out).toContain('the gateway exited with code 0');
    const removed = /removed (\S*iris-demo-\S+)/.exec(out)?.[1];
    expect(removed).toBeDefined();
    expect(existsSync(removed!)).toBe(false);
    expect(result.stderr).not.toContain('[failed]');
  });

  it('an unknown argument is refused with the ones the demo takes, exit 1', { timeout: 30_000 }, async () => {
    const result = await runDemo(['--pr-reviews']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[failed] unknown argument --pr-reviews: the demo takes --platform telegram, --pr-review, or nothing');
  });

  it('an unknown platform is refused with the ones it plays, exit 1', { timeout: 30_000 }, async () => {
    const result = await runDemo(['--platform', 'discord']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[failed] --platform: discord is not one the demo plays (telegram)');
  });
});
