// When the gateway runs a review by itself (`curator.schedule`): a pure decision from the last
// run's time and now, and the last run's time kept in `$IRIS_HOME/curator/last-run.json`, so a
// restart does not review again at once.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { writeFileAtomic } from '../config/atomic-write.js';
import type { CURATOR_SCHEDULES } from '../config/schema.js';
import { readTextIfPresent } from '../config/read-optional.js';
import { curatorDir } from './report.js';
import { DAY_MS } from './review.js';

export type CuratorSchedule = (typeof CURATOR_SCHEDULES)[number];

const PERIOD_MS: Readonly<Record<Exclude<CuratorSchedule, 'off'>, number>> = { daily: DAY_MS, weekly: 7 * DAY_MS };

/** How often the gateway asks `reviewDue`: often enough, and no burden. */
export const SCHEDULE_CHECK_MS = 10 * 60 * 1000;

/**
 * Whether a scheduled review is due: never when off; at once when none has run (null); else once
 * the period has passed since the last. A last run in the future (a clock set back) is due, so a
 * wrong clock cannot stop the reviews for good.
 */
export function reviewDue(schedule: CuratorSchedule, lastRunAt: number | null, now: number): boolean {
  if (schedule === 'off') return false;
  if (lastRunAt === null) return true;
  if (lastRunAt > now) return true;
  return now - lastRunAt >= PERIOD_MS[schedule];
}

const LAST_RUN_FILE = 'last-run.json';
const lastRunSchema = z.object({ at: z.int() });

export async function readLastRun(homeDir: string): Promise<number | null> {
  const text = await readTextIfPresent(join(curatorDir(homeDir), LAST_RUN_FILE));
  if (text === undefined) return null;
  try {
    const parsed = lastRunSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.at : null;
  } catch {
    return null;
  }
}

export async function writeLastRun(homeDir: string, at: number): Promise<void> {
  const dir = curatorDir(homeDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFileAtomic(join(dir, LAST_RUN_FILE), `${JSON.stringify({ at })}\n`, 0o600);
}
