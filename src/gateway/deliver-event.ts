// Delivering a finished run's stored output per its route: `log` writes it to gateway.log,
// `forge_comment` posts it with gh (retried with backoff). A delivery failure is logged and
// recorded on the event, never sent to the code host (it has had its 202). A delivery cut off by a
// shutdown leaves the event `done`, so the next start delivers it without re-running the agent.
import { retryStoreWrite } from '../store/write-retry.js';
import type { Env } from '../config/home.js';
import { DEFAULT_ATTEMPTS, DEFAULT_BACKOFF_MS, deliverForgeComment, deliveryMarker, findMarkedComment, type DeliverOptions } from '../delivery/forge-comment.js';
import type { PrThreads } from '../store/pr-thread-types.js';
import type { PrFindings } from '../store/pr-finding-types.js';
import { commentTarget, type CommentTarget } from '../delivery/comment-target.js';
import { deliverPrComment } from './deliver-pr-comment.js';
import type { PrForges } from './pr-forges.js';
import { retryWithBackoff } from '../delivery/retry.js';
import { reapOrphanedGh } from '../delivery/orphan-gh.js';
import type { WebhookEventRecord, WebhookInbox } from '../store/webhook-types.js';
import type { ListenerLog } from '../webhook/listener.js';
import { isPrRoute, parseRouteSnapshot, type RouteSnapshot } from '../webhook/routes.js';
import { prEventOf, prKey } from '../webhook/pr-event.js';
import { renderDeliverExtra } from '../webhook/template.js';
import { isPlatformName } from '../domain/platforms.js';
import { resolvePlatformTarget, type PlatformTargets } from '../platforms/delivery-target.js';
import { replyParts } from '../platforms/reply-parts.js';
import type { PlatformAdapter, PlatformName } from '../platforms/types.js';
import type { PlatformStore } from '../store/platform-types.js';

/** Chat-platform delivery: the answer goes to the platforms' outbox, which sends and retries it. */
export type PlatformDelivery = {
  readonly targets: PlatformTargets;
  readonly store: PlatformStore;
  readonly adapters: ReadonlyMap<PlatformName, PlatformAdapter>;
  /** Something was enqueued. */
  readonly wake: () => void;
};

export type DeliverDeps = {
  readonly env: Env;
  readonly inbox: WebhookInbox;
  readonly log: ListenerLog;
  /** Retry pacing for forge_comment (tests shorten it). */
  readonly retry?: DeliverOptions;
  readonly platforms: PlatformDelivery;
  /** The code-host clients of PR routes and GitLab events. */
  readonly forges: PrForges;
  readonly threads: PrThreads;
  /** Findings posted on PRs and each review's plan (absent: reviews post their summary alone). */
  readonly findings?: PrFindings;
  /**
   * Resolves once the log lines so far are in the log file. A `deliver: log` answer is its line,
   * so it is written out before the event is marked delivered: a kill -9 right after cannot lose it.
   */
  readonly flushLog?: () => Promise<void>;
};

/**
 * Why this event's answer could not be delivered, judged from the route and the payload alone
 * (the run checks it first, so a bad `repo` or `pr_number` costs no model call); undefined when
 * the target is fine.
 */
export function deliveryTargetProblem(snapshot: RouteSnapshot, event: string, payload: Readonly<Record<string, unknown>>, platforms: PlatformTargets, forges: PrForges): string | undefined {
  if (snapshot.deliver === 'log') return undefined;
  if (isPlatformName(snapshot.deliver)) {
    const target = resolvePlatformTarget(snapshot.deliver, renderDeliverExtra(snapshot.deliver_extra, payload), platforms);
    return target.ok ? undefined : target.error;
  }
  const target = commentTarget(snapshot, event, payload);
  if (!target.ok) return target.error;
  if (target.via === 'client') {
    const client = forges.client(target.forge);
    if (!client.ok) return client.error;
  }
  return undefined;
}

/**
 * The outbox origin of an event's answer. An operator's Redeliver (dashboard) puts a delivered
 * event back with its delivery attempts kept and a new `updatedAt`, which nothing changes until
 * the redelivery is recorded: its messages are new ones, and a crash during it still adds nothing.
 */
export function outboxOrigin(record: Pick<WebhookEventRecord, 'id' | 'deliveryAttempts' | 'updatedAt'>): string {
  return record.deliveryAttempts === 0 ? `webhook:${record.id}` : `webhook:${record.id}:redelivery:${record.updatedAt}`;
}

