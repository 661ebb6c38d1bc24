// $IRIS_HOME/gateway.platforms.json: each running platform's connection state, written by the
// gateway when it changes, read by `iris gateway status`. Written whole (atomic rename), removed
// at stop; a reader trusts it only while the gateway that wrote it (its pid) is the running one.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { writeFileAtomic } from '../config/atomic-write.js';
import type { HomePaths } from '../config/home.js';
import { readTextIfPresent } from '../config/read-optional.js';

export const PLATFORM_STATE_FILE = 'gateway.platforms.json';

const stateSchema = z.object({
  pid: z.int(),
  platforms: z.array(z.object({ name: z.string(), connected: z.boolean(), detail: z.string(), since: z.int() })),
});

export type PlatformStates = z.output<typeof stateSchema>;

export type PlatformConnection = {
  readonly name: string;
  readonly connected: boolean;
  /** The gateway's own words ("polling", "reconnecting: 401 Unauthorized"…), or why there are none. */
  readonly detail: string;
  /** ISO time of the last change; null when the running gateway never reported this platform. */
  readonly since: string | null;
};


export function platformStatePath(paths: Pick<HomePaths, 'dir'>): string {
  return join(paths.dir, PLATFORM_STATE_FILE);
}

export async function writePlatformStates(paths: Pick<HomePaths, 'dir'>, states: PlatformStates): Promise<void> {
  await writeFileAtomic(platformStatePath(paths), `${JSON.stringify(states)}\n`);
}

export async function readPlatformStates(paths: Pick<HomePaths, 'dir'>): Promise<PlatformStates | undefined> {
  const text = await readTextIfPresent(platformStatePath(paths)).catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const parsed = stateSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export async function removePlatformStates(paths: Pick<HomePaths, 'dir'>): Promise<void> {
  await rm(platformStatePath(paths), { force: true });
}
