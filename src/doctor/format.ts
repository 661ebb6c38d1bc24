// `iris doctor` as text: one line per check (✓ ok, ! warning, ✗ failure), the fix under every
// problem, then a summary line. Pure: a report in, text out; the style says whether the marks
// are coloured (the CLI decides that for its stdout), plain by default.
import { PLAIN, type Style } from '../cli/style.js';
import { plural, type CheckStatus, type DoctorReport } from './types.js';

export function summaryLine(report: DoctorReport, offline: boolean, style: Style = PLAIN): string {
  const count = (status: CheckStatus) => report.checks.filter((c) => c.status === status).length;
  const warnings = count('warn');
  const failed = count('fail');
  const verdict = report.healthy ? style.tone('ok', 'healthy') : style.tone('fail', 'not healthy');
  const head = `${verdict}: ${count('ok')} ok, ${warnings} ${plural(warnings, 'warning')}, ${failed} failed`;
  return offline ? `${head} ${style.dim('(--offline: live probes skipped)')}` : head;
}

export function formatDoctorText(report: DoctorReport, offline: boolean, style: Style = PLAIN): string {
  const lines: string[] = [];
  for (const check of report.checks) {
    lines.push(`${style.mark(check.status)} ${check.name}: ${check.finding}`);
    for (const detail of check.details ?? []) lines.push(`    ${style.dim(detail)}`);
    if (check.fix) lines.push(`  ${style.dim(`fix: ${check.fix}`)}`);
  }
  lines.push(summaryLine(report, offline, style));
  return `${lines.join('\n')}\n`;
}
