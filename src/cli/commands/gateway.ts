// `iris gateway [run] | start | stop | status | restart`: the gateway in the foreground, or as a
// background process tracked by $IRIS_HOME/gateway.pid with its output in logs/gateway.console.log
// (the structured log is logs/gateway.log). `run --role worker` holds gateway-worker.pid instead;
// stop and status cover such a worker too.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HomePaths } from '../../config/home.js';
import { homedir, networkInterfaces } from 'node:os';
import { findGateway, gatewayAddressPath, type LocatedGateway } from '../../gateway/address-file.js';
import { readGatewayStatus, processIsAlive } from '../../gateway/pid-file.js';
import { WORKER_PID_FILE, type GatewayRole } from '../../domain/gateway-role.js';
import { startGateway, STOP_GRACE_MS } from '../../gateway/gateway.js';
import { boundAddress, reachableUrls } from '../../gateway/listener-url.js';
import { answersHealth, readGatewayView } from '../../gateway/status-view.js';
import { readServiceReport } from '../../gateway/systemd/service-status.js';
import { serviceJson, serviceLine } from '../../gateway/systemd/service-view.js';
import { printData, printError, printJson, printWarning } from '../console.js';
import { openConfig, openEnv, openHome } from '../context.js';
import { EXIT } from '../exit-codes.js';

const START_WAIT_MS = 20_000;

export function consoleLogPath(paths: HomePaths): string {
  return join(paths.logsDir, 'gateway.console.log');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Foreground: runs until SIGTERM or SIGINT; a second signal exits at once. The signals are caught
 * before the gateway starts: one that comes while it starts (its chat platforms may be answering
 * already, and the listening line may be out) stops it gracefully once it has started, instead of
 * killing the process with the signal's default action.
 */
export async function gatewayRun(options: { readonly role?: GatewayRole } = {}): Promise<number> {
  let stopping = false;
  let received: NodeJS.Signals | undefined;
  let stopStarted: ((signal: NodeJS.Signals) => void) | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      printWarning(`${signal} again: exiting without waiting for runs (they run again at the next start)`);
      process.exit(130);
    }
    stopping = true;
    if (stopStarted) stopStarted(signal);
    else received = signal;
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  const removeHandlers = () => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  };
  let started: Awaited<ReturnType<typeof startGateway>>;
  try {
    const paths = await openHome();
    const env = await openEnv(paths);
    await openConfig(paths); // prints config warnings once, as every command does
    started = await startGateway({ paths, env, print: (line) => printData(line), ...(options.role ? { role: options.role } : {}) });
  } catch (err) {
    removeHandlers();
    throw err;
  }
  if (!started.ok) {
    removeHandlers();
    for (const problem of started.problems) printError(problem);
    if (started.code === 'config' && started.problems.length > 1) printError(`the gateway did not start (${started.problems.length} problems)`);
    return started.code === 'config' ? EXIT.usage : EXIT.failure;
  }
  const gateway = started;
  return new Promise<number>((resolve) => {
    stopStarted = (signal) => {
      printData(`${signal}: stopping (runs in flight stop at a safe point; the inbox keeps the rest)`);
      void gateway.stop(signal).then(() => {
        printData('gateway stopped');
        resolve(EXIT.ok);
      });
    };
    if (received) stopStarted(received);
  });
}

/** This home's gateway, where it said it listens (the configured address for one that has not said). */
export async function locateHomeGateway(paths: HomePaths): Promise<LocatedGateway> {
  const { config } = await openConfig(paths);
  return findGateway(paths, config.platforms.webhook.extra);
}

function startedText(pid: number, gateway: Extract<LocatedGateway, { state: 'running' }>, log: string): { json: Record<string, unknown>; text: string } {
  const urls = reachableUrls(gateway.host, gateway.port, networkInterfaces());
  const address = boundAddress(gateway.host, gateway.port);
  const lines = [`gateway started (pid ${pid}), listening on ${address}`, `  local:   ${urls.local}`];
  for (const url of urls.network) lines.push(`  network: ${url}`);
  lines.push(`logs: ${log}`);
  return { json: { state: 'running', pid, address, url: urls.local, network_urls: urls.network, log }, text: lines.join('\n') };
}

export async function gatewayStart(options: { json?: boolean } = {}): Promise<number> {
  const paths = await openHome();
  const before = await readGatewayStatus(paths);
  if (before.state === 'running') {
    printError(`a gateway is running already (pid ${before.pid}); use iris gateway restart to restart it`);
    return EXIT.failure;
  }
  mkdirSync(paths.logsDir, { recursive: true, mode: 0o700 });
  const logPath = consoleLogPath(paths);
  closeSync(openSync(logPath, 'w', 0o600)); // a fresh file per start
  const out = openSync(logPath, 'a', 0o600); // O_APPEND: stdout and stderr lines never overwrite each other
  const child = spawn(process.execPath, [process.argv[1]!, 'gateway', 'run'], {
    detached: true,
    stdio: ['ignore', out, out],
    env: process.env,
  });
  closeSync(out);
  let exited: number | null | undefined;
  child.once('exit', (code) => {
    exited = code;
  });
  child.unref();
  const deadline = Date.now() + START_WAIT_MS;
  let seen: LocatedGateway | undefined;
  while (Date.now() < deadline) {
    if (exited !== undefined) break;
    // Ready once the child has written where it listens (it does so last) and answers there.
    seen = await locateHomeGateway(paths);
    if (seen.state === 'running' && seen.pid === child.pid && seen.source === 'address_file' && (await answersHealth(seen.url))) {
      const started = startedText(child.pid, seen, join(paths.logsDir, 'gateway.log'));
      if (options.json) printJson(started.json);
      else printData(started.text);
      return EXIT.ok;
    }
    await sleep(100);
  }
  const output = readFileSync(logPath, 'utf8').trim();
  if (exited === undefined) {
    const where = seen?.state === 'running' && seen.source === 'address_file' ? `at ${seen.url}/health` : `(no ${gatewayAddressPath(paths)} yet)`;
    printError(`the gateway (pid ${child.pid}) did not answer ${where} within ${START_WAIT_MS / 1000} s; see ${logPath}`);
    return EXIT.failure;
  }
  printError(`the gateway did not start (exit code ${exited}):`);
  process.stderr.write(`${output}\n`);
  return exited === EXIT.usage ? EXIT.usage : EXIT.failure;
}

