// The curator's reports are files (`$IRIS_HOME/curator/<YYYY-MM-DD>.md`, one a day at most):
// retention keeps the newest `retention.curator_reports` of them. Other files in the folder are
// never touched.
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { curatorDir } from '../curator/report.js';

const REPORT_NAME = /^\d{4}-\d{2}-\d{2}\.md$/;

/** The reports beyond the newest `keep`, oldest last in the list's order (pure: names in, names out). */
export function reportsBeyond(names: readonly string[], keep: number): string[] {
  return names
    .filter((name) => REPORT_NAME.test(name))
    .sort()
    .reverse()
    .slice(keep);
}

async function reportNames(homeDir: string): Promise<string[]> {
  try {
    return await readdir(curatorDir(homeDir));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** The reports a prune would remove (`dryRun`) or removed. */
export async function pruneCuratorReports(homeDir: string, keep: number | undefined, dryRun: boolean): Promise<string[]> {
  if (keep === undefined) return [];
  const old = reportsBeyond(await reportNames(homeDir), keep);
  if (!dryRun) for (const name of old) await rm(join(curatorDir(homeDir), name), { force: true });
  return old;
}
