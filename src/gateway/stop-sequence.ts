// How a running gateway stops, in this order: nobody is sent here any more (the address file goes,
// the listener stops taking connections), the runs in flight get STOP_GRACE_MS to record where
// they stopped, then the parts close and the pid files go. What was not run stays in the inbox
// for the next start.
import type { Server } from 'node:http';
import type { HomePaths } from '../config/home.js';
import type { GatewayRole } from '../domain/gateway-role.js';
import { errorMessage } from '../domain/error-message.js';
import type { Logger } from '../log/logger.js';
import type { PlatformHost } from '../platforms/platform-host.js';
import type { Store } from '../store/types.js';
import { removeGatewayAddress } from './address-file.js';
import type { AcceptSummary } from './accept-summary.js';
import type { CuratorScheduleHandle } from './curator-schedule.js';
import type { Housekeeping } from './housekeeping.js';
import type { GatewayMetrics } from './metrics/types.js';
import type { WorkerPool } from './worker-pool.js';

/** How long a stop waits for runs in flight to record where they stopped. */
export const STOP_GRACE_MS = 15_000;

/** Everything a started gateway holds. */
export type RunningGateway = {
  readonly role: GatewayRole;
  readonly paths: HomePaths;
  readonly log: Logger;
  readonly store: Store;
  readonly server: Server | undefined;
  readonly pool: WorkerPool | undefined;
  readonly platforms: PlatformHost | undefined;
  readonly curator: CuratorScheduleHandle | undefined;
  readonly housekeeping: Housekeeping;
  readonly acceptSummary: AcceptSummary;
  readonly metrics: GatewayMetrics | undefined;
  readonly mcpPool: { close(): Promise<void> };
  readonly unsubscribe: () => Promise<void>;
  readonly closeRouteTable: () => void;
  readonly releasePids: () => Promise<void>;
};

export async function stopRunningGateway(held: RunningGateway, reason: string): Promise<void> {
  const { log, server, pool, platforms, role } = held;
  log.info({ reason, role }, 'gateway stopping');
  await held.housekeeping.stop();
  // First: from now on nobody should be sent here.
  if (server) await removeGatewayAddress(held.paths).catch((err: unknown) => log.warn({ err: errorMessage(err) }, 'could not remove gateway.address'));
  held.metrics?.platformConnected('webhook', false);
  const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
  server?.closeIdleConnections();
  await held.unsubscribe().catch(() => {});
  const [{ settled }, chats] = await Promise.all([pool ? pool.stop(STOP_GRACE_MS) : Promise.resolve({ settled: true }), platforms ? platforms.stop(STOP_GRACE_MS) : Promise.resolve({ settled: true })]);
  await held.curator?.stop();
  await held.mcpPool.close();
  server?.closeAllConnections();
  await closed;
  held.closeRouteTable();
  held.acceptSummary.stop();
  if (!settled || !chats.settled) log.warn({}, 'some runs did not stop in time; they run again at the next start');
  await held.store.close();
  await held.releasePids();
  log.info({ reason }, 'gateway stopped');
  log.flush?.();
}
