#!/usr/bin/env node
// A stand-in for the GitHub CLI (`gh`), for the forge_comment delivery in tests and in
// `npm run demo`. It answers the commands Iris runs, the way gh 2.x does:
//
//   gh pr comment <number> --repo <owner/name> --body-file -    (also -R, -F, --body/-b, --flag=value)
//   gh auth status
//   gh --version
//   gh api (fake-gh-api.mjs), with --paginate, --jq/-q, -X/--method, --input <file|->:
//     user                                              {login, id, type}
//     repos/<owner>/<name>/issues/<n>/comments[?query]  GET: the comments, oldest first, in pages of
//                                                       per_page (default 30, at most 100) from page;
//                                                       --paginate prints every page, one JSON array each
//     repos/<owner>/<name>/issues/<n>/comments          POST {"body"} on stdin: posts one
//     repos/<owner>/<name>/issues/comments/<id>         PATCH {"body"}: edits; DELETE: deletes (prints
//                                                       nothing); an unknown id is `gh: Not Found (HTTP 404)`
//     repos/<owner>/<name>/compare/<base>...<head>      over the graph in FAKE_GH_COMMITS (below)
//     repos/<owner>/<name>/pulls/<n>, …/pulls/<n>/files, …/contents/<path>?ref=   over FAKE_GH_PULLS
//                                                       (fake-gh-pulls.mjs says how)
//   any other endpoint or method answers `gh: Not Found (HTTP 404)`, exit 1.
//
// Comments that were posted (exit 0), by `gh pr comment` or `gh api`, are kept in
// `<FAKE_GH_RECORD>.comments.jsonl`, one JSON line each ({repo, number, id, html_url, body, login
// (the author: FAKE_GH_LOGIN of the posting gh), and from `gh api` created_at, updated_at}); ids are
// 2,000,000,000 plus the record's line count. An
// edit or a deletion rewrites the file, so it always holds the comments as they are now. Fakes run
// at once are safe: every write to the record or the store holds a lock (`<FAKE_GH_RECORD>.lock`,
// a directory), and a rewrite renames a new file over the old, so a reader sees one or the other. `gh api`
// shows them as GitHub's REST API does ({id, html_url, body, user: {login}, created_at, updated_at});
// a blank body is `gh: Validation Failed (HTTP 422)`, as is one over 65,536 characters.
//
// Of jq it knows the filters Iris uses, and refuses others: `.login`;
// `.[] | select(.body | contains("<text>")) | .html_url` and `... | {id, html_url, login: .user.login}` (one line per
// match, each page filtered by itself as gh does); `{status, ahead_by}`;
// `.[] | {filename, status, patch, previous_filename}`. Strings print raw, objects
// as compact JSON with sorted keys (as gojq does).
//
// FAKE_GH_LOGIN names the signed-in account (default `iris-bot`): `gh api user` and every comment's
// author. (`gh auth status` still prints `iris-fake`.)
//
// FAKE_GH_COMMITS names a JSON file `{"<sha>": "<parent sha>" | null, ...}` (one parent each). For
// compare, base and head are full shas or unique prefixes; an unknown one is
// `gh: No commit found for SHA: <sha> (HTTP 404)`, unrelated histories `gh: No common ancestor
// between <base> and <head>. (HTTP 404)`; otherwise GitHub's {status (ahead, identical, behind,
// diverged), ahead_by, behind_by, total_commits, base_commit, merge_base_commit, commits: [{sha,
// parents}] from the merge base to head}.
//
// Every invocation appends one JSON line to the file named by FAKE_GH_RECORD (required: without
// it the fake exits 2, so a test can never pass by not looking):
//
//   {"argv": [...], "body": "<stdin text>" | null, "cwd": "...", "at": "<ISO time>", "pid": 123}
//
// plus `"envNames": [...]` (sorted names, never values) when FAKE_GH_RECORD_ENV=1, so a test can
// prove a secret was not handed to the child. `body` is null when gh would not have read it.
//
// FAKE_GH_MODE picks the behaviour (default `ok`):
//   ok                 prints https://github.com/<repo>/pull/<n>#issuecomment-<id>, exit 0
//   unauthenticated    gh's own sign-in hint on stderr, exit 4 (gh checks auth before it reads
//                      the body, so nothing is read from stdin); `auth status` exits 1
//   fail-times:<n>     the first n invocations fail with `HTTP 502: Bad Gateway (…)`, exit 1, then
//                      behave as `ok`; counted in `<FAKE_GH_RECORD>.count` (not safe for
//                      concurrent runs sharing one record file)
//   not-found          `GraphQL: Could not resolve to a Repository with the name '<repo>'. …`, exit 1
//   pr-not-found       `GraphQL: Could not resolve to a PullRequest with the number of <n>. …`, exit 1
//   hang               reads the body, records, then sleeps FAKE_GH_HANG_MS (default 10 minutes) in
//                      this very process, so killing the pid the caller started ends it
//   posted-hang        posts the comment (it is listed by `gh api` from then on), then sleeps as
//                      `hang` before printing its URL: a crash of the caller in this window is the
//                      one that used to make a duplicate comment
// `gh api` honours `unauthenticated` (exit 4, before --input is read) and `hang` (after recording);
// the other modes concern `gh pr comment` only.
//
// FAKE_GH_API_HANG_MS (whatever the mode): a `gh api` POST or PATCH that succeeded has written the
// comment (it is listed from then on) and then sleeps that many milliseconds in this very process
// before printing its answer, as `posted-hang` does for `gh pr comment`: a crash of the caller in
// this window leaves the comment posted or edited with no answer seen. Failed writes, GETs and
// DELETEs answer at once.
//
// As the real API does, a blank body fails with `GraphQL: Body cannot be blank (addComment)` and a
// body over 65,536 characters with `GraphQL: Body is too long (maximum is 65536 characters)
// (addComment)`, both exit 1. Usage errors (unknown command or flag, missing argument) exit 1 with
// gh's wording. There is no git remote lookup: `--repo` is required.
//
// To use it as `gh`: symlink it under the name `gh` into a directory on PATH (or a shell wrapper
// that `exec`s it, so a kill reaches node), or point IRIS_GH_BIN at this file.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { api, withStoreLock } from './fake-gh-api.mjs';