/** SIGTERM, then SIGKILL once the grace is over; true when it had to be killed. */
async function stopProcess(pid: number): Promise<boolean> {
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + STOP_GRACE_MS + 5_000;
  while (Date.now() < deadline && processIsAlive(pid)) await sleep(100);
  const killed = processIsAlive(pid);
  if (killed) process.kill(pid, 'SIGKILL');
  return killed;
}

/**
 * A worker of this home running as its own process (`--role worker`, beside a listener): stopped
 * with the gateway. A pid file left by a dead one is removed.
 */
async function stopSeparateWorker(paths: HomePaths, listenerPid: number | undefined): Promise<{ pid: number; killed: boolean } | undefined> {
  const worker = await readGatewayStatus(paths, WORKER_PID_FILE);
  if (worker.state === 'stale_pid_file') {
    const { rm } = await import('node:fs/promises');
    await rm(worker.pid_file, { force: true });
    return undefined;
  }
  if (worker.state !== 'running' || worker.pid === listenerPid) return undefined;
  const killed = await stopProcess(worker.pid);
  if (killed) printWarning(`the gateway worker (pid ${worker.pid}) did not stop in time and was killed; its runs are taken back at the next worker start`);
  return { pid: worker.pid, killed };
}

export async function gatewayStop(options: { quiet?: boolean; json?: boolean } = {}): Promise<number> {
  const paths = await openHome();
  const status = await readGatewayStatus(paths);
  const report = (json: Record<string, unknown>, text: string) => {
    if (options.quiet) return;
    if (options.json) printJson(json);
    else printData(text);
  };
  const listenerPid = status.state === 'running' ? status.pid : undefined;
  // Side by side: each may take the whole grace period.
  const [worker, killed] = await Promise.all([stopSeparateWorker(paths, listenerPid), listenerPid === undefined ? Promise.resolve(false) : stopListener(listenerPid)]);
  const workerJson = worker ? { worker: { state: 'stopped', pid: worker.pid, killed: worker.killed } } : {};
  const workerText = worker ? `\ngateway worker stopped (pid ${worker.pid})` : '';
  if (status.state === 'not_running' || status.state === 'bad_pid_file') {
    if (worker) report({ state: 'stopped', ...workerJson }, workerText.trim());
    else report({ state: 'not_running' }, 'the gateway is not running');
    return EXIT.ok;
  }
  if (status.state === 'stale_pid_file') {
    const { rm } = await import('node:fs/promises');
    await rm(status.pid_file, { force: true });
    await rm(gatewayAddressPath(paths), { force: true }); // left by the same dead process
    report({ state: worker ? 'stopped' : 'not_running', removed_stale_pid_file: status.pid_file, pid: status.pid, ...workerJson }, `the gateway is not running (removed a stale pid file for pid ${status.pid})${workerText}`);
    return EXIT.ok;
  }
  report({ state: 'stopped', pid: status.pid, killed, ...workerJson }, `gateway stopped (pid ${status.pid})${workerText}`);
  return EXIT.ok;
}

async function stopListener(pid: number): Promise<boolean> {
  const killed = await stopProcess(pid);
  if (killed) printWarning(`the gateway (pid ${pid}) did not stop in time and was killed; its runs go back to the inbox at the next start`);
  return killed;
}

export async function gatewayRestart(options: { json?: boolean } = {}): Promise<number> {
  await gatewayStop({ quiet: true });
  return gatewayStart(options);
}

export async function gatewayStatusCommand(options: { json?: boolean } = {}): Promise<number> {
  const paths = await openHome();
  const { config } = await openConfig(paths);
  const { status, url, healthy: health, worker, platforms } = await readGatewayView(paths, config);
  const running = status.state === 'running';
  // Only when a unit file is installed: without one, the output is what it always was.
  const service = await readServiceReport(process.env, homedir());
  if (options.json) {
    printJson({
      ...status,
      url,
      healthy: health,
      ...(worker !== undefined ? { worker: { state: 'running', pid: worker } } : {}),
      ...(service ? { service: serviceJson(service) } : {}),
      ...(platforms.length > 0 ? { platforms } : {}),
    });
  } else {
    if (running) printData(`gateway: running (pid ${status.pid}), ${health ? `answering at ${url}` : `not answering at ${url}/health`}`);
    else if (status.state === 'stale_pid_file') printData(`gateway: not running (stale pid file for pid ${status.pid})`);
    else printData('gateway: not running');
    if (worker !== undefined) printData(`gateway worker: running (pid ${worker})`);
    for (const platform of platforms) {
      printData(platform.since === null ? `  ${platform.name}: not running (enabled after the gateway started? iris gateway restart)` : `  ${platform.name}: ${platform.connected ? 'connected' : 'not connected'} (${platform.detail}) since ${platform.since}`);
    }
    if (service) printData(serviceLine(service));
  }
  return running || worker !== undefined ? EXIT.ok : EXIT.failure;
}
