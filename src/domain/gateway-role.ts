// What a gateway process does (`iris gateway run --role listener|worker|all`), as one table: a
// listener takes work in (the webhook HTTP listener, the chat platforms' receiving) and stores it;
// a worker does it (webhook runs and deliveries, chat answers, the outbox) and recovers what dead
// workers left at its start; `all` is both. Pure: the gateway reads its plan from here.

export const GATEWAY_ROLES = ['listener', 'worker', 'all'] as const;
export type GatewayRole = (typeof GATEWAY_ROLES)[number];
export const DEFAULT_GATEWAY_ROLE: GatewayRole = 'all';

/** The home's listening gateway (`all` or `listener`): what `iris gateway start|stop|status` track. */
export const LISTENER_PID_FILE = 'gateway.pid';
/** The home's working gateway (`all` or `worker`). */
export const WORKER_PID_FILE = 'gateway-worker.pid';

export type RolePlan = {
  /** The HTTP listener (webhooks, /health, /metrics, SMS) and the chat platforms' receiving loops. */
  readonly listens: boolean;
  /** The webhook worker pool, the conversation runner, the outbox drain, pruning, the curator. */
  readonly works: boolean;
  /**
   * The pid files held while running: one process per slot and home. `all` holds both, so it
   * never runs beside a separate listener or worker of its home; a listener and a worker may run
   * side by side (on SQLite they share state.db). Two workers of one home would each recover the
   * other's runs on SQLite, so the worker slot is one per home too.
   */
  readonly pidFiles: readonly string[];
};

export const ROLE_PLANS: Readonly<Record<GatewayRole, RolePlan>> = Object.freeze({
  listener: { listens: true, works: false, pidFiles: [LISTENER_PID_FILE] },
  worker: { listens: false, works: true, pidFiles: [WORKER_PID_FILE] },
  all: { listens: true, works: true, pidFiles: [LISTENER_PID_FILE, WORKER_PID_FILE] },
});

export function isGatewayRole(value: string): value is GatewayRole {
  return (GATEWAY_ROLES as readonly string[]).includes(value);
}

/**
 * How often a worker looks for work it was not told about. A wake (in this process, or a NOTIFY
 * from PostgreSQL) is the fast path; the poll covers a listener in another process on SQLite, a
 * NOTIFY lost while the LISTEN connection was down, and work put back by another worker's recovery.
 */
export const WORK_POLL_MS = 1_000;
