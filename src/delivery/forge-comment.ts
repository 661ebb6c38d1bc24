// The `forge_comment` delivery: the agent's answer as a comment on a pull request, posted with
// `gh pr comment <pr_number> --repo <repo> --body-file -` on the gateway host (spec: the code-host
// CLI must be installed, on PATH and signed in there). Checking the target, shaping the body and
// reading gh's failures are pure functions; running gh is in gh-binary.ts.
//
// A failure is a value with a closed code and a `retryable` flag. It is logged and recorded by the
// caller, never sent to the code host, which already has its 202.
import type { Env } from '../config/home.js';
import { REDACTED, redactText } from '../log/redact.js';
import { buildGhEnv, ghBinary, runGh } from './gh-binary.js';
import type { GhRun } from './gh-binary.js';
import { retryWithBackoff } from './retry.js';
import type { Sleep } from '../runtime/sleep.js';

export { ghBinary } from './gh-binary.js';

export type ForgeTarget = { readonly repo: string; readonly prNumber: number };

export type ForgeTargetCheck = ({ readonly ok: true } & ForgeTarget) | { readonly ok: false; readonly error: string };

export type ForgeCommentFailureCode =
  | 'gh_missing'
  | 'gh_unauthenticated'
  | 'repo_not_found'
  | 'pr_not_found'
  /** The REST API's 404 (`gh api`): the repository, comment or commit is gone or not visible to gh. */
  | 'not_found'
  | 'timeout'
  | 'cancelled'
  /** Ended by a signal Iris did not send, possibly after the comment was posted. */
  | 'killed'
  | 'failed';

export type ForgeCommentResult =
  | { readonly ok: true; readonly url?: string }
  | {
      readonly ok: false;
      readonly code: ForgeCommentFailureCode;
      readonly retryable: boolean;
      readonly message: string;
    };

/** GitHub refuses a longer comment body ("Body is too long (maximum is 65536 characters)"). */
export const MAX_COMMENT_CHARS = 65_536;

/** GitHub refuses a blank body, and the spec says an empty answer is still delivered. */
export const EMPTY_OUTPUT_BODY = '_(The agent produced no output.)_';

export const FORGE_COMMENT_TIMEOUT_MS = 30_000;

/** Longest piece of gh's stderr quoted in a failure message. */
const STDERR_QUOTE_CHARS = 300;

/** GitHub's token shapes, which the generic log redaction does not know. */
const GITHUB_TOKEN_TEXT = /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g;

// GitHub's own alphabet for owner and repository names. The first character may not be `-`, so
// the value can never be read by gh as an option; `.` and `..` alone are not names.
const NAME = /^[A-Za-z0-9_.][A-Za-z0-9_.-]{0,99}$/;
const PR_NUMBER = /^[1-9][0-9]{0,9}$/;
/** GraphQL's Int is 32-bit signed: a larger number cannot name a pull request. */
export const MAX_PR_NUMBER = 2 ** 31 - 1;

/** owner/name in GitHub's alphabet: safe as a gh argument and as a REST path segment pair. */
export function isForgeRepo(repo: string): boolean {
  const parts = repo.split('/');
  const nameOk = (part: string | undefined): boolean => part !== undefined && NAME.test(part) && part !== '.' && part !== '..';
  return parts.length === 2 && nameOk(parts[0]) && nameOk(parts[1]);
}

export function validateForgeTarget(extra: Readonly<Record<string, string>>): ForgeTargetCheck {
  const repo = extra.repo?.trim();
  const prNumber = extra.pr_number?.trim();
  if (!repo) return { ok: false, error: 'deliver_extra.repo is required for forge_comment (owner/name)' };
  if (!prNumber) return { ok: false, error: 'deliver_extra.pr_number is required for forge_comment' };
  if (!isForgeRepo(repo)) {
    return { ok: false, error: `deliver_extra.repo must be owner/name, got ${quote(repo)}` };
  }
  const number = PR_NUMBER.test(prNumber) ? Number(prNumber) : NaN;
  if (!(number <= MAX_PR_NUMBER)) {
    return { ok: false, error: `deliver_extra.pr_number must be a positive integer, got ${quote(prNumber)}` };
  }
  return { ok: true, repo, prNumber: number };
}

/**
 * The text gh posts: a blank answer becomes a short note (GitHub rejects a blank body), and an
 * answer over GitHub's limit is cut, ending with a line that says so. Lengths are UTF-16 units,
 * never fewer than the characters GitHub counts, so the cut body always fits; a surrogate pair is
 * never split.
 */
export function buildCommentBody(output: string, deliveryMarker?: string): string {
  // Hidden when GitHub renders the comment; it lets a restart find what was posted already.
  const tail = deliveryMarker === undefined ? '' : `\n\n${deliveryMarker}`;
  if (output.trim() === '') return EMPTY_OUTPUT_BODY + tail;
  if (output.length + tail.length <= MAX_COMMENT_CHARS) return output + tail;
  const cut = `\n\n---\n_(Cut by Iris: GitHub allows ${MAX_COMMENT_CHARS} characters, the answer had ${output.length}.)_`;
  let end = MAX_COMMENT_CHARS - cut.length - tail.length;
  const last = output.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return output.slice(0, end) + cut + tail;
}