const MAX_BODY_CHARS = 65_536;
const USAGE_ROOT = 'Usage:  gh <command> <subcommand> [flags]';
const USAGE_COMMENT = 'Usage:  gh pr comment [<number> | <url> | <branch>] [flags]';

const recordPath = process.env.FAKE_GH_RECORD;
if (!recordPath) {
  process.stderr.write('fake-gh: FAKE_GH_RECORD is not set; it must name the file that records each call\n');
  process.exit(2);
}

const mode = parseMode(process.env.FAKE_GH_MODE ?? 'ok');
const argv = process.argv.slice(2);
/** The account gh is signed in as, for `gh api user` and as the author of every comment. */
const login = process.env.FAKE_GH_LOGIN || 'iris-bot';

await main();

async function main() {
  const [command, sub, ...rest] = argv;
  if (command === '--version' || command === 'version') {
    record(null);
    return done('gh version 2.63.0 (iris fake)\nhttps://github.com/cli/cli/releases/tag/v2.63.0\n');
  }
  if (command === undefined) {
    record(null);
    return done(`Work seamlessly with GitHub from the command line.\n\n${USAGE_ROOT}\n`);
  }
  if (command === 'auth' && sub === 'status' && rest.length === 0) return authStatus();
  if (command === 'pr' && sub === 'comment') return prComment(rest);
  if (command === 'api') return api([sub, ...rest].filter((arg) => arg !== undefined), { mode, recordPath, login, record, done, fail, usageError, hang });
  record(null);
  if (command === 'auth' || command === 'pr') {
    if (sub === undefined) return done(`${USAGE_ROOT}\n`);
    if (command === 'auth' && sub === 'status') return usageError(`unknown argument "${rest[0]}"`, USAGE_ROOT);
    return usageError(`unknown command "${sub}" for "gh ${command}"`, USAGE_ROOT);
  }
  return usageError(`unknown command "${command}" for "gh"`, USAGE_ROOT);
}

async function authStatus() {
  record(null);
  if (mode.kind === 'hang') await hang();
  if (mode.kind === 'unauthenticated') {
    return fail(1, 'You are not logged into any GitHub hosts. To log in, run: gh auth login');
  }
  const host = process.env.GH_HOST || 'github.com';
  const source = process.env.GH_TOKEN ? 'GH_TOKEN' : process.env.GITHUB_TOKEN ? 'GITHUB_TOKEN' : 'keyring';
  return done(
    `${host}\n  ✓ Logged in to ${host} account iris-fake (${source})\n  - Active account: true\n` +
      '  - Git operations protocol: https\n  - Token: gho_************************************\n',
  );
}

async function prComment(args) {
  const parsed = parseCommentArgs(args);
  // Flag errors come first (cobra parses before anything runs), then the auth check, then the
  // command's own checks, and only then is the body read: the order gh has.
  if (!parsed.ok) {
    record(null);
    return usageError(parsed.error, USAGE_COMMENT);
  }
  if (mode.kind === 'unauthenticated') {
    record(null);
    return fail(
      4,
      'To get started with GitHub CLI, please run:  gh auth login\n' +
        'Alternatively, populate the GH_TOKEN environment variable with a GitHub API authentication token.',
    );
  }
  const { selector, repo, body, bodyFile } = parsed;
  const checked = checkComment(selector, repo, body, bodyFile);
  if (!checked.ok) {
    record(null);
    return fail(1, checked.error);
  }
  let text = body;
  if (bodyFile !== undefined) {
    try {
      text = bodyFile === '-' ? readFileSync(0, 'utf8') : readFileSync(bodyFile, 'utf8');
    } catch {
      record(null);
      return fail(1, `open ${bodyFile}: no such file or directory`);
    }
  }
  const recorded = record(text);
  if (mode.kind === 'hang') await hang();
  if (mode.kind === 'fail-times' && countInvocation() <= mode.times) {
    return fail(1, 'HTTP 502: Bad Gateway (https://api.github.com/graphql)');
  }
  if (mode.kind === 'not-found') {
    return fail(1, `GraphQL: Could not resolve to a Repository with the name '${checked.fullName}'. (repository)`);
  }
  if (mode.kind === 'pr-not-found') {
    return fail(
      1,
      `GraphQL: Could not resolve to a PullRequest with the number of ${checked.number}. (repository.pullRequest)`,
    );
  }
  if (text.trim() === '') return fail(1, 'GraphQL: Body cannot be blank (addComment)');
  if ([...text].length > MAX_BODY_CHARS) {
    return fail(1, `GraphQL: Body is too long (maximum is ${MAX_BODY_CHARS} characters) (addComment)`);
  }
  const commentId = 2_000_000_000 + recorded;
  const url = `https://${checked.host}/${checked.fullName}/pull/${checked.number}#issuecomment-${commentId}`;
  const line = `${JSON.stringify({ repo: checked.fullName, number: Number(checked.number), id: commentId, html_url: url, body: text, login })}\n`;
  withStoreLock(recordPath, () => appendFileSync(`${recordPath}.comments.jsonl`, line));
  if (mode.kind === 'posted-hang') await hang();
  return done(`${url}\n`);
}

