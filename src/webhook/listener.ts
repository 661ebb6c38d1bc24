// The webhook listener's request handler: GET /health and POST /webhooks/<route>, in exactly the
// order DECISIONS.md fixes (unknown route → disabled → size → secret → signature → JSON → event →
// filters → delivery id → duplicate → rate limit → durable write → 202). The rules themselves are
// the pure functions beside this file; this module only sequences them and does the I/O.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SharedRateLimiter } from '../store/types.js';
import type { WebhookInbox } from '../store/webhook-types.js';
import { matchesFilters } from './filters.js';
import { deliveryIdOf, eventNameOf } from './headers.js';
import { parsePayload } from './parse-payload.js';
import type { RateLimitDecision, SlidingWindowLimiter } from './rate-limit.js';
import { declaredTooLarge, readBody, TOO_LARGE } from '../http/read-body.js';
import { sendJson } from '../http/send-json.js';
import { routeSnapshot, type ResolvedRoute } from './routes.js';
import { eventLane } from './pr-event.js';
import { verifyRequest } from './verify.js';
import type { RefusalSampler } from './refusal-log.js';
import { errorMessage } from '../domain/error-message.js';
import { healthAnswer, RETRY_AFTER_SECONDS, type HealthReport } from './health.js';

export const DEDUP_WINDOW_MS = 3_600_000;
const WEBHOOK_PATH = /^\/webhooks\/([^/]*)$/;

export type ListenerLog = {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
};

/**
 * The window every listener of a PostgreSQL store shares (store.rateLimits): asked once per
 * request that reaches step 11, so it costs a round trip the in-memory limiter does not.
 */
export type SharedRouteLimiter = { readonly shared: SharedRateLimiter; readonly windowMs: number };

export type ListenerDeps = {
  /** The routes as they are now (subscriptions change while the listener runs). */
  readonly routes: () => ReadonlyMap<string, ResolvedRoute>;
  readonly inbox: WebhookInbox;
  /** This process's own window (SQLite: the one listener), or the shared one. */
  readonly limiter: SlidingWindowLimiter | SharedRouteLimiter;
  readonly rateLimit: number;
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
  readonly nowMs: () => number;
  readonly log: ListenerLog;
  /** Told about each accepted event (the worker pool wakes up, the count a minute goes up). */
  readonly onAccepted: (id: number, route: string) => void;
  /** Decides which refusals get a line (see refusal-log.ts); without one, every refusal does. */
  readonly refusals?: RefusalSampler;
  /**
   * Told the status of every answer on a webhook path once it is out (the metrics); `route` is the
   * name as requested, undefined when it cannot be decoded. Absent: no cost per request.
   */
  readonly onAnswered?: (route: string | undefined, status: number) => void;
  /**
   * What GET /health reports beyond "the listener answers": the store and the disk, as last looked
   * at (health-probe.ts; it must answer quickly whatever the store does). Absent: 200 alone.
   */
  readonly health?: () => Promise<HealthReport>;
};

/** A refusal for a store that cannot take the event now: the sender tries again later. */
const UNAVAILABLE = { error: 'Storage unavailable' } as const;
const RETRY_LATER = { 'retry-after': String(RETRY_AFTER_SECONDS) } as const;

const send = sendJson;

/** A refusal sent before the body was read: the connection closes, so the body is never read. */
function refuseUnread(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  send(res, status, body, { connection: 'close', ...headers });
}