/** The hidden line every delivered comment carries (DECISIONS § Operations): the event's inbox id. */
export function deliveryMarker(eventId: number): string {
  return `<!-- iris-delivery:${eventId} -->`;
}

export type ClassifyContext = {
  readonly bin: string;
  readonly repo: string;
  readonly prNumber: number;
  readonly timeoutMs: number;
  /** How the run is named in a timeout message; default `gh pr comment`. */
  readonly command?: string;
};

/** What one gh run means for the delivery, and for the `gh api` calls of github-pr-client.ts. */
export function classifyGhRun(run: GhRun, context: ClassifyContext): ForgeCommentResult {
  switch (run.kind) {
    case 'not_started':
      return {
        ok: false,
        code: 'gh_missing',
        retryable: false,
        message:
          run.errno === 'ENOENT'
            ? `GitHub CLI not found (${quote(context.bin)}): install it (https://cli.github.com) on the gateway host, or set IRIS_GH_BIN to its path`
            : `GitHub CLI ${quote(context.bin)} could not be started (${run.errno}); check IRIS_GH_BIN and the file's permissions`,
      };
    case 'cancelled':
      return { ok: false, code: 'cancelled', retryable: true, message: 'the delivery was cancelled (gateway shutting down)' };
    case 'timeout':
      return {
        ok: false,
        code: 'timeout',
        retryable: true,
        message: `${context.command ?? 'gh pr comment'} did not finish within ${context.timeoutMs} ms and was stopped${said(run.stderr)}`,
      };
    case 'output_overflow':
      // Not retried: gh printing this much is not gh posting a comment, and the comment may well
      // have been posted before it was stopped.
      return { ok: false, code: 'failed', retryable: false, message: 'gh printed more output than allowed and was stopped' };
    case 'killed':
      return { ok: false, code: 'killed', retryable: true, message: `gh was ended by ${run.signal}${said(run.stderr)}` };
    case 'exited':
      return run.exitCode === 0 ? { ok: true, ...commentUrl(run.stdout) } : classifyExit(run.exitCode, run.stderr, context);
  }
}

function classifyExit(exitCode: number, stderr: string, context: ClassifyContext): ForgeCommentResult {
  // gh exits 4 when no credentials are set up; a rejected token comes back as HTTP 401 with a hint.
  if (exitCode === 4 || /gh auth login|authentication|HTTP 401|Bad credentials/i.test(stderr)) {
    return {
      ok: false,
      code: 'gh_unauthenticated',
      retryable: false,
      message: `gh is not signed in on the gateway host: run \`gh auth login\` there, or set GH_TOKEN for the gateway${said(stderr)}`,
    };
  }
  if (/Could not resolve to a Repository/i.test(stderr)) {
    return {
      ok: false,
      code: 'repo_not_found',
      retryable: false,
      message: `repository ${context.repo} not found, or not visible to gh's account${said(stderr)}`,
    };
  }
  if (/Could not resolve to a PullRequest/i.test(stderr)) {
    return {
      ok: false,
      code: 'pr_not_found',
      retryable: false,
      message: `pull request #${context.prNumber} not found in ${context.repo}${said(stderr)}`,
    };
  }
  // `gh api` reports the REST API's status as `(HTTP 404)`; GraphQL's not-found texts are above.
  if (/\(HTTP 404\)/.test(stderr)) {
    return {
      ok: false,
      code: 'not_found',
      retryable: false,
      message: `GitHub answered 404 in ${context.repo || 'the request'}: gone, or not visible to gh's account${said(stderr)}`,
    };
  }
  // GitHub validated the request and said no (GraphQL's texts, REST's 422): it will say no again.
  const refused = /Body cannot be blank|Body is too long|\(HTTP 422\)/i.test(stderr);
  return { ok: false, code: 'failed', retryable: !refused, message: `gh exited with ${exitCode}${said(stderr)}` };
}

/** `: <first line of stderr>`, bounded and redacted, or nothing when gh said nothing. */
function said(stderr: string): string {
  const line = stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find(Boolean);
  if (!line) return '';
  const cut = line.length > STDERR_QUOTE_CHARS ? `${line.slice(0, STDERR_QUOTE_CHARS)}…` : line;
  return `: ${redactText(cut).replace(GITHUB_TOKEN_TEXT, REDACTED)}`;
}

function commentUrl(stdout: string): { url?: string } {
  const url = stdout
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => /^https?:\/\/\S+$/.test(l));
  return url ? { url } : {};
}

function quote(value: string): string {
  return JSON.stringify(value.length > 120 ? `${value.slice(0, 120)}…` : value);
}

export type ForgeCommentInput = ForgeTarget & {
  /** The agent's answer, as stored; shaped by `buildCommentBody` before it is sent. */
  readonly body: string;
  /** The gateway's environment: finds gh (IRIS_GH_BIN, PATH) and is the base of gh's own. */
  readonly env: Env;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** The hidden delivery marker the comment carries (see `deliveryMarker`). */
  readonly marker?: string;
  /** Told each gh process's pid as it starts. */
  readonly onSpawn?: (pid: number) => void;
  /** The bot's login, when known: a marker counts only on its comments. */
  readonly by?: string;
};