function parseCommentArgs(args) {
  const flags = { repo: ['--repo', '-R'], body: ['--body', '-b'], bodyFile: ['--body-file', '-F'] };
  const values = {};
  const positional = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positional.push(arg);
      continue;
    }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    const key = Object.keys(flags).find((k) => flags[k].includes(name));
    if (key === undefined) {
      const error = name.startsWith('--') ? `unknown flag: ${name}` : `unknown shorthand flag: '${name[1]}' in ${name}`;
      return { ok: false, error };
    }
    if (inline !== undefined) values[key] = inline;
    else if (i + 1 < args.length) values[key] = args[++i];
    else return { ok: false, error: `flag needs an argument: ${name}` };
  }
  if (positional.length > 1) return { ok: false, error: `accepts at most 1 arg(s), received ${positional.length}` };
  return { ok: true, selector: positional[0], repo: values.repo, body: values.body, bodyFile: values.bodyFile };
}

function checkComment(selector, repo, body, bodyFile) {
  if (repo !== undefined && selector === undefined) return { ok: false, error: 'argument required when using the --repo flag' };
  if (repo === undefined) return { ok: false, error: 'fake-gh: --repo is required (the fake reads no git remotes)' };
  if (body === undefined && bodyFile === undefined) return { ok: false, error: 'flags required when not running interactively' };
  if (body !== undefined && bodyFile !== undefined) {
    return { ok: false, error: 'specify only one of `--body`, `--body-file`, `--editor`, or `--web`' };
  }
  const parts = repo.split('/');
  if (parts.length < 2 || parts.length > 3 || parts.some((p) => p === '')) {
    return { ok: false, error: `expected the "[HOST/]OWNER/REPO" format, got "${repo}"` };
  }
  const host = parts.length === 3 ? parts[0] : process.env.GH_HOST || 'github.com';
  const fullName = parts.slice(-2).join('/');
  const number = /^#?([1-9][0-9]*)$/.exec(selector)?.[1];
  if (number === undefined) return { ok: false, error: `no pull requests found for branch "${selector}"` };
  return { ok: true, host, fullName, number };
}

function parseMode(value) {
  if (['ok', 'unauthenticated', 'not-found', 'pr-not-found', 'hang', 'posted-hang'].includes(value)) return { kind: value };
  const times = /^fail-times:([0-9]+)$/.exec(value)?.[1];
  if (times !== undefined) return { kind: 'fail-times', times: Number(times) };
  process.stderr.write(`fake-gh: unknown FAKE_GH_MODE "${value}"\n`);
  process.exit(2);
}

/** Appends this invocation to the record file; returns how many lines it holds now. */
function record(body) {
  const entry = { argv, body, cwd: process.cwd(), at: new Date().toISOString(), pid: process.pid };
  if (process.env.FAKE_GH_RECORD_ENV === '1') entry.envNames = Object.keys(process.env).sort();
  // Appended and counted under the lock: two fakes run at once never take the same count (an id).
  return withStoreLock(recordPath, () => {
    appendFileSync(recordPath, `${JSON.stringify(entry)}\n`);
    return readFileSync(recordPath, 'utf8').split('\n').filter(Boolean).length;
  });
}

function countInvocation() {
  const counter = `${recordPath}.count`;
  let count = 0;
  try {
    count = Number(readFileSync(counter, 'utf8')) || 0;
  } catch {
    // first invocation
  }
  writeFileSync(counter, String(count + 1));
  return count + 1;
}

async function hang() {
  await sleep(Number(process.env.FAKE_GH_HANG_MS) || 600_000);
}

function done(stdout) {
  process.stdout.write(stdout, () => process.exit(0));
}

function fail(code, stderr) {
  process.stderr.write(`${stderr}\n`, () => process.exit(code));
}

function usageError(message, usage) {
  process.stderr.write(`${message}\n\n${usage}\n`, () => process.exit(1));
}
