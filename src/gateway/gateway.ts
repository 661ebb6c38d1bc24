// The long-running gateway: checks everything first (no partial start), then holds the pid files,
// the store, the webhook listener and the worker pool. Stopping closes the listener, lets runs in
// flight reach a safe point, and leaves the rest in the inbox for the next start. Its role
// (role.ts) says which of these run here: a listener takes work in, a worker does it, `all` both.
import type { Server } from 'node:http';
import type { Env, HomePaths } from '../config/home.js';
import { loadConfig } from '../config/store.js';
import type { Config } from '../config/schema.js';
import { formatProblem } from '../config/validate.js';
import { createLogger, type Logger } from '../log/logger.js';
import { logWritten } from '../log/log-written.js';
import { rotationOf } from '../log/rotation.js';
import { mainRoute } from '../routing/resolve.js';
import { createRoutingDeps } from '../routing/runtime.js';
import { openStoreAt, storeTarget } from '../store/open-store.js';
import type { Store } from '../store/types.js';
import type { WebhookEventRecord } from '../store/webhook-types.js';
import { createWebhookHandler, DEDUP_WINDOW_MS, type ListenerLog } from '../webhook/listener.js';
import { createSlidingWindowLimiter, RATE_LIMIT_DEFAULTS } from '../webhook/rate-limit.js';
import { createRefusalSampler, REFUSAL_SAMPLING } from '../webhook/refusal-log.js';
import { routeProblems } from '../webhook/route-checks.js';
import { resolveRoutes, type ResolvedRoute } from '../webhook/routes.js';
import { createSubscriptionReader, subscriptionsPath } from '../webhook/subscriptions.js';
import { deliverEvent } from './deliver-event.js';
import { removeGatewayAddress, writeGatewayAddress } from './address-file.js';
import { listenerUrl } from './listener-url.js';
import { claimPidFiles, releasePidFiles } from './pid-file.js';
import { closeServer, createGatewayServer, listen, listenProblem } from './http-server.js';
import { DEFAULT_GATEWAY_ROLE, ROLE_PLANS, WORK_POLL_MS, WORKER_PID_FILE, type GatewayRole } from '../domain/gateway-role.js';
import { subscribeWakes } from './wakes.js';
import { createPrForges } from './pr-forges.js';
import { runWebhookEvent } from './run-event.js';
import { startCuratorSchedule, type CuratorScheduleHandle } from './curator-schedule.js';
import { createWorkerPool } from './worker-pool.js';
import { createHealthProbe } from './health-probe.js';
import { readDiskSpace } from '../config/disk-space-read.js';
import { enabledPlatformNames, platformRouteProblem, platformTargets } from '../platforms/delivery-target.js';
import { startPlatformHost, type PlatformHost } from '../platforms/platform-host.js';
import { isRunnablePlatform } from '../platforms/registry.js';
import { withPlatformRoutes } from './platform-routes.js';
import { createLiveRouteTable } from './route-table.js';
import { errorMessage } from '../domain/error-message.js';
import { meteredDeliveries, meteredStore, routeLabel, timedRun } from './metrics/observe.js';
import { createPrometheusMetrics } from './metrics/prometheus.js';
import { createMetricsEndpoint, METRICS_PATH, METRICS_TOKEN_ENV, metricsToken, withMetricsEndpoint } from './metrics/scrape.js';
import { SET_UP_MODEL } from '../domain/setup-hint.js';

export type GatewayOptions = {
  readonly paths: HomePaths;
  readonly env: Env;
  readonly nowMs?: () => number;
  /** Where start-up lines go besides gateway.log (the terminal). */
  readonly print?: (line: string) => void;
  /**
   * Opens the store; default: the configured one (store.url / IRIS_STORE_URL: PostgreSQL), else
   * SQLite at $IRIS_HOME/state.db with its writer thread.
   */
  readonly openStore?: (statePath: string) => Promise<Store>;
  /** What this process does (default `all`). */
  readonly role?: GatewayRole;
};

export type StartFailure = { readonly ok: false; readonly code: 'config' | 'running' | 'port_in_use' | 'listen' | 'store'; readonly problems: readonly string[] };

export type GatewayHandle = {
  readonly ok: true;
  readonly role: GatewayRole;
  /** Where the listener answers; undefined for a worker alone. */
  readonly url: string | undefined;
  readonly routes: readonly ResolvedRoute[];
  /** Stops everything; resolves when the process may exit. */
  stop(reason: string): Promise<void>;
};

