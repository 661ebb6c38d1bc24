// $IRIS_HOME/dashboard.address: where this home's running dashboard listens and how it signs people
// in, for `iris doctor`. Written once the port is bound, removed when the dashboard stops; a file
// whose pid is not alive says nothing (a dashboard killed with -9 leaves it behind).
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { writeFileAtomic } from '../config/atomic-write.js';
import type { HomePaths } from '../config/home.js';
import { parseJsonAs, readTextIfPresent } from '../config/read-optional.js';
import { processIsAlive } from '../domain/process-alive.js';

export const SIGN_IN_KINDS = ['token', 'password', 'proxy', 'password+proxy'] as const;
export type SignInKind = (typeof SIGN_IN_KINDS)[number];

const addressSchema = z.object({
  pid: z.int().check(z.positive()),
  host: z.string().check(z.minLength(1)),
  port: z.int().check(z.minimum(1), z.maximum(65_535)),
  sign_in: z.enum(SIGN_IN_KINDS),
});

export type DashboardAddress = z.output<typeof addressSchema>;

export function dashboardAddressPath(paths: Pick<HomePaths, 'dir'>): string {
  return join(paths.dir, 'dashboard.address');
}

export async function writeDashboardAddress(paths: Pick<HomePaths, 'dir'>, address: DashboardAddress): Promise<void> {
  await writeFileAtomic(dashboardAddressPath(paths), `${JSON.stringify(address)}\n`);
}

/** The running dashboard's address, or undefined (none written, unreadable, or its process gone). */
export async function readDashboardAddress(paths: Pick<HomePaths, 'dir'>, alive: (pid: number) => boolean = processIsAlive): Promise<DashboardAddress | undefined> {
  const address = parseJsonAs(addressSchema, await readTextIfPresent(dashboardAddressPath(paths)).catch(() => undefined));
  return address && alive(address.pid) ? address : undefined;
}

/** Removes the file if it is still this process's. */
export async function removeDashboardAddress(paths: Pick<HomePaths, 'dir'>, pid = process.pid): Promise<void> {
  if ((await readDashboardAddress(paths, () => true))?.pid === pid) await rm(dashboardAddressPath(paths), { force: true });
}
