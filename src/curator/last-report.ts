// The newest curator report on disk (`$IRIS_HOME/curator/<YYYY-MM-DD>.md`), read back with its
// data: what the dashboard shows as "the curator's last report".
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readTextIfPresent } from '../config/read-optional.js';
import { curatorDir } from './report.js';
import { splitReportFile, type ReportData } from './report-data.js';

const REPORT_FILE = /^\d{4}-\d{2}-\d{2}\.md$/;

export type LastReport = {
  readonly path: string;
  /** The report's date, from its file name. */
  readonly date: string;
  /** The Markdown as printed. */
  readonly text: string;
  /** Undefined for a report written before reports kept their data. */
  readonly data: ReportData | undefined;
};

/** The newest report's file name among `names` (dates sort as text), or undefined. */
export function newestReportName(names: readonly string[]): string | undefined {
  return names.filter((name) => REPORT_FILE.test(name)).sort().at(-1);
}

export async function readLastReport(homeDir: string): Promise<LastReport | undefined> {
  const dir = curatorDir(homeDir);
  const names = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  const name = newestReportName(names);
  if (name === undefined) return undefined;
  const path = join(dir, name);
  const file = await readTextIfPresent(path);
  if (file === undefined) return undefined;
  return { path, date: name.slice(0, 10), ...splitReportFile(file) };
}
