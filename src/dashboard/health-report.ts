// The health strip's answer (GET /api/health) as plain data, from what a reader outside the gateway
// can know: the pid files (running, and in which roles), the listener and its /health, each
// platform's last reported connection, the inbox, runs in progress and failed deliveries. Pure:
// the route reads the files and the store, this shapes them.
import type { GatewayRole } from '../domain/gateway-role.js';
import type { GatewayView, PlatformConnection } from '../gateway/status-view.js';
import type { GatewayStatus } from '../routing/status-report.js';
import type { WebhookPendingState } from '../store/webhook-types.js';

export type GatewayProcess = { readonly pid: number; readonly role: GatewayRole };

/**
 * The live gateway processes of the home and their roles, from the two pid files: `all` holds
 * both with one pid, a `--role listener` only gateway.pid, a `--role worker` only
 * gateway-worker.pid. The files are all the gateway leaves for outsiders, and they say this much.
 */
export function gatewayProcesses(listener: GatewayStatus, worker: GatewayStatus): GatewayProcess[] {
  const listenerPid = listener.state === 'running' ? listener.pid : undefined;
  const workerPid = worker.state === 'running' ? worker.pid : undefined;
  if (listenerPid !== undefined && listenerPid === workerPid) return [{ pid: listenerPid, role: 'all' }];
  return [
    ...(listenerPid !== undefined ? [{ pid: listenerPid, role: 'listener' as const }] : []),
    ...(workerPid !== undefined ? [{ pid: workerPid, role: 'worker' as const }] : []),
  ];
}

/** How far back a failed delivery still counts as failing. */
export const FAILING_WINDOW_MS = 24 * 60 * 60 * 1000;

export type FailedCount = { readonly count: number };

export type Inbox = Readonly<Record<WebhookPendingState, number>>;

export const EMPTY_INBOX: Inbox = Object.freeze({ accepted: 0, running: 0, done: 0, delivering: 0 });

export type HealthReport = {
  readonly gateway: {
    readonly state: GatewayStatus['state'];
    /** The listening gateway's pid (gateway.pid), when one is running. */
    readonly pid: number | null;
    readonly processes: readonly GatewayProcess[];
    /** Which of listening and working some live process of this home does. */
    readonly listening: boolean;
    readonly working: boolean;
  };
  readonly listener: { readonly url: string; readonly answers_health: boolean };
  readonly platforms: readonly PlatformConnection[];
  /** Webhook events still on their way, by state. */
  readonly inbox: Inbox;
  /** Chat messages waiting or running, and chat replies waiting to be sent. */
  readonly chat: { readonly inbound: number; readonly outbox: number };
  /** Webhook runs in progress. */
  readonly runs_in_progress: number;
  readonly failing: { readonly webhook_events_24h: FailedCount; readonly chat_sends_24h: FailedCount };
};

export type HealthInputs = {
  readonly view: GatewayView;
  readonly workerStatus: GatewayStatus;
  readonly inbox: Inbox;
  readonly chat: { readonly inbound: number; readonly outbox: number };
  readonly failedWebhooks: FailedCount;
  readonly failedChatSends: FailedCount;
};

export function healthReport(inputs: HealthInputs): HealthReport {
  const { view } = inputs;
  const processes = gatewayProcesses(view.status, inputs.workerStatus);
  return {
    gateway: {
      state: view.status.state,
      pid: view.status.state === 'running' ? view.status.pid : null,
      processes,
      listening: processes.some((p) => p.role !== 'worker'),
      working: processes.some((p) => p.role !== 'listener'),
    },
    listener: { url: view.url, answers_health: view.healthy },
    platforms: view.platforms,
    inbox: inputs.inbox,
    chat: inputs.chat,
    runs_in_progress: inputs.inbox.running,
    failing: { webhook_events_24h: inputs.failedWebhooks, chat_sends_24h: inputs.failedChatSends },
  };
}