export async function deliverEvent(deps: DeliverDeps, record: WebhookEventRecord, signal: AbortSignal): Promise<void> {
  const context = { id: record.id, route: record.route, event: record.event, delivery_id: record.deliveryId, session: record.sessionId };
  const output = record.output ?? '';
  const failDelivery = async (attempts: number, reason: string) => {
    deps.log.error({ ...context, reason }, `webhook delivery failed: ${reason}`);
    await deps.inbox.markDeliveryFailed(record.id, attempts, reason);
  };
  const snapshot = parseRouteSnapshot(record.routeSnapshot);
  if (!snapshot.ok) return failDelivery(0, snapshot.error);
  const { deliver } = snapshot.snapshot;
  // Recorded before the event is marked delivered: a crash between the two delivers again, and
  // recording again is harmless.
  // Retried while the store is away (write-retry.ts): delivering again instead would post the
  // answer twice, and the window where that can happen must stay one store write (a crash).
  const delivered = async (attempts: number): Promise<void> => {
    const recorded = await retryStoreWrite(
      async () => {
        await recordPrDelivery(deps.threads, record, snapshot.snapshot);
        await deps.inbox.markDelivered(record.id, attempts);
      },
      { signal, onRetry: (err, attempt, retryInMs) => deps.log.warn({ ...context, err, attempt, retry_in_ms: retryInMs }, 'webhook delivery not recorded yet; trying again') },
    );
    if (!recorded.ok) throw new Error(`the delivery could not be recorded: ${recorded.reason}`);
  };

  if (deliver === 'log') {
    deps.log.info({ ...context, deliver, answer: output }, 'webhook answer');
    await deps.flushLog?.();
    await delivered(1);
    return;
  }

  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(record.payload) as Record<string, unknown>;
  } catch {
    return failDelivery(0, 'the stored payload is not JSON');
  }
  if (isPlatformName(deliver)) {
    const target = resolvePlatformTarget(deliver, renderDeliverExtra(snapshot.snapshot.deliver_extra, payload), deps.platforms.targets);
    if (!target.ok) return failDelivery(0, target.error);
    // Enqueued under the event's id: a repeated delivery (a crash before it was recorded) adds nothing.
    const parts = replyParts(deps.platforms.adapters.get(deliver), deliver, target, output, outboxOrigin(record));
    await deps.platforms.store.enqueue(parts);
    deps.platforms.wake();
    deps.log.info({ ...context, deliver, chat_id: target.chatId, thread_id: target.threadId, parts: parts.length }, `webhook answer queued for ${deliver}`);
    await delivered(1);
    return;
  }
  const chosen = commentTarget(snapshot.snapshot, record.event, payload);
  if (!chosen.ok) return failDelivery(0, chosen.error);
  if (chosen.via === 'client') return deliverThroughClient(deps, record, chosen, signal, failDelivery, delivered);
  const target = { repo: chosen.pr.repo, prNumber: chosen.pr.number };
  const marker = deliveryMarker(record.id);
  // The bot's login, so a marker counts only on its own comments: asked (once per gateway) before
  // a check after a restart; a later retry's check uses it when it is known by then.
  const login = record.state === 'delivering' ? await deps.forges.botLogin('github', { signal }) : undefined;
  if (login && !login.ok) deps.log.warn({ ...context, reason: login.message }, "could not ask GitHub for the bot's login; a marker is trusted on anyone's comment");
  const by = login?.ok ? login.value : deps.forges.knownLogin('github');
  const forge = { repo: target.repo, prNumber: target.prNumber, env: deps.env, signal, ...(by === undefined ? {} : { by }) };
  if (record.state === 'delivering') {
    // A delivery was under way when the last process stopped: gh may have posted. A gh that
    // outlived that process is stopped first, so it cannot post after the check below.
    if (record.deliveryPid !== null) {
      const orphan = await reapOrphanedGh(record.deliveryPid, target.repo);
      if (orphan !== 'none') deps.log.warn({ ...context, pid: record.deliveryPid, orphan }, 'a gh left running by the last gateway was stopped');
    }
    const retry = deps.retry ?? {};
    const { final: search } = await retryWithBackoff(
      () => findMarkedComment({ ...forge, marker }),
      (found) => !found.ok && found.retryable,
      { attempts: retry.attempts ?? DEFAULT_ATTEMPTS, backoffMs: retry.backoffMs ?? DEFAULT_BACKOFF_MS, ...(retry.sleep ? { sleep: retry.sleep } : {}), signal },
    );
    if (!search.ok) {
      if (search.code === 'cancelled' || signal.aborted) return;
      return failDelivery(record.deliveryAttempts, `could not check whether the answer was posted before the restart, so it was not posted again: ${search.message}`);
    }
    if (search.found) {
      deps.log.info({ ...context, deliver, repo: target.repo, pr_number: target.prNumber, url: search.url }, 'webhook answer was posted before the restart; not posted again');
      await delivered(Math.max(1, record.deliveryAttempts));
      return;
    }
  }
  await deps.inbox.markDelivering(record.id);
  const { result, attempts } = await deliverForgeComment(
    {
      ...forge,
      body: output,
      marker,
      // Not awaited: the record only helps a later start reap this gh if we die meanwhile.
      onSpawn: (pid) => void deps.inbox.setDeliveryPid(record.id, pid).catch((err: unknown) => deps.log.warn({ ...context, err: String(err) }, 'could not record the gh pid')),
    },
    deps.retry ?? {},
  );
  if (result.ok) {
    deps.log.info({ ...context, deliver, repo: target.repo, pr_number: target.prNumber, url: result.url, attempts: attempts.length }, 'webhook answer posted as a PR comment');
    await delivered(attempts.length);
    return;
  }
  if (result.code === 'cancelled' || signal.aborted) {
    deps.log.info({ ...context }, 'webhook delivery interrupted by shutdown; it is retried at the next start');
    return;
  }
  await failDelivery(attempts.length, `${result.message} (after ${attempts.length} attempt${attempts.length === 1 ? '' : 's'})`);
}

