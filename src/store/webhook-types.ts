// The webhook inbox: every accepted event, durably, with the state of its run and delivery, and
// the dedup records of the 1-hour idempotency window. Part of the Store so that one gateway (or,
// on PostgreSQL, several) shares them.
//
// An event moves accepted → running → done → delivering → delivered, or ends `failed` with a
// reason. A run that was cut off (crash, kill -9, shutdown) goes back to `accepted` and runs again
// (at-least-once); a `done` event is delivered from its stored output, never re-run. A
// `delivering` event found at a start may have been posted already: its target is checked for the
// delivery marker before it is posted again, so a crash never makes a second comment.
//
// On a pull-request route each event carries its PR's lane: the events of one lane run one at a
// time, oldest first, and one waits while an older one of its lane is accepted, running or not yet
// delivered. A push may wait out a coalescing window (`runAfter`); one overtaken by a newer push of
// its lane ends `skipped`, as does an event the run decides needs nothing (a comment that is not a
// command).

export const WEBHOOK_EVENT_STATES = ['accepted', 'running', 'done', 'delivering', 'delivered', 'failed', 'skipped'] as const;
export type WebhookEventState = (typeof WEBHOOK_EVENT_STATES)[number];
/** The states of an event still on its way (the inbox depth); delivered and failed are history. */
export const WEBHOOK_PENDING_STATES = ['accepted', 'running', 'done', 'delivering'] as const;
export type WebhookPendingState = (typeof WEBHOOK_PENDING_STATES)[number];

export type NewWebhookEvent = {
  readonly route: string;
  readonly deliveryId: string;
  /** False for a timestamp id: such events are never deduplicated. */
  readonly deduplicate: boolean;
  readonly event: string;
  /** The payload as JSON text (a JSON object). */
  readonly payload: string;
  /** The route as it was when the event was accepted (no secret), as JSON text. */
  readonly routeSnapshot: string;
  /** Epoch milliseconds. */
  readonly receivedAt: number;
  /** The route and PR this event is about (see `eventLane`); events of one lane run in order. */
  readonly lane?: string;
  /** A push waits until then (epoch ms) for newer pushes to its PR, which overtake it. */
  readonly runAfter?: number;
};

/**
 * How a PR route's answer is delivered: as the living summary comment, or as a new reply; a
 * `refusal` is a reply whose delivery marks the PR as refused (so it is posted at most once).
 */
export type DeliverAs = 'summary' | 'reply' | 'refusal';

export type WebhookEventRecord = {
  readonly id: number;
  readonly route: string;
  readonly deliveryId: string;
  readonly event: string;
  readonly payload: string;
  readonly routeSnapshot: string;
  readonly state: WebhookEventState;
  readonly runAttempts: number;
  readonly deliveryAttempts: number;
  readonly sessionId: string | null;
  /** The process of the delivery's last `gh` run (its group leader), while `delivering`. */
  readonly deliveryPid: number | null;
  readonly output: string | null;
  /** Why the event failed (run or delivery), or the last delivery problem. */
  readonly error: string | null;
  readonly receivedAt: number;
  readonly updatedAt: number;
  readonly lane: string | null;
  readonly runAfter: number | null;
  /** Why the event ended without a run or a delivery (state `skipped`). */
  readonly skipReason: string | null;
  /** Set with the output on PR routes. */
  readonly deliverAs: DeliverAs | null;
};

export type AcceptOutcome = { readonly status: 'accepted'; readonly id: number } | { readonly status: 'duplicate' };

/**
 * Why an operator's Redeliver or Re-run was refused: no such event; its run or delivery is still
 * under way (accepted, running, done, delivering); or (Redeliver) there is no stored answer to
 * deliver (skipped, or failed before the run answered).
 */
export type OperatorRefusal = 'not_found' | 'not_finished' | 'no_answer';

export type RequeueOutcome = { readonly ok: true; readonly record: WebhookEventRecord } | { readonly ok: false; readonly reason: OperatorRefusal };
export type RerunOutcome = { readonly ok: true; readonly id: number } | { readonly ok: false; readonly reason: Exclude<OperatorRefusal, 'no_answer'> };

export type WebhookListOptions = {
  readonly route?: string;
  /** Only events in this state (as `WebhookEventRecord.state` names it). */
  readonly state?: WebhookEventState;
  readonly limit?: number;
};