/** How long a stop waits for runs in flight to record where they stopped. */
export const STOP_GRACE_MS = 15_000;
const PRUNE_EVERY_MS = 10 * 60_000;
/** How often a worker on a shared store looks for deliveries a dead worker left. */
const ADOPT_DELIVERIES_EVERY_MS = 5_000;
/** Accepted events are logged one by one at debug only; at info, as a count a minute. */
const ACCEPT_SUMMARY_EVERY_MS = 60_000;
function listenerLog(log: Logger): ListenerLog {
  return {
    debug: (fields, message) => log.debug(fields, message),
    info: (fields, message) => log.info(fields, message),
    warn: (fields, message) => log.warn(fields, message),
    error: (fields, message) => log.error(fields, message),
  };
}


/** Runs every step even when one fails (each failure is logged), so one cannot strand the rest. */
async function undoSteps(steps: ReadonlyArray<() => Promise<unknown>>, log: ListenerLog): Promise<void> {
  for (const step of steps) {
    try {
      await step();
    } catch (err) {
      log.error({ err: errorMessage(err) }, 'undoing a failed start: a step failed');
    }
  }
}

function enabledRouteProblems(config: Readonly<Config>, routes: readonly ResolvedRoute[]): string[] {
  return routes.flatMap((route) => routeProblems(route, config.platforms.webhook.extra.host));
}

