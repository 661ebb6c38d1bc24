// What one event on a pull-request route makes the gateway do, decided before any model call:
// nothing (skip, with the reason), a fixed reply (help, pause, resume, a refusal), or an agent run
// in the PR's session with the prompt for that event. The code host is asked only what the
// decision needs: the bot's login (cached), a GitLab user's access level, how the pushed head
// relates to the last reviewed one.
import type { RouteSnapshot } from '../webhook/routes.js';
import { prRepoProblem } from '../delivery/comment-target.js';
import { sameLogin } from '../delivery/pr-forge.js';
import { prEventOf, prKey, type PrEvent } from '../webhook/pr-event.js';
import { HELP_TEXT, PAUSED_TEXT, RESUMED_TEXT, TRUSTED_ASSOCIATIONS, readComment, refusalText, untrustedVerdict } from '../webhook/pr-commands.js';
import { commandPrompt, pushReviewNote } from '../webhook/pr-prompt.js';
import type { PrThread, PrThreads } from '../store/pr-thread-types.js';
import type { DeliverAs } from '../store/webhook-types.js';
import type { ListenerLog } from '../webhook/listener.js';
import type { PrForges } from './pr-forges.js';
import type { PrFindings } from '../store/pr-finding-types.js';
import { readThreadReply, threadStateChange } from '../review/thread-reply.js';

export type PrPlan =
  /** A route that is no PR route: its run is a plain one. */
  | { readonly kind: 'plain' }
  | { readonly kind: 'skip'; readonly reason: string }
  | { readonly kind: 'reply'; readonly text: string; readonly refusal?: true }
  | { readonly kind: 'failed'; readonly reason: string }
  | {
      readonly kind: 'run';
      readonly pr: PrEvent;
      readonly prKey: string;
      /** The route keeps a session per PR (`session: per_pr`); else each run has a session of its own. */
      readonly sessionPerPr: boolean;
      /** The PR's session, when it has one. */
      readonly sessionId: string | null;
      /** Appended to the route's prompt (change events), or the whole prompt (commands). */
      readonly prompt: { readonly route: true; readonly note?: string } | { readonly route: false; readonly text: string };
      readonly deliverAs: DeliverAs;
    };

/** A comment on a plain issue, or any event the payload ties to no pull request. */
export const NOT_ABOUT_A_PR = 'the event is about no pull request or merge request';

export type PrPlanDeps = {
  readonly threads: PrThreads;
  readonly forges: PrForges;
  readonly log: ListenerLog;
  /** The findings Iris posted: a reply in one of their threads is read as feedback on it. */
  readonly findings?: PrFindings;
};

type Context = { readonly deps: PrPlanDeps; readonly route: RouteSnapshot; readonly pr: PrEvent; readonly key: string; readonly thread: PrThread | undefined; readonly signal: AbortSignal };

export async function planPrEvent(deps: PrPlanDeps, route: RouteSnapshot, event: string, payload: Readonly<Record<string, unknown>>, signal: AbortSignal): Promise<PrPlan> {
  const pr = prEventOf(event, payload);
  if (pr === undefined) return { kind: 'skip', reason: NOT_ABOUT_A_PR };
  const badRepo = prRepoProblem(pr);
  if (badRepo !== undefined) return { kind: 'failed', reason: badRepo };
  const key = prKey(pr);
  const thread = await deps.threads.get(route.name, key);
  const context: Context = { deps, route, pr, key, thread, signal };
  if (pr.kind === 'thread') return planThread(context, pr.thread);
  return pr.kind === 'comment' ? planComment(context, pr.comment) : planChange(context);
}

/** A thread that is not one of Iris's findings, or one whose finding a resolve does not change. */
export const NOT_A_FINDING_THREAD = 'a review thread that is not one of the findings Iris keeps on this pull request';

/**
 * A review thread resolved or unresolved on GitHub: a finding a person resolved is kept as
 * `resolved` (it stops a repeat, and gets no "Outdated" reply when its code changes); unresolved
 * again, it is open. Iris's own resolve (an outdated finding) and dismissed or outdated findings
 * change nothing. Never a run.
 */
