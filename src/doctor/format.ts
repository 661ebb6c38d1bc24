// `iris doctor` as text: one line per check (✓ ok, ! warning, ✗ failure), the fix under every
// problem, then a summary line. Pure: a report in, text out.
import { plural, type CheckStatus, type DoctorReport } from './types.js';

const MARK: Readonly<Record<CheckStatus, string>> = { ok: '✓', warn: '!', fail: '✗' };

export function summaryLine(report: DoctorReport, offline: boolean): string {
  const count = (status: CheckStatus) => report.checks.filter((c) => c.status === status).length;
  const warnings = count('warn');
  const failed = count('fail');
  const head = `${report.healthy ? 'healthy' : 'not healthy'}: ${count('ok')} ok, ${warnings} ${plural(warnings, 'warning')}, ${failed} failed`;
  return offline ? `${head} (--offline: live probes skipped)` : head;
}

export function formatDoctorText(report: DoctorReport, offline: boolean): string {
  const lines: string[] = [];
  for (const check of report.checks) {
    lines.push(`${MARK[check.status]} ${check.name}: ${check.finding}`);
    for (const detail of check.details ?? []) lines.push(`    ${detail}`);
    if (check.fix) lines.push(`  fix: ${check.fix}`);
  }
  lines.push(summaryLine(report, offline));
  return `${lines.join('\n')}\n`;
}