export async function startGateway(options: GatewayOptions): Promise<GatewayHandle | StartFailure> {
  const { paths, env } = options;
  const role = options.role ?? DEFAULT_GATEWAY_ROLE;
  const plan = ROLE_PLANS[role];
  const nowMs = options.nowMs ?? Date.now;
  const print = options.print ?? (() => {});
  const loaded = await loadConfig(paths);
  if (!loaded.ok) return { ok: false, code: 'config', problems: [loaded.error.message] };
  const config = loaded.config;
  const webhook = config.platforms.webhook;
  const chatPlatforms = enabledPlatformNames(config);
  if (!webhook.enabled && chatPlatforms.length === 0) {
    return { ok: false, code: 'config', problems: ['no platform is enabled: set platforms.webhook.enabled to true (iris config set platforms.webhook.enabled true), or enable a chat platform (docs/platforms.md)'] };
  }
  // Live: /sethome in a chat changes a platform's home channel while the gateway runs.
  const targets = new Map(platformTargets(config));
  const extra = webhook.extra;
  // Unreadable webhook settings fall back to defaults elsewhere; here they would serve the wrong
  // routes or secrets, so they stop the start.
  const webhookProblems = loaded.problems.filter((p) => p.path.startsWith('platforms.')).map(formatProblem);
  const unsupported = chatPlatforms.filter((name) => !isRunnablePlatform(name));
  for (const name of unsupported) webhookProblems.push(`platforms.${name}.enabled: ${name} is not available in this version of Iris; set it to false`);

  // The log is opened only once the checks pass; until then subscription problems are kept here.
  const opened: { log?: Logger } = {};
  const early: string[] = [];
  const reader = createSubscriptionReader(subscriptionsPath(paths), (found) => {
    for (const problem of found) {
      if (opened.log) opened.log.warn({}, problem);
      else early.push(problem);
    }
  });
  // Webhook routes are served only when the webhook platform is on (the listener may be there for SMS alone).
  const resolved = webhook.enabled ? resolveRoutes(config, reader.read().file.subscriptions) : { routes: new Map<string, ResolvedRoute>(), shadowed: [] };
  // A route to a chat platform that is not set up is reported and disabled (403); the rest serves.
  const undeliverable = [...resolved.routes.values()].flatMap((route) => {
    const problem = route.enabled ? platformRouteProblem(route, targets) : undefined;
    return problem ? [problem] : [];
  });
  const routes = [...resolved.routes.values()].map((route) => (route.enabled && platformRouteProblem(route, targets) ? { ...route, enabled: false } : route));
  const first = { routes: new Map(routes.map((route) => [route.name, route])) };
  const problems = [...webhookProblems, ...enabledRouteProblems(config, routes)];
  // Every run needs the main model; without one each accepted event would fail. A listener alone
  // runs nothing: its workers' homes need the model.
  if (plan.works && !mainRoute(config)) problems.push(`no main model is configured (model: ''), so no event could run; ${SET_UP_MODEL}`);
  if (problems.length > 0) return { ok: false, code: 'config', problems };

  // Buffered writes: a line per accepted event must not cost a write syscall on the request path.
  // The inbox, not the log, is the record of what was accepted; lines are flushed at stop.
  const rotation = rotationOf(config.logging);
  const log = createLogger(paths, 'gateway', { level: env.IRIS_LOG_LEVEL?.trim() || 'info', sync: false, rotation });
  opened.log = log;
  const llog = listenerLog(log);
  const flushLog = () => logWritten(log);
  for (const problem of [...early, ...undeliverable.map((p) => `${p}; the route is disabled (403) until that is fixed`)]) {
    llog.warn({}, problem);
    print(`warning: ${problem}`);
  }

  // Metrics off: none of this exists, and prom-client is never loaded. On: the parts report
  // through the seams they already have (usage records, delivery outcomes, the run's result).
  // Made before anything is held, so a failure here leaves nothing to undo.
  let store: Store; // opened below; the listener, and so a scrape, comes after it
  // Served by the listener: a worker alone has no port, so it keeps none.
  const metrics = extra.metrics && plan.listens ? await createPrometheusMetrics({ inboxDepth: () => store.webhooks.depth() }) : undefined;

  const claim = await claimPidFiles(paths, plan.pidFiles);
  if (!claim.ok) {
    const problem =
      claim.file === WORKER_PID_FILE
        ? `a gateway worker is running already for ${paths.dir} (pid ${claim.pid}); a home has one worker (role worker or all): stop it with iris gateway stop`
        : `a gateway is running already for ${paths.dir} (pid ${claim.pid}); stop it with iris gateway stop`;
    return { ok: false, code: 'running', problems: [problem] };
  }
  const releasePids = () => releasePidFiles(paths, plan.pidFiles);

  try {
    const openConfigured = (statePath: string) =>
      openStoreAt(storeTarget(statePath, env, config), { server: true, onBackgroundError: (err) => llog.error({ err: errorMessage(err) }, 'store background task failed (a lease renewal); runs it held may be taken over by another worker') });
    store = await (options.openStore ?? openConfigured)(paths.statePath);
  } catch (err) {
    await releasePids();
    return { ok: false, code: 'store', problems: [errorMessage(err)] };
  }

  const { currentRoutes, close: closeRouteTable } = createLiveRouteTable({ paths, config, reader, first: first.routes, targets, log: llog });

  const refusals = createRefusalSampler({ ...REFUSAL_SAMPLING, nowMs });
  const accepted = new Map<string, number>();
  const logAccepted = () => {
    const dropped = refusals.drainDropped();
    if (dropped.total > 0) {
      llog.warn({ dropped: dropped.total, by_route: dropped.byRoute, top_remotes: dropped.topRemotes }, `webhook refusals not logged: ${dropped.total} (at most ${REFUSAL_SAMPLING.perKey} a minute per route and address are)`);
    }
    if (accepted.size === 0) return;
    const byRoute = Object.fromEntries(accepted);
    const total = [...accepted.values()].reduce((sum, n) => sum + n, 0);
    accepted.clear();
    llog.info({ accepted: total, by_route: byRoute }, `webhook events accepted: ${total}`);
  };
  const summaries = setInterval(logAccepted, ACCEPT_SUMMARY_EVERY_MS);
  summaries.unref();

  const routing = metrics ? { ...createRoutingDeps(paths, env, { rotation }), onCallFinished: metrics.modelCall } : createRoutingDeps(paths, env, { rotation });
  const runStore = metrics ? meteredStore(store, metrics) : store;
  const deliveryInbox = metrics ? meteredDeliveries(store.webhooks, metrics) : store.webhooks;
  const forges = createPrForges({ env, gitlabApiBase: config.gitlab.api_base });
  const run = (record: WebhookEventRecord, signal: AbortSignal) => runWebhookEvent({ paths, env, store: runStore, routing, log: llog, platforms: targets, forges }, record, signal);
  // The chat platforms: started with the store, before the webhook workers (a delivery may go to them).
  let platforms: PlatformHost | undefined;
  if (chatPlatforms.length > unsupported.length) {
    try {
      platforms = await startPlatformHost({
        paths,
        env,
        config,
        store: runStore,
        routing,
        log: llog,
        nowMs,
        concurrency: extra.concurrency,
        parts: { receives: plan.listens, works: plan.works },
        ...(metrics ? { onConnection: metrics.platformConnected, onOutbox: metrics.outboxSend } : {}),
        // /sethome: deliveries without a chat_id go to the new home channel from now on.
        onHomeChannel: (name, chatId) => targets.set(name, { homeChannel: chatId }),
      });
    } catch (err) {
      clearInterval(summaries);
      closeRouteTable();
      await store.close();
      await releasePids();
      return { ok: false, code: 'store', problems: [`the chat platforms could not start: ${errorMessage(err)}`] };
    }
  }
  const platformDelivery = { targets, store: store.platforms, adapters: platforms?.adapters ?? new Map(), wake: () => platforms?.wakeOutbox() };
  const pool = plan.works
    ? createWorkerPool({
        concurrency: extra.concurrency,
        inbox: store.webhooks,
        maxRunAttempts: extra.max_run_attempts,
        log: llog,
        nowMs,
        pollMs: WORK_POLL_MS,
        // A shared store: a worker that died between a run and its delivery leaves the delivery
        // to the others, once its lease lapses.
        ...(store.backend === 'postgres' ? { adoptDeliveriesEveryMs: ADOPT_DELIVERIES_EVERY_MS } : {}),
        run: metrics ? timedRun(run, metrics, () => performance.now()) : run,
        deliver: (record, signal) => deliverEvent({ env, inbox: deliveryInbox, log: llog, platforms: platformDelivery, forges, threads: store.prThreads, flushLog }, record, signal),
      })
    : undefined;

  // The listener: on PostgreSQL its rate window is the store's, shared by every listener; on
  // SQLite it stays in this process (the one listener of the home), costing no I/O per request.
  let server: Server | undefined;
  let port: number | undefined;
  const scrapeToken = metricsToken(env);
  if (plan.listens) {
    const handler = createWebhookHandler({
      routes: currentRoutes,
      inbox: store.webhooks,
      limiter: store.rateLimits ? { shared: store.rateLimits, windowMs: RATE_LIMIT_DEFAULTS.windowMs } : createSlidingWindowLimiter({ limit: extra.rate_limit, maxKeys: 10_000, nowMs }),
      rateLimit: extra.rate_limit,
      maxBodyBytes: extra.max_body_bytes,
      bodyTimeoutMs: extra.body_timeout * 1000,
      nowMs,
      log: llog,
      refusals,
      onAccepted: (_id, route) => {
        pool?.wake();
        accepted.set(route, (accepted.get(route) ?? 0) + 1);
      },
      ...(metrics ? { onAnswered: (name: string | undefined, status: number) => metrics.answered(routeLabel(name, currentRoutes()), status) } : {}),
      health: createHealthProbe({ pingStore: () => store.webhooks.depth(), readDisk: () => readDiskSpace(paths.dir) }),
    });
    const served = withPlatformRoutes(platforms?.httpRoutes ?? [], handler);
    server = createGatewayServer(metrics ? withMetricsEndpoint(createMetricsEndpoint(metrics, scrapeToken), served) : served, extra.body_timeout * 1000);
    const listening = await listen(server, extra.host, extra.port);
    if (!listening.ok) {
      clearInterval(summaries);
      closeRouteTable();
      await platforms?.stop(0);
      await store.close();
      await releasePids();
      return { ok: false, code: listening.code === 'EADDRINUSE' ? 'port_in_use' : 'listen', problems: [listenProblem(listening, extra.host, extra.port)] };
    }
    port = listening.port;
  }

  const url = port === undefined ? undefined : listenerUrl(extra.host, port);
  metrics?.platformConnected('webhook', true);

  // Bounded on disk: dedup records live an hour, finished events `keep_days`.
  const pruneOld = async () => {
    await store.webhooks.pruneDedup(nowMs() - DEDUP_WINDOW_MS);
    if (extra.keep_days > 0) {
      const removed = await store.webhooks.pruneFinished(nowMs() - extra.keep_days * 86_400_000);
      if (removed > 0) llog.info({ removed, keep_days: extra.keep_days }, 'old delivered and failed events removed from the inbox');
      const platformRows = await store.platforms.prune(nowMs() - extra.keep_days * 86_400_000, nowMs());
      if (platformRows > 0) llog.info({ removed: platformRows, keep_days: extra.keep_days }, 'old answered platform messages and sent outbox messages removed');
      const threads = await store.prThreads.prune(nowMs() - extra.keep_days * 86_400_000);
      if (threads > 0) llog.info({ removed: threads, keep_days: extra.keep_days }, 'pull requests not heard from in keep_days forgotten (their sessions stay)');
    }
  };
  let prune: NodeJS.Timeout | undefined;
  let curator: CuratorScheduleHandle | undefined;
  let unsubscribe: () => Promise<void> = async () => {};
  let recovered = 0;
  try {
    if (pool) {
      // A worker's start takes back the runs of dead workers (on PostgreSQL only theirs: the
      // leases of live ones are left alone), then delivers what finished before.
      recovered = await store.webhooks.recoverInterrupted();
      await pruneOld();
      prune = setInterval(() => {
        pruneOld().catch((err: unknown) => llog.warn({ err: errorMessage(err) }, 'inbox pruning failed'));
      }, PRUNE_EVERY_MS);
      prune.unref();
      await pool.start();
      // An event accepted by a listener in another process wakes this pool at once (PostgreSQL).
      unsubscribe = await subscribeWakes(store, [['inbox', () => pool.wake()]], llog);
      curator = startCuratorSchedule({ schedule: config.curator.schedule, paths, env, store, routing, log: llog, nowMs });
    }
    // Last: once this file names us, clients (iris webhook test, gateway start) may rely on us.
    if (port !== undefined) await writeGatewayAddress(paths, { pid: process.pid, host: extra.host, port });
  } catch (err) {
    // The port is open and the pid files and store are held: undo all of it, last first, so a
    // failed start leaves nothing listening and nothing locked.
    const problem = `the gateway could not start: ${errorMessage(err)}`;
    llog.error({}, `${problem}; nothing was left running`);
    clearInterval(prune);
    clearInterval(summaries);
    closeRouteTable();
    await curator?.stop();
    await undoSteps(
      [unsubscribe, () => removeGatewayAddress(paths), async () => pool?.stop(0), async () => platforms?.stop(0), async () => server && closeServer(server), () => store.close(), releasePids],
      llog,
    );
    log.flush?.();
    return { ok: false, code: 'store', problems: [problem] };
  }

  const startLines = [
    ...(url !== undefined && port !== undefined
      ? [
          `gateway listening on ${extra.host}:${port} (pid ${process.pid})`,
          ...(role === 'listener' ? ['  role: listener (accepts and stores; runs, deliveries and chat answers are left to the workers)'] : []),
          `  health: ${url}/health`,
          ...(metrics ? [`  metrics: ${url}${METRICS_PATH} (${scrapeToken ? `bearer token from ${METRICS_TOKEN_ENV}` : `no ${METRICS_TOKEN_ENV}: anyone who reaches the port may read it`})`] : []),
          ...routes.map(
            (route) =>
              `  route ${route.name} (${route.source}${route.enabled ? '' : ', disabled'}): POST ${url}/webhooks/${route.name} → deliver ${route.deliver}` +
              (route.events.length > 0 ? `, events ${route.events.join(', ')}` : ', all events'),
          ),
          ...(webhook.enabled && routes.length === 0 ? ['  no routes yet: add one to config.yaml or with iris webhook subscribe'] : []),
        ]
      : [`gateway worker running (pid ${process.pid}): webhook runs and deliveries, chat answers and sends; no listener here`]),
    `  store: ${store.backend} ${store.location}`,
    ...(platforms?.states() ?? []).map((state) => `  platform ${state.name}: ${state.connected ? 'connected' : 'not connected'} (${state.detail})`),
    ...(platforms && platforms.recovered.inbound > 0 ? [`  ${platforms.recovered.inbound} interrupted chat message${platforms.recovered.inbound === 1 ? '' : 's'} put back in the queue`] : []),
    ...(recovered > 0 ? [`  ${recovered} interrupted run${recovered === 1 ? '' : 's'} put back in the inbox`] : []),
  ];
  print(startLines.join('\n')); // one write, so a reader sees the whole block at once
  log.info(
    { role, backend: store.backend, store: store.location, host: extra.host, port, url, routes: routes.map((r) => ({ name: r.name, url: url === undefined ? undefined : `${url}/webhooks/${r.name}`, deliver: r.deliver, source: r.source })), recovered },
    'gateway started',
  );

  let stopped: Promise<void> | undefined;
  const stop = (reason: string): Promise<void> => {
    stopped ??= (async () => {
      log.info({ reason, role }, 'gateway stopping');
      clearInterval(prune);
      // First: from now on nobody should be sent here.
      if (server) await removeGatewayAddress(paths).catch((err: unknown) => log.warn({ err: errorMessage(err) }, 'could not remove gateway.address'));
      metrics?.platformConnected('webhook', false);
      const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
      server?.closeIdleConnections();
      await unsubscribe().catch(() => {});
      const [{ settled }, chats] = await Promise.all([pool ? pool.stop(STOP_GRACE_MS) : Promise.resolve({ settled: true }), platforms ? platforms.stop(STOP_GRACE_MS) : Promise.resolve({ settled: true })]);
      await curator?.stop();
      server?.closeAllConnections();
      await closed;
      closeRouteTable();
      clearInterval(summaries);
      logAccepted();
      if (!settled || !chats.settled) log.warn({}, 'some runs did not stop in time; they run again at the next start');
      await store.close();
      await releasePids();
      log.info({ reason }, 'gateway stopped');
      log.flush?.();
    })();
    return stopped;
  };

  return { ok: true, role, url, routes, stop };
}