async function planThread(context: Context, thread: Extract<PrEvent, { kind: 'thread' }>['thread']): Promise<PrPlan> {
  const { deps, route } = context;
  if (deps.findings === undefined) return { kind: 'skip', reason: NOT_A_FINDING_THREAD };
  // Iris's own resolve (an outdated finding): its delivery records the state itself; a crash before
  // it did must not leave the finding looking resolved by a person.
  const login = thread.by === undefined ? undefined : await deps.forges.botLogin(context.pr.forge, { signal: context.signal });
  if (thread.by !== undefined && login?.ok && sameLogin(thread.by, login.value)) return { kind: 'skip', reason: `the thread was ${thread.resolved ? 'resolved' : 'unresolved'} by Iris itself` };
  const finding = (await deps.findings.byHostId(route.name, context.key, thread.nodeId)) ?? (thread.firstCommentId === undefined ? undefined : await deps.findings.byHostId(route.name, context.key, thread.firstCommentId));
  if (finding === undefined) return { kind: 'skip', reason: NOT_A_FINDING_THREAD };
  // Its thread id was never read (the GraphQL look after posting failed): the event names it.
  if (finding.threadId === null && finding.state !== 'dismissed') {
    const { route: routeName, prKey: key, fingerprint, path, line, lineText, title, severity, state, commentId, eventId } = finding;
    await deps.findings.record({ route: routeName, prKey: key, fingerprint, path, line, lineText, title, severity, state, commentId, eventId, threadId: thread.nodeId });
  }
  const change = threadStateChange(finding.state, thread.resolved);
  if (change === undefined) return { kind: 'skip', reason: `the finding "${finding.title}" is ${finding.state}: a thread ${thread.resolved ? 'resolved' : 'unresolved'} leaves it so` };
  await deps.findings.setState(route.name, context.key, finding.fingerprint, change);
  const by = thread.by === undefined ? '' : ` by @${thread.by}`;
  return { kind: 'skip', reason: `the finding "${finding.title}" was ${thread.resolved ? 'resolved' : 'unresolved'}${by}: kept as ${change}` };
}

const run = (context: Context, prompt: Extract<PrPlan, { kind: 'run' }>['prompt'], deliverAs: DeliverAs): PrPlan => ({
  kind: 'run',
  pr: context.pr,
  prKey: context.key,
  sessionPerPr: context.route.session === 'per_pr',
  sessionId: context.route.session === 'per_pr' ? (context.thread?.sessionId ?? null) : null,
  prompt,
  deliverAs,
});

async function planChange(context: Context): Promise<PrPlan> {
  const { pr, thread } = context;
  if (pr.kind !== 'change') return { kind: 'skip', reason: NOT_ABOUT_A_PR };
  // Reviews start on what changes the code under review; a label, an edit or a close does not.
  if (pr.change === 'other') return { kind: 'skip', reason: `the action "${pr.action || '(none)'}" starts no review (opened, reopened and pushes do)` };
  if (thread?.paused) return { kind: 'skip', reason: 'automatic reviews are paused on this pull request (/resume turns them on)' };
  if (context.route.session !== 'per_pr' || pr.change !== 'push' || !thread?.reviewedSha || pr.headSha === undefined) return run(context, { route: true }, 'summary');
  if (thread.reviewedSha === pr.headSha) return { kind: 'skip', reason: `${pr.headSha.slice(0, 12)} was reviewed already` };
  const forge = context.deps.forges.client(pr.forge);
  const compared = forge.ok ? await forge.client.compare(pr, thread.reviewedSha, pr.headSha, { signal: context.signal }) : undefined;
  if (compared && !compared.ok) context.deps.log.warn({ route: context.route.name, pr: context.key, reason: compared.message }, 'could not compare the pushed head with the last reviewed one; reviewing the whole pull request');
  const relation = compared?.ok ? compared.value : undefined;
  const note = pushReviewNote({ reviewedSha: thread.reviewedSha, headSha: pr.headSha, relation: relation?.relation, commits: relation?.commits ?? 0 });
  return run(context, { route: true, note }, 'summary');
}

