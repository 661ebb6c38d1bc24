// What a reader outside the gateway can tell about it: running or not (from the pid files), where
// it listens, whether it answers /health, a worker of this home in its own process, and each
// enabled platform's connection as the running gateway last reported it. `iris gateway status`
// and the dashboard's health strip both read it here, so the two never disagree.
import type { Config } from '../config/schema.js';
import type { HomePaths } from '../config/home.js';
import { WORKER_PID_FILE } from '../domain/gateway-role.js';
import { enabledPlatformNames } from '../platforms/delivery-target.js';
import { readPlatformStates, type PlatformConnection, type PlatformStates } from '../platforms/state-file.js';

export type { PlatformConnection };
import { listenerBaseUrl, locateGateway, readGatewayAddress } from './address-file.js';
import { readGatewayStatus } from './pid-file.js';
import type { GatewayStatus } from '../routing/status-report.js';

export type GatewayView = {
  readonly status: GatewayStatus;
  readonly url: string;
  readonly healthy: boolean;
  /** The pid of this home's worker running in a process of its own (`--role worker`). */
  readonly worker: number | undefined;
  /** Each enabled platform; empty while the gateway is not running. */
  readonly platforms: readonly PlatformConnection[];
};

const NOT_REPORTED = 'not reported by the gateway (enabled after it started? iris gateway restart)';

/** Each enabled platform as the running gateway last reported it (a file from another pid says nothing). */
export function platformConnections(states: PlatformStates | undefined, pid: number, enabled: readonly string[]): PlatformConnection[] {
  const reported = states?.pid === pid ? new Map(states.platforms.map((p) => [p.name, p])) : new Map<string, PlatformStates['platforms'][number]>();
  return enabled.map((name) => {
    const state = reported.get(name);
    if (!state) return { name, connected: false, detail: NOT_REPORTED, since: null };
    return { name, connected: state.connected, detail: state.detail, since: new Date(state.since).toISOString() };
  });
}

/** Does a gateway answer GET /health at this base URL within a second? */
export async function answersHealth(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1_000) });
    return response.ok;
  } catch {
    return false;
  }
}

export async function readGatewayView(paths: HomePaths, config: Readonly<Config>): Promise<GatewayView> {
  const status = await readGatewayStatus(paths);
  const running = status.state === 'running';
  const located = locateGateway(status, running ? await readGatewayAddress(paths) : undefined, config.platforms.webhook.extra);
  const url = listenerBaseUrl(located, config.platforms.webhook.extra);
  const healthy = running ? await answersHealth(url) : false;
  const platforms = running ? platformConnections(await readPlatformStates(paths), status.pid, enabledPlatformNames(config)) : [];
  // A worker of this home in its own process (--role worker); `all` holds both files with one pid.
  const workerStatus = await readGatewayStatus(paths, WORKER_PID_FILE);
  const worker = workerStatus.state === 'running' && workerStatus.pid !== (running ? status.pid : undefined) ? workerStatus.pid : undefined;
  return { status, url, healthy, worker, platforms };
}
