// The named steps of a gateway start (gateway.ts runs them in order): each takes what the steps
// before it made, and either returns what it made or a failure as a value; what it holds, it
// registers with the start's undo stack, so a later failure gives it back.
import type { Server } from 'node:http';
import type { Env, HomePaths } from '../config/home.js';
import type { Config } from '../config/schema.js';
import type { RolePlan } from '../domain/gateway-role.js';
import { WORK_POLL_MS } from '../domain/gateway-role.js';
import { errorMessage } from '../domain/error-message.js';
import { readDiskSpace } from '../config/disk-space-read.js';
import { createLogger, type Logger } from '../log/logger.js';
import { rotationOf } from '../log/rotation.js';
import { createRoutingDeps } from '../routing/runtime.js';
import type { Store } from '../store/types.js';
import type { WebhookEventRecord } from '../store/webhook-types.js';
import { createWebhookHandler, type ListenerLog } from '../webhook/listener.js';
import { createSlidingWindowLimiter, RATE_LIMIT_DEFAULTS } from '../webhook/rate-limit.js';
import type { RefusalSampler } from '../webhook/refusal-log.js';
import type { ResolvedRoute } from '../webhook/routes.js';
import { createMcpPool } from '../agent/tools/mcp/pool.js';
import { startPlatformHost, type PlatformHost } from '../platforms/platform-host.js';
import type { PlatformName } from '../domain/platforms.js';
import type { AcceptSummary } from './accept-summary.js';
import { deliverEvent } from './deliver-event.js';
import { createHealthProbe } from './health-probe.js';
import { closeServer, createGatewayServer, listen, listenProblem } from './http-server.js';
import { meteredDeliveries, meteredStore, routeLabel, timedRun } from './metrics/observe.js';
import type { GatewayMetrics } from './metrics/types.js';
import { createMetricsEndpoint, withMetricsEndpoint } from './metrics/scrape.js';
import { withPlatformRoutes } from './platform-routes.js';
import { createPrForges } from './pr-forges.js';
import { runWebhookEvent } from './run-event.js';
import type { StartUndo } from './start-undo.js';
import { removeGatewayAddress, writeGatewayAddress } from './address-file.js';
import { startCuratorSchedule, type CuratorScheduleHandle } from './curator-schedule.js';
import type { Housekeeping } from './housekeeping.js';
import { subscribeWakes } from '../runtime/wakes.js';
import { createWorkerPool, type WorkerPool } from './worker-pool.js';

/** How often a worker on a shared store looks for deliveries a dead worker left. */
const ADOPT_DELIVERIES_EVERY_MS = 5_000;

export type StepFailure = { readonly ok: false; readonly code: 'port_in_use' | 'listen' | 'store'; readonly problem: string };

export type GatewayLog = {
  readonly log: Logger;
  /** The same log, shaped for the parts that only log (listener, pool, platforms). */
  readonly llog: ListenerLog;
  /** Resolves once every line so far is in the file (a delivery's log line before its answer goes out). */
  readonly flushLog: () => Promise<void>;
  readonly rotation: ReturnType<typeof rotationOf>;
};

/**
 * gateway.log, buffered: a line per accepted event must not cost a write syscall on the request
 * path. The inbox, not the log, is the record of what was accepted; lines are flushed at stop.
 */
export function openGatewayLog(paths: HomePaths, env: Env, config: Readonly<Config>, flush: (log: Logger) => Promise<void>): GatewayLog {
  const rotation = rotationOf(config.logging);
  const log = createLogger(paths, 'gateway', { level: env.IRIS_LOG_LEVEL?.trim() || 'info', sync: false, rotation });
  const llog: ListenerLog = {
    debug: (fields, message) => log.debug(fields, message),
    info: (fields, message) => log.info(fields, message),
    warn: (fields, message) => log.warn(fields, message),
    error: (fields, message) => log.error(fields, message),
  };
  return { log, llog, flushLog: () => flush(log), rotation };
}

/** What every run and delivery of this gateway shares: model routing, the store as runs see it, the code hosts, the MCP servers. */
export type RunWiring = {
  readonly routing: ReturnType<typeof createRoutingDeps>;
  /** The store, counted by the metrics when they are on. */
  readonly runStore: Store;
  readonly deliveryInbox: Store['webhooks'];
  readonly forges: ReturnType<typeof createPrForges>;
  readonly mcpPool: ReturnType<typeof createMcpPool>;
  readonly run: (record: WebhookEventRecord, signal: AbortSignal) => ReturnType<typeof runWebhookEvent>;
};