async function planComment(context: Context, comment: Extract<PrEvent, { kind: 'comment' }>['comment']): Promise<PrPlan> {
  const { deps, pr, route } = context;
  const login = await deps.forges.botLogin(pr.forge, { signal: context.signal });
  if (!login.ok) deps.log.warn({ route: route.name, pr: context.key, reason: login.message }, "could not ask the code host for the bot's login; its comments are known by their marker only");
  const reading = readComment(comment, login.ok ? login.value : undefined);
  if (reading.kind === 'ignore') return { kind: 'skip', reason: reading.reason };
  const inThread = await threadReply(context, comment, reading.kind === 'command' && reading.command.kind === 'mention');
  if (inThread !== undefined) return inThread;
  // A route without commands hears every human comment, in the PR's session.
  if (reading.kind === 'conversation') return route.commands ? { kind: 'skip', reason: 'not a command' } : run(context, { route: true }, 'reply');
  if (!route.commands) return run(context, { route: true }, 'reply');
  const trusted = await mayCommand(context, comment);
  if (!trusted.ok) return { kind: 'failed', reason: trusted.reason };
  if (!trusted.value) {
    const verdict = untrustedVerdict(context.thread?.refusalSent ?? false);
    if (verdict.kind === 'ignore') return { kind: 'skip', reason: verdict.reason };
    // Marked as refused when it is delivered (deliver-event.ts), not now: a crash before then must
    // not leave the PR marked with no refusal posted.
    return { kind: 'reply', text: refusalText(comment.author), refusal: true };
  }
  const { command } = reading;
  switch (command.kind) {
    case 'help':
      return { kind: 'reply', text: HELP_TEXT };
    case 'pause':
      await deps.threads.update(route.name, context.key, { paused: true });
      return { kind: 'reply', text: PAUSED_TEXT };
    case 'resume':
      await deps.threads.update(route.name, context.key, { paused: false });
      return { kind: 'reply', text: RESUMED_TEXT };
    default:
      return run(context, { route: false, text: commandPrompt(command, pr, comment.author) }, command.kind === 'review' ? 'summary' : 'reply');
  }
}

/**
 * A reply in one of Iris's finding threads: a dismissal or feedback is kept on the finding and
 * starts no run; a question for the bot goes on as any mention (answered in that thread).
 * Undefined when the comment is in no finding's thread, or is a question.
 */
async function threadReply(context: Context, comment: Extract<PrEvent, { kind: 'comment' }>['comment'], mentionsBot: boolean): Promise<PrPlan | undefined> {
  const { deps, route } = context;
  if (comment.threadOf === undefined || deps.findings === undefined) return undefined;
  const finding = await deps.findings.byHostId(route.name, context.key, comment.threadOf);
  if (finding === undefined) return undefined;
  const meaning = readThreadReply(comment.body, mentionsBot);
  if (meaning === 'question') return undefined;
  // Only people who may command the bot can silence a finding (anyone can comment on a public PR).
  const trusted = await mayCommand(context, comment);
  if (!trusted.ok) return { kind: 'failed', reason: trusted.reason };
  if (!trusted.value) return { kind: 'skip', reason: `a reply in the thread of the finding "${finding.title}" from a user without write access (not kept)` };
  if (meaning === 'dismissal') {
    await deps.findings.setState(route.name, context.key, finding.fingerprint, 'dismissed');
    return { kind: 'skip', reason: `the finding "${finding.title}" was dismissed on this pull request` };
  }
  await deps.findings.setState(route.name, context.key, finding.fingerprint, 'answered');
  return { kind: 'skip', reason: `a reply to the finding "${finding.title}", kept as feedback` };
}

async function mayCommand(context: Context, comment: Extract<PrEvent, { kind: 'comment' }>['comment']): Promise<{ ok: true; value: boolean } | { ok: false; reason: string }> {
  if (context.pr.forge === 'github') return { ok: true, value: comment.association !== undefined && TRUSTED_ASSOCIATIONS.includes(comment.association.toUpperCase()) };
  if (comment.authorId === undefined) return { ok: true, value: false };
  const level = await context.deps.forges.gitlabMayCommand(context.pr, comment.authorId, { signal: context.signal });
  return level.ok ? { ok: true, value: level.value } : { ok: false, reason: `could not check whether @${comment.author} may command the bot: ${level.message}` };
}