export interface WebhookInbox {
  /** Was (route, deliveryId) accepted at or after `since` (epoch ms)? */
  isDuplicate(route: string, deliveryId: string, since: number): Promise<boolean>;
  /**
   * Writes the event and its dedup record in one transaction. The dedup check is repeated inside
   * it, so two gateways racing on one delivery accept it once.
   */
  accept(event: NewWebhookEvent, dedupSince: number): Promise<AcceptOutcome>;
  /**
   * Takes the oldest accepted event for a run (→ running, one more run attempt). Events that have
   * used `maxRunAttempts` already are failed instead of being handed out again.
   */
  claimNextRun(maxRunAttempts: number): Promise<WebhookEventRecord | undefined>;
  /** Links the run's session as soon as it exists, so a crash leaves the trail. */
  setSession(id: number, sessionId: string): Promise<void>;
  /**
   * running → done, with the output to deliver (and, on a PR route, how). False when the run was
   * no longer this process's to record (PostgreSQL: its lease lapsed and another worker took the
   * event over): the caller must not deliver it.
   */
  finishRun(id: number, output: string, deliverAs?: DeliverAs): Promise<boolean>;
  /** running → skipped: the run decided the event needs nothing; nothing is delivered. */
  skip(id: number, reason: string): Promise<void>;
  /** The earliest `runAfter` of a waiting event later than `now`, so a worker can wake for it. */
  nextRunAfter(now: number): Promise<number | undefined>;
  /** → failed, with the reason. */
  fail(id: number, reason: string): Promise<void>;
  /** running → accepted without counting the attempt (an orderly shutdown). */
  releaseRun(id: number): Promise<void>;
  /**
   * Running events whose process is gone → accepted; returns how many. SQLite: every running event
   * (one gateway per file). PostgreSQL: only those whose lease lapsed or whose worker was a process
   * on this host that is gone, never a live worker's.
   */
  recoverInterrupted(): Promise<number>;
  /**
   * Events whose run finished and whose delivery has not completed (done or delivering), oldest
   * first. PostgreSQL: only those no live worker holds, now claimed for this one. `othersOnly`
   * leaves out what this process holds (a running worker adopting a dead worker's deliveries while
   * its own are under way); on SQLite, where one worker has the file, that is none.
   */
  pendingDeliveries(options?: { readonly othersOnly?: boolean }): Promise<WebhookEventRecord[]>;
  /** done → delivering: recorded before the code host is called. */
  markDelivering(id: number): Promise<void>;
  /** Which process is delivering it now (reaped at the next start if a crash orphaned it). */
  setDeliveryPid(id: number, pid: number): Promise<void>;
  /** done or delivering → delivered. */
  markDelivered(id: number, attempts: number): Promise<void>;
  /** Records a delivery that gave up (→ failed, output kept). */
  markDeliveryFailed(id: number, attempts: number, reason: string): Promise<void>;
  get(id: number): Promise<WebhookEventRecord | undefined>;
  /** Newest first. */
  list(options?: WebhookListOptions): Promise<WebhookEventRecord[]>;
  /**
   * An operator's Redeliver: a finished event with a stored answer (delivered, or failed at its
   * delivery) goes back to `done` to be delivered again from that answer; the agent does not run.
   * A running gateway finds it at its next look for pending deliveries (worker-pool.ts). The
   * delivery attempts so far are kept until the new delivery records its own.
   */
  requeueDelivery(id: number): Promise<RequeueOutcome>;
  /**
   * An operator's Re-run: a new accepted event with the finished event's route, event, payload,
   * route snapshot and lane, under `deliveryId`, never deduplicated; answers its id.
   */
  rerun(id: number, deliveryId: string): Promise<RerunOutcome>;
  /** Deletes dedup records older than `before`; returns how many. Keeps the table bounded. */
  pruneDedup(before: number): Promise<number>;
  /** Deletes delivered, skipped and failed events last changed before `before`; returns how many. */
  pruneFinished(before: number): Promise<number>;
  /** How many events are in each state still on its way; cheap enough for every metrics scrape. */
  depth(): Promise<Record<WebhookPendingState, number>>;
  /** How many events ended `failed` (run or delivery) at `since` (epoch ms) or later: the health strip. */
  failedSince(since: number): Promise<number>;
}
