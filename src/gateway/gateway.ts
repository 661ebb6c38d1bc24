// The long-running gateway: checks everything first (no partial start), then holds the pid files,
// the store, the webhook listener and the worker pool. Stopping closes the listener, lets runs in
// flight reach a safe point, and leaves the rest in the inbox for the next start. Its role
// (role.ts) says which of these run here: a listener takes work in, a worker does it, `all` both.
// startGateway is the order of the steps; the steps are in start-steps.ts, the stop in
// stop-sequence.ts, and what a failed start gives back is on its undo stack (start-undo.ts).
import type { Env, HomePaths } from '../config/home.js';
import { logWritten } from '../log/log-written.js';
import { openStoreAt, storeTarget } from '../store/open-store.js';
import type { Store } from '../store/types.js';
import { createRefusalSampler, REFUSAL_SAMPLING } from '../webhook/refusal-log.js';
import type { ResolvedRoute } from '../webhook/routes.js';
import { startAcceptSummary } from './accept-summary.js';
import { createHousekeeping } from './housekeeping.js';
import { checkGatewayStart } from './start-checks.js';
import { startLines } from './start-lines.js';
import { listenerUrl } from './listener-url.js';
import { claimPidFiles, releasePidFiles } from './pid-file.js';
import { DEFAULT_GATEWAY_ROLE, WORKER_PID_FILE, type GatewayRole } from '../domain/gateway-role.js';
import { createLiveRouteTable } from './route-table.js';
import { errorMessage } from '../domain/error-message.js';
import { createPrometheusMetrics } from './metrics/prometheus.js';
import { metricsToken } from './metrics/scrape.js';
import { createPool, openGatewayLog, openListener, startChats, startWork, wireRuns, type StepFailure } from './start-steps.js';
import { createStartUndo } from './start-undo.js';
import { stopRunningGateway } from './stop-sequence.js';

export { STOP_GRACE_MS } from './stop-sequence.js';

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

export async function startGateway(options: GatewayOptions): Promise<GatewayHandle | StartFailure> {
  const { paths, env } = options;
  const role = options.role ?? DEFAULT_GATEWAY_ROLE;
  const nowMs = options.nowMs ?? Date.now;
  const print = options.print ?? (() => {});
  const checked = await checkGatewayStart(paths, role);
  if (!checked.ok) return checked;
  const { config, plan, chatPlatforms, unsupported, targets, reader, routes } = checked;
  const extra = config.platforms.webhook.extra;

  const logs = openGatewayLog(paths, env, config, logWritten);
  const { log, llog } = logs;
  checked.attachLog(llog);
  for (const problem of checked.warnings) {
    llog.warn({}, problem);
    print(`warning: ${problem}`);
  }

  // Metrics off: none of this exists, and prom-client is never loaded. Made before anything is
  // held, so a failure here leaves nothing to undo. Served by the listener: a worker alone has no
  // port, so it keeps none.
  let store: Store | undefined; // opened below; the listener, and so a scrape, comes after it
  const metrics = extra.metrics && plan.listens ? await createPrometheusMetrics({ inboxDepth: () => store!.webhooks.depth() }) : undefined;

  const claim = await claimPidFiles(paths, plan.pidFiles);
  if (!claim.ok) return { ok: false, code: 'running', problems: [runningProblem(paths, claim)] };
  const releasePids = () => releasePidFiles(paths, plan.pidFiles);
  // From here on a failure gives back everything taken so far, last first.
  const undo = createStartUndo();
  undo.push(releasePids);
  const failed = async (failure: StepFailure): Promise<StartFailure> => {
    await undo.run(llog);
    log.flush?.();
    return { ok: false, code: failure.code, problems: [failure.problem] };
  };

  try {
    const openConfigured = (statePath: string) =>
      openStoreAt(storeTarget(statePath, env, config), { server: true, onBackgroundError: (err) => llog.error({ err: errorMessage(err) }, 'store background task failed (a lease renewal); runs it held may be taken over by another worker') });
    store = await (options.openStore ?? openConfigured)(paths.statePath);
  } catch (err) {
    return failed({ ok: false, code: 'store', problem: errorMessage(err) });
  }
  const opened = store;
  undo.push(() => opened.close());

  const first = new Map(routes.map((route) => [route.name, route]));
  const { currentRoutes, close: closeRouteTable } = createLiveRouteTable({ paths, config, reader, first, targets, log: llog });
  undo.push(closeRouteTable);
  const refusals = createRefusalSampler({ ...REFUSAL_SAMPLING, nowMs });
  const acceptSummary = startAcceptSummary(refusals, llog);
  undo.push(() => acceptSummary.stop());

  const wiring = wireRuns({ paths, env, config, store, logs, metrics, targets }, undo);
  const chats = await startChats({ paths, env, config, plan, wiring, logs, nowMs, metrics, targets, wanted: chatPlatforms.length > unsupported.length }, undo);
  if (!chats.ok) return failed(chats);
  const { platforms } = chats;
  const pool = plan.works ? createPool({ env, config, store, wiring, logs, nowMs, metrics, platforms, targets }) : undefined;

  const scrapeToken = metricsToken(env);
  let server: Awaited<ReturnType<typeof openListener>> | undefined;
  if (plan.listens) {
    server = await openListener({ paths, config, store, currentRoutes, logs, nowMs, refusals, acceptSummary, pool, platforms, metrics, scrapeToken }, undo);
    if (!server.ok) return failed(server);
  }
  const port = server?.ok ? server.port : undefined;
  const url = port === undefined ? undefined : listenerUrl(extra.host, port);
  metrics?.platformConnected('webhook', true);

  const housekeeping = createHousekeeping({ store, paths, config, log: llog, nowMs });
  undo.push(() => housekeeping.stop());
  const work = await startWork({ paths, env, config, store, pool, housekeeping, routing: wiring.routing, logs, nowMs, port }, undo);
  if (!work.ok) return failed(work);
  const { recovered, curator, unsubscribe } = work;

  print(
    startLines({
      role,
      host: extra.host,
      port,
      url,
      metrics: metrics ? { tokenSet: scrapeToken !== undefined && scrapeToken !== '' } : undefined,
      webhookEnabled: config.platforms.webhook.enabled,
      routes,
      store,
      platforms: platforms?.states() ?? [],
      recoveredMessages: platforms?.recovered.inbound ?? 0,
      recoveredRuns: recovered,
      pid: process.pid,
    }).join('\n'), // one write, so a reader sees the whole block at once
  );
  log.info(
    { role, backend: store.backend, store: store.location, host: extra.host, port, url, routes: routes.map((r) => ({ name: r.name, url: url === undefined ? undefined : `${url}/webhooks/${r.name}`, deliver: r.deliver, source: r.source })), recovered },
    'gateway started',
  );

  const held = { role, paths, log, store, server: server?.ok ? server.server : undefined, pool, platforms, curator, housekeeping, acceptSummary, metrics, mcpPool: wiring.mcpPool, unsubscribe, closeRouteTable, releasePids };
  let stopped: Promise<void> | undefined;
  return { ok: true, role, url, routes, stop: (reason) => (stopped ??= stopRunningGateway(held, reason)) };
}

function runningProblem(paths: HomePaths, claim: { readonly file: string; readonly pid: number }): string {
  return claim.file === WORKER_PID_FILE
    ? `a gateway worker is running already for ${paths.dir} (pid ${claim.pid}); a home has one worker (role worker or all): stop it with iris gateway stop`
    : `a gateway is running already for ${paths.dir} (pid ${claim.pid}); stop it with iris gateway stop`;
}