function decodeRouteName(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

export function createWebhookHandler(deps: ListenerDeps) {
  const local = 'shared' in deps.limiter ? undefined : deps.limiter;
  const shared = 'shared' in deps.limiter ? deps.limiter : undefined;
  /** Gives a slot back; a shared window that cannot be reached keeps it (it only costs quota). */
  const refund = async (name: string): Promise<void> => {
    if (local) return local.refund(name);
    await shared!.shared.refund(name).catch((err: unknown) => deps.log.warn({ route: name, err: errorMessage(err) }, 'could not give back a rate-limit slot'));
  };

  // A route object lives until the route table changes, so its snapshot is made once.
  const snapshots = new WeakMap<ResolvedRoute, string>();
  const snapshotOf = (route: ResolvedRoute): string => {
    let text = snapshots.get(route);
    if (text === undefined) {
      text = routeSnapshot(route);
      snapshots.set(route, text);
    }
    return text;
  };

  /** A refusal's line, if the sampler lets it through: strangers must not be able to fill the log. */
  const logRefusal = (req: IncomingMessage, route: string, level: 'info' | 'warn', fields: object, message: string): void => {
    if (!deps.refusals || deps.refusals.take(route, req.socket.remoteAddress)) deps.log[level](fields, message);
  };

  async function receive(req: IncomingMessage, res: ServerResponse, name: string): Promise<void> {
    // 1–2: the route, before a byte of the body is read.
    const route = deps.routes().get(name);
    if (!route) return refuseUnread(res, 404, { error: `Unknown route: ${name.slice(0, 100)}` });
    if (!route.enabled) return refuseUnread(res, 403, { error: 'Route disabled' });
    // 3: size and time.
    if (declaredTooLarge(req, deps.maxBodyBytes)) return refuseUnread(res, 413, { error: TOO_LARGE });
    const body = await readBody(req, deps.maxBodyBytes, deps.bodyTimeoutMs);
    if (!body.ok) {
      if (!body.clientGone) logRefusal(req, name, 'warn', { route: name, status: body.status, remote: req.socket.remoteAddress }, `webhook body refused: ${body.error}`);
      return refuseUnread(res, body.status, { error: body.error });
    }
    // 4–5: who sent it.
    if (route.secret === '') return send(res, 403, { error: 'Route has no secret' });
    const verified = verifyRequest(req.headers, body.body, route.secret);
    if (!verified.ok) {
      logRefusal(req, name, 'warn', { route: name, reason: verified.reason, remote: req.socket.remoteAddress }, 'webhook signature refused');
      return send(res, 401, { error: 'Invalid signature' });
    }
    // 6–8: what it is.
    const parsed = parsePayload(body.body, req.headers['content-type']);
    if (!parsed.ok) return send(res, 400, { error: parsed.error });
    const event = eventNameOf(req.headers, parsed.payload);
    if (route.events.length > 0 && !route.events.includes(event)) {
      deps.log.debug({ route: name, event }, 'webhook event ignored (not in the route\'s events)');
      return send(res, 200, { status: 'ignored', event });
    }
    if (!matchesFilters(route.filters, parsed.payload)) {
      deps.log.debug({ route: name, event }, 'webhook event ignored (filters)');
      return send(res, 200, { status: 'ignored', event, reason: 'filter' });
    }
    // 9–11: once, and not too often. The accepting transaction checks for a duplicate anyway, so
    // the common case asks the store once: a slot is taken first and given back when the event
    // turns out to be a duplicate (duplicates cost no quota). Only a request over the limit asks the
    // store first, so a duplicate is still answered as one rather than with a 429 (step 10 first).
    const now = deps.nowMs();
    const delivery = deliveryIdOf(req.headers, now);
    const dedupSince = now - DEDUP_WINDOW_MS;
    const duplicateAnswer = () => {
      logRefusal(req, name, 'info', { route: name, event, delivery_id: delivery.id }, 'webhook duplicate delivery');
      send(res, 200, { status: 'duplicate', delivery_id: delivery.id });
    };
    const storeDown = (err: unknown) => {
      deps.log.error({ route: name, err: errorMessage(err) }, 'webhook store unavailable; event not accepted');
      send(res, 503, UNAVAILABLE, RETRY_LATER);
    };
    let quota: RateLimitDecision;
    if (local) quota = local.take(name, deps.rateLimit);
    else {
      try {
        quota = await shared!.shared.take(name, deps.rateLimit, shared!.windowMs);
      } catch (err) {
        // Nothing taken, nothing stored: the sender retries (a 5xx) and is not a duplicate then.
        deps.log.error({ route: name, err: errorMessage(err) }, 'webhook rate limit unavailable (the shared store failed); event not accepted');
        return send(res, 503, UNAVAILABLE, RETRY_LATER);
      }
    }
    if (!quota.ok) {
      try {
        if (delivery.deduplicate && (await deps.inbox.isDuplicate(name, delivery.id, dedupSince))) return duplicateAnswer();
      } catch (err) {
        return storeDown(err);
      }
      logRefusal(req, name, 'warn', { route: name, event, delivery_id: delivery.id }, 'webhook rate limit exceeded');
      return send(res, 429, { error: 'Rate limit exceeded' }, { 'retry-after': String(quota.retryAfterSeconds) });
    }
    // 12: durably, then the answer.
    try {
      const outcome = await deps.inbox.accept(
        { route: name, deliveryId: delivery.id, deduplicate: delivery.deduplicate, event, payload: parsed.json, routeSnapshot: snapshotOf(route), receivedAt: now, ...eventLane(route, event, parsed.payload, now) },
        dedupSince,
      );
      if (outcome.status === 'duplicate') {
        await refund(name);
        return duplicateAnswer();
      }
      // Debug only: the inbox is the record of what was accepted, and a line per event at info
      // would cost the hot path a serialisation and a redaction walk (the gateway logs a count).
      deps.log.debug({ route: name, event, delivery_id: delivery.id, id: outcome.id }, 'webhook accepted');
      send(res, 202, { status: 'accepted', route: name, event, delivery_id: delivery.id });
      deps.onAccepted(outcome.id, name);
    } catch (err) {
      await refund(name); // nothing was recorded
      storeDown(err);
    }
  }

  return function handle(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?', 1)[0]!;
    if (path === '/health') {
      if (req.method !== 'GET' && req.method !== 'HEAD') return refuseUnread(res, 405, { error: 'Method not allowed' }, { allow: 'GET, HEAD' });
      if (!deps.health) return send(res, 200, healthAnswer(undefined).body);
      deps.health().then(
        (report) => {
          const answer = healthAnswer(report);
          send(res, answer.status, answer.body);
        },
        () => send(res, 503, healthAnswer({ store: 'unreachable' }).body),
      );
      return;
    }
    const match = WEBHOOK_PATH.exec(path);
    if (!match) return refuseUnread(res, 404, { error: 'Not found' });
    const name = decodeRouteName(match[1]!);
    // Every branch below ends in one answer; watching the response once covers them all.
    const onAnswered = deps.onAnswered;
    if (onAnswered) {
      res.once('close', () => {
        if (res.headersSent) onAnswered(name, res.statusCode);
      });
    }
    if (req.method !== 'POST') return refuseUnread(res, 405, { error: 'Method not allowed' }, { allow: 'POST' });
    if (name === undefined) return refuseUnread(res, 404, { error: `Unknown route: ${match[1]!.slice(0, 100)}` });
    receive(req, res, name).catch((err: unknown) => {
      // A bug, not an expected failure: answer it as one, and keep serving.
      deps.log.error({ route: name, err: err instanceof Error ? err.stack : String(err) }, 'webhook handler failed');
      send(res, 500, { error: 'Internal error' });
    });
  };
}