export function wireRuns(
  deps: { paths: HomePaths; env: Env; config: Readonly<Config>; store: Store; logs: GatewayLog; metrics: GatewayMetrics | undefined; targets: Map<PlatformName, { readonly homeChannel: string }> },
  undo: StartUndo,
): RunWiring {
  const { paths, env, config, store, metrics, targets } = deps;
  const { llog, rotation } = deps.logs;
  // Metrics off: the parts are used as they are. On: they report through the seams they already
  // have (usage records, delivery outcomes, the run's result).
  const routing = metrics ? { ...createRoutingDeps(paths, env, { rotation }), onCallFinished: metrics.modelCall } : createRoutingDeps(paths, env, { rotation });
  const runStore = metrics ? meteredStore(store, metrics) : store;
  const deliveryInbox = metrics ? meteredDeliveries(store.webhooks, metrics) : store.webhooks;
  const forges = createPrForges({ env, gitlabApiBase: config.gitlab.api_base });
  // One connection per MCP server for every run of this gateway, started by the first run that needs it.
  const mcpPool = createMcpPool();
  undo.push(() => mcpPool.close());
  const run = (record: WebhookEventRecord, signal: AbortSignal) => runWebhookEvent({ paths, env, store: runStore, routing, log: llog, platforms: targets, forges, mcpPool }, record, signal);
  return { routing, runStore, deliveryInbox, forges, mcpPool, run };
}

/** The chat platforms, started with the store and before the webhook workers (a delivery may go to them). */
export async function startChats(
  deps: {
    paths: HomePaths;
    env: Env;
    config: Readonly<Config>;
    plan: RolePlan;
    wiring: RunWiring;
    logs: GatewayLog;
    nowMs: () => number;
    metrics: GatewayMetrics | undefined;
    targets: Map<PlatformName, { readonly homeChannel: string }>;
    wanted: boolean;
  },
  undo: StartUndo,
): Promise<{ ok: true; platforms: PlatformHost | undefined } | StepFailure> {
  if (!deps.wanted) return { ok: true, platforms: undefined };
  const { paths, env, config, plan, wiring, metrics, targets } = deps;
  try {
    const platforms = await startPlatformHost({
      paths,
      env,
      config,
      store: wiring.runStore,
      routing: wiring.routing,
      mcpPool: wiring.mcpPool,
      log: deps.logs.llog,
      nowMs: deps.nowMs,
      concurrency: config.platforms.webhook.extra.concurrency,
      parts: { receives: plan.listens, works: plan.works },
      ...(metrics ? { onConnection: metrics.platformConnected, onOutbox: metrics.outboxSend } : {}),
      // /sethome: deliveries without a chat_id go to the new home channel from now on.
      onHomeChannel: (name, chatId) => targets.set(name, { homeChannel: chatId }),
    });
    undo.push(() => platforms.stop(0));
    return { ok: true, platforms };
  } catch (err) {
    return { ok: false, code: 'store', problem: `the chat platforms could not start: ${errorMessage(err)}` };
  }
}

/** The webhook workers (not started yet: they start once the listener answers). */
export function createPool(deps: {
  env: Env;
  config: Readonly<Config>;
  store: Store;
  wiring: RunWiring;
  logs: GatewayLog;
  nowMs: () => number;
  metrics: GatewayMetrics | undefined;
  platforms: PlatformHost | undefined;
  targets: Map<PlatformName, { readonly homeChannel: string }>;
}): WorkerPool {
  const { env, config, store, wiring, metrics, platforms } = deps;
  const { llog, flushLog } = deps.logs;
  const extra = config.platforms.webhook.extra;
  const platformDelivery = { targets: deps.targets, store: store.platforms, adapters: platforms?.adapters ?? new Map(), wake: () => platforms?.wakeOutbox() };
  return createWorkerPool({
    concurrency: extra.concurrency,
    inbox: store.webhooks,
    maxRunAttempts: extra.max_run_attempts,
    log: llog,
    nowMs: deps.nowMs,
    pollMs: WORK_POLL_MS,
    // A shared store: a worker that died between a run and its delivery leaves the delivery
    // to the others, once its lease lapses.
    ...(store.backend === 'postgres' ? { adoptDeliveriesEveryMs: ADOPT_DELIVERIES_EVERY_MS } : {}),
    run: metrics ? timedRun(wiring.run, metrics, () => performance.now()) : wiring.run,
    deliver: (record, signal) =>
      deliverEvent({ env, inbox: wiring.deliveryInbox, log: llog, platforms: platformDelivery, forges: wiring.forges, threads: store.prThreads, findings: store.prFindings, flushLog }, record, signal),
  });
}

/**
 * The listener: webhooks, the chat platforms' HTTP routes and, when on, /metrics. On PostgreSQL
 * its rate window is the store's, shared by every listener; on SQLite it stays in this process
 * (the one listener of the home), costing no I/O per request.
 */