export type MarkerSearch = { readonly ok: true; readonly found: boolean; readonly url?: string } | Extract<ForgeCommentResult, { ok: false }>;

/**
 * Is a comment carrying `marker` on the PR already? Asks the REST API through gh, every page, and
 * lets gh's jq print only the matching comments' URLs, so the output stays small on a busy PR.
 */
export async function findMarkedComment(input: Omit<ForgeCommentInput, 'body'> & { readonly marker: string }): Promise<MarkerSearch> {
  const bin = ghBinary(input.env);
  const timeoutMs = input.timeoutMs ?? FORGE_COMMENT_TIMEOUT_MS;
  const filter = `.[] | select(.body | contains(${JSON.stringify(input.marker)})) | {id, html_url, login: .user.login}`;
  const run = await runGh({
    bin,
    args: ['api', '--paginate', `repos/${input.repo}/issues/${input.prNumber}/comments?per_page=100`, '--jq', filter],
    stdin: '',
    env: buildGhEnv(input.env),
    timeoutMs,
    ...(input.signal ? { signal: input.signal } : {}),
  });
  const result = classifyGhRun(run, { bin, repo: input.repo, prNumber: input.prNumber, timeoutMs });
  if (!result.ok) return result;
  const lines = run.kind === 'exited' ? run.stdout.split(/\r?\n/).filter((line) => line.trim() !== '') : [];
  // Anyone can write the marker into a comment: with the bot's login known, only its own count.
  const match = lines.map(markedComment).find((c) => c !== undefined && (input.by === undefined || c.login.toLowerCase() === input.by.toLowerCase()));
  return match === undefined ? { ok: true, found: false } : { ok: true, found: true, url: match.url };
}

/** One line of the marker search: `{"html_url":…,"id":…,"login":…}`; undefined when it is not that. */
function markedComment(line: string): { readonly url: string; readonly login: string } | undefined {
  try {
    const value = JSON.parse(line) as { html_url?: unknown; login?: unknown };
    return typeof value.html_url === 'string' && typeof value.login === 'string' ? { url: value.html_url, login: value.login } : undefined;
  } catch {
    return undefined;
  }
}

export async function postForgeComment(input: ForgeCommentInput): Promise<ForgeCommentResult> {
  const bin = ghBinary(input.env);
  const timeoutMs = input.timeoutMs ?? FORGE_COMMENT_TIMEOUT_MS;
  const run = await runGh({
    bin,
    args: ['pr', 'comment', String(input.prNumber), '--repo', input.repo, '--body-file', '-'],
    stdin: buildCommentBody(input.body, input.marker),
    env: buildGhEnv(input.env),
    timeoutMs,
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.onSpawn ? { onSpawn: input.onSpawn } : {}),
  });
  return classifyGhRun(run, { bin, repo: input.repo, prNumber: input.prNumber, timeoutMs });
}

export type DeliverOptions = {
  /** Total tries, the first included. */
  readonly attempts?: number;
  /** The pause before each retry; the last repeats. */
  readonly backoffMs?: readonly number[];
  readonly sleep?: Sleep;
};

export type ForgeDelivery = {
  /** The last try's result. */
  readonly result: ForgeCommentResult;
  /** Every try's result, in order. */
  readonly attempts: readonly ForgeCommentResult[];
};

export const DEFAULT_ATTEMPTS = 4;
export const DEFAULT_BACKOFF_MS: readonly number[] = [1_000, 4_000, 15_000];

/** A try that may have posted although it did not say so: gh was stopped mid-request. */
const mayHavePosted = (result: ForgeCommentResult): boolean => !result.ok && (result.code === 'timeout' || result.code === 'killed');

/**
 * Posts, retrying only failures marked retryable, and stopping at once when the signal aborts.
 * With a marker, a retry after a try that may have posted looks for the marker first, so a slow
 * GitHub never gets the same answer twice.
 */
export async function deliverForgeComment(input: ForgeCommentInput, options: DeliverOptions = {}): Promise<ForgeDelivery> {
  let previous: ForgeCommentResult | undefined;
  const attempt = async (): Promise<ForgeCommentResult> => {
    if (input.marker !== undefined && previous !== undefined && mayHavePosted(previous)) {
      const search = await findMarkedComment({ ...input, marker: input.marker });
      if (!search.ok) return search;
      if (search.found) return { ok: true, ...(search.url ? { url: search.url } : {}) };
    }
    previous = await postForgeComment(input);
    return previous;
  };
  const { final, outcomes } = await retryWithBackoff(
    attempt,
    (result) => !result.ok && result.retryable,
    {
      attempts: options.attempts ?? DEFAULT_ATTEMPTS,
      backoffMs: options.backoffMs ?? DEFAULT_BACKOFF_MS,
      ...(options.sleep ? { sleep: options.sleep } : {}),
      ...(input.signal ? { signal: input.signal } : {}),
    },
  );
  return { result: final, attempts: outcomes };
}
