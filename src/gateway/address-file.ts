// $IRIS_HOME/gateway.address: where this home's running gateway really listens. The gateway
// writes it once the port is bound (so a `port: 0` or a config edited since the start cannot
// mislead a reader) and removes it when it stops. `iris gateway start|status` and `iris webhook
// test` find the gateway through it, together with the pid file: a file whose pid is not the
// running gateway's says nothing, and without any gateway nothing is posted anywhere.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { writeFileAtomic } from '../config/atomic-write.js';
import type { HomePaths } from '../config/home.js';
import { parseJsonAs, readTextIfPresent } from '../config/read-optional.js';
import type { GatewayStatus } from '../routing/status-report.js';
import { listenerUrl } from './listener-url.js';
import { readGatewayStatus } from './pid-file.js';

export const GATEWAY_ADDRESS_FILE = 'gateway.address';

export type GatewayAddress = { readonly pid: number; readonly host: string; readonly port: number };

const addressSchema = z.object({
  pid: z.int().check(z.positive()),
  host: z.string().check(z.minLength(1)),
  port: z.int().check(z.minimum(1), z.maximum(65_535)),
});

export function gatewayAddressPath(paths: Pick<HomePaths, 'dir'>): string {
  return join(paths.dir, GATEWAY_ADDRESS_FILE);
}

/** The file's content, or undefined when it is not a well-formed address (a torn or foreign file). */
export function parseGatewayAddress(text: string | undefined): GatewayAddress | undefined {
  return parseJsonAs(addressSchema, text);
}

export async function writeGatewayAddress(paths: Pick<HomePaths, 'dir'>, address: GatewayAddress): Promise<void> {
  await writeFileAtomic(gatewayAddressPath(paths), `${JSON.stringify(address)}\n`);
}

/** Removes the file if it is still this process's. */
export async function removeGatewayAddress(paths: Pick<HomePaths, 'dir'>, pid = process.pid): Promise<void> {
  const path = gatewayAddressPath(paths);
  if (parseGatewayAddress(await readTextIfPresent(path).catch(() => undefined))?.pid === pid) await rm(path, { force: true });
}

/** This home's gateway as a client should reach it. */
export type LocatedGateway =
  | {
      readonly state: 'running';
      readonly pid: number;
      /** The address it bound, as given to listen(): `0.0.0.0:8644`. */
      readonly host: string;
      readonly port: number;
      /** Where this machine reaches it (loopback for a wildcard bind). */
      readonly url: string;
      /** `address_file` when the gateway said where it listens; `config` for a gateway that has not (yet) written it. */
      readonly source: 'address_file' | 'config';
    }
  | { readonly state: 'not_running'; readonly why: string };

/**
 * Pure: the pid file's verdict, the address file, and the configured listener in; where to reach
 * the gateway out. A running gateway whose address file is missing or names another pid (one
 * that is still starting, or an older Iris) is reached at the configured address.
 */
export function locateGateway(status: GatewayStatus, address: GatewayAddress | undefined, configured: { readonly host: string; readonly port: number }): LocatedGateway {
  switch (status.state) {
    case 'not_running':
      return { state: 'not_running', why: `no ${status.pid_file}` };
    case 'stale_pid_file':
      return { state: 'not_running', why: `${status.pid_file} names pid ${status.pid}, which is not running` };
    case 'bad_pid_file':
      return { state: 'not_running', why: `${status.pid_file} is unreadable` };
    case 'running': {
      const own = address?.pid === status.pid ? address : undefined;
      const host = own?.host ?? configured.host;
      const port = own?.port ?? configured.port;
      return { state: 'running', pid: status.pid, host, port, url: listenerUrl(host, port), source: own ? 'address_file' : 'config' };
    }
  }
}

/** Where clients reach this home's listener: the running gateway where it listens, else the configured address. */
export function listenerBaseUrl(located: LocatedGateway, configured: { readonly host: string; readonly port: number }): string {
  return located.state === 'running' ? located.url : listenerUrl(configured.host, configured.port);
}

export async function readGatewayAddress(paths: Pick<HomePaths, 'dir'>): Promise<GatewayAddress | undefined> {
  return parseGatewayAddress(await readTextIfPresent(gatewayAddressPath(paths)));
}

/** This home's gateway: the pid file, then the address file, then the configured listener. */
export async function findGateway(paths: Pick<HomePaths, 'dir'>, configured: { readonly host: string; readonly port: number }): Promise<LocatedGateway> {
  const status = await readGatewayStatus(paths);
  return locateGateway(status, status.state === 'running' ? await readGatewayAddress(paths) : undefined, configured);
}