export async function openListener(
  deps: {
    paths: HomePaths;
    config: Readonly<Config>;
    store: Store;
    currentRoutes: () => ReadonlyMap<string, ResolvedRoute>;
    logs: GatewayLog;
    nowMs: () => number;
    refusals: RefusalSampler;
    acceptSummary: AcceptSummary;
    pool: WorkerPool | undefined;
    platforms: PlatformHost | undefined;
    metrics: GatewayMetrics | undefined;
    scrapeToken: string | undefined;
  },
  undo: StartUndo,
): Promise<{ ok: true; server: Server; port: number } | StepFailure> {
  const { paths, store, currentRoutes, nowMs, pool, platforms, metrics } = deps;
  const extra = deps.config.platforms.webhook.extra;
  const handler = createWebhookHandler({
    routes: currentRoutes,
    inbox: store.webhooks,
    limiter: store.rateLimits ? { shared: store.rateLimits, windowMs: RATE_LIMIT_DEFAULTS.windowMs } : createSlidingWindowLimiter({ limit: extra.rate_limit, maxKeys: 10_000, nowMs }),
    rateLimit: extra.rate_limit,
    maxBodyBytes: extra.max_body_bytes,
    bodyTimeoutMs: extra.body_timeout * 1000,
    nowMs,
    log: deps.logs.llog,
    refusals: deps.refusals,
    onAccepted: (_id, route) => {
      pool?.wake();
      deps.acceptSummary.count(route);
    },
    ...(metrics ? { onAnswered: (name: string | undefined, status: number) => metrics.answered(routeLabel(name, currentRoutes()), status) } : {}),
    health: createHealthProbe({ pingStore: () => store.webhooks.depth(), readDisk: () => readDiskSpace(paths.dir) }),
  });
  const served = withPlatformRoutes(platforms?.httpRoutes ?? [], handler);
  const server = createGatewayServer(metrics ? withMetricsEndpoint(createMetricsEndpoint(metrics, deps.scrapeToken), served) : served, extra.body_timeout * 1000);
  const listening = await listen(server, extra.host, extra.port);
  if (!listening.ok) return { ok: false, code: listening.code === 'EADDRINUSE' ? 'port_in_use' : 'listen', problem: listenProblem(listening, extra.host, extra.port) };
  undo.push(() => closeServer(server));
  return { ok: true, server, port: listening.port };
}

/**
 * The work side, once the listener answers: a worker takes back the runs of dead workers (on
 * PostgreSQL only theirs: the leases of live ones are left alone), delivers what finished before,
 * starts its pool, its wakes and the curator's schedule. Last, the address file: once it names
 * this process, clients (iris webhook test, gateway start) may rely on it.
 */
export async function startWork(
  deps: {
    paths: HomePaths;
    env: Env;
    config: Readonly<Config>;
    store: Store;
    pool: WorkerPool | undefined;
    housekeeping: Housekeeping;
    routing: RunWiring['routing'];
    logs: GatewayLog;
    nowMs: () => number;
    port: number | undefined;
  },
  undo: StartUndo,
): Promise<{ ok: true; recovered: number; curator: CuratorScheduleHandle | undefined; unsubscribe: () => Promise<void> } | StepFailure> {
  const { paths, store, pool, logs } = deps;
  let recovered = 0;
  let curator: CuratorScheduleHandle | undefined;
  let unsubscribe: () => Promise<void> = async () => {};
  try {
    if (pool) {
      recovered = await store.webhooks.recoverInterrupted();
      await deps.housekeeping.start();
      undo.push(() => pool.stop(0));
      await pool.start();
      // An event accepted by a listener in another process wakes this pool at once (PostgreSQL).
      unsubscribe = await subscribeWakes(store, [['inbox', () => pool.wake()]], logs.llog);
      undo.push(unsubscribe);
      const started = startCuratorSchedule({ schedule: deps.config.curator.schedule, paths, env: deps.env, store, routing: deps.routing, log: logs.llog, nowMs: deps.nowMs });
      curator = started;
      undo.push(() => started.stop());
    }
    if (deps.port !== undefined) {
      undo.push(() => removeGatewayAddress(paths));
      await writeGatewayAddress(paths, { pid: process.pid, host: deps.config.platforms.webhook.extra.host, port: deps.port });
    }
    return { ok: true, recovered, curator, unsubscribe };
  } catch (err) {
    // The port is open and the pid files and store are held: the caller gives all of it back, so
    // a failed start leaves nothing listening and nothing locked.
    const problem = `the gateway could not start: ${errorMessage(err)}`;
    logs.llog.error({}, `${problem}; nothing was left running`);
    return { ok: false, code: 'store', problem };
  }
}