async function deliverThroughClient(
  deps: DeliverDeps,
  record: WebhookEventRecord,
  target: Extract<CommentTarget, { via: 'client' }>,
  signal: AbortSignal,
  failDelivery: (attempts: number, reason: string) => Promise<void>,
  delivered: (attempts: number) => Promise<void>,
): Promise<void> {
  const context = { id: record.id, route: record.route, event: record.event, delivery_id: record.deliveryId, session: record.sessionId };
  const client = deps.forges.client(target.forge);
  if (!client.ok) return failDelivery(0, client.error);
  if (record.state === 'delivering' && record.deliveryPid !== null && target.forge === 'github') {
    // A gh left writing by the last gateway is stopped first, so it cannot post after the check.
    const orphan = await reapOrphanedGh(record.deliveryPid, target.pr.repo);
    if (orphan !== 'none') deps.log.warn({ ...context, pid: record.deliveryPid, orphan }, 'a gh left running by the last gateway was stopped');
  }
  const login = await deps.forges.botLogin(target.forge, { signal });
  if (!login.ok) deps.log.warn({ ...context, reason: login.message }, "could not ask the code host for the bot's login; a marker is trusted on anyone's comment");
  const poster = deps.forges.reviews?.(target.forge);
  const outcome = await deliverPrComment(
    {
      client: client.client,
      threads: deps.threads,
      ...(poster?.ok && deps.findings ? { review: { poster: poster.poster, findings: deps.findings } } : {}),
      botLogin: login.ok ? login.value : undefined,
      ...(deps.retry ? { retry: deps.retry } : {}),
      // Not awaited: the record only helps a later start reap this gh if we die meanwhile.
      onSpawn: (pid) => void deps.inbox.setDeliveryPid(record.id, pid).catch((err: unknown) => deps.log.warn({ ...context, err: String(err) }, 'could not record the gh pid')),
    },
    record,
    target,
    () => deps.inbox.markDelivering(record.id),
    signal,
  );
  const where = { forge: target.forge, repo: target.pr.repo, pr_number: target.pr.number };
  if (outcome.ok) {
    const how = outcome.foundPosted ? 'was posted before the restart; not posted again' : outcome.edited ? 'updated the summary comment' : 'posted as a PR comment';
    deps.log.info({ ...context, deliver: 'forge_comment', ...where, comment_id: outcome.comment.id, url: outcome.comment.url, attempts: outcome.attempts }, `webhook answer ${how}`);
    await delivered(Math.max(1, outcome.attempts));
    return;
  }
  if (outcome.code === 'cancelled' || signal.aborted) {
    deps.log.info({ ...context }, 'webhook delivery interrupted by shutdown; it is retried at the next start');
    return;
  }
  await failDelivery(outcome.attempts, `${outcome.message} (after ${outcome.attempts} attempt${outcome.attempts === 1 ? '' : 's'})`);
}

/**
 * What a delivered answer on a PR route leaves in the PR's thread: a review's head is the one the
 * next push is compared with; a refusal is posted once per PR.
 */
async function recordPrDelivery(threads: PrThreads, record: WebhookEventRecord, snapshot: RouteSnapshot): Promise<void> {
  if (!isPrRoute(snapshot) || (record.deliverAs !== 'summary' && record.deliverAs !== 'refusal')) return;
  let payload: unknown;
  try {
    payload = JSON.parse(record.payload);
  } catch {
    return;
  }
  const pr = typeof payload === 'object' && payload !== null ? prEventOf(record.event, payload as Record<string, unknown>) : undefined;
  if (!pr) return;
  if (record.deliverAs === 'refusal') await threads.update(record.route, prKey(pr), { refusalSent: true });
  else if (pr.headSha !== undefined) await threads.update(record.route, prKey(pr), { reviewedSha: pr.headSha });
}
