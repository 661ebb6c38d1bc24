// `iris status` as text: one aligned line per slot, the credentials in use, the gateway; with
// `--deep`, each slot's candidates in the order they are tried. Pure: a report in, text out.
import type { CandidateStatus, GatewayStatus, ProviderStatus, SlotStatus, StatusReport } from '../routing/status-report.js';

const GATEWAY_LABEL = 'Gateway';

export function routeText(slot: Pick<SlotStatus, 'provider' | 'model' | 'auto' | 'unusable'>): string {
  if (slot.provider === null) return 'not configured';
  const label = `${slot.provider} · ${slot.model ?? ''}`;
  const route = slot.auto ? `auto → ${label}` : label;
  return slot.unusable ? `${route}  [${slot.unusable}]` : route;
}

function candidateLines(candidate: CandidateStatus, index: number): string[] {
  const head = `  ${index + 1}. ${candidate.provider} · ${candidate.model} — ${candidate.why}`;
  const indent = ' '.repeat(`  ${index + 1}. `.length);
  if (!candidate.usable) return [head, `${indent}unusable: ${candidate.unusable ?? ''}`];
  if (candidate.endpoint_error) return [head, `${indent}cannot be called: ${candidate.endpoint_error}`];
  const mode =
    candidate.api_mode !== candidate.configured_api_mode
      ? `${candidate.api_mode} (configured ${candidate.configured_api_mode})`
      : `${candidate.api_mode}`;
  return [
    head,
    `${indent}api mode ${mode}, base URL ${candidate.base_url}`,
    ...(candidate.notes ?? []).map((note) => `${indent}note: ${note}`),
  ];
}

function providerLines(providers: readonly ProviderStatus[]): string[] {
  if (providers.length === 0) return ['  none in use'];
  const width = Math.max(...providers.map((p) => p.provider.length)) + 2;
  return providers.map((p) => `  ${p.provider.padEnd(width)}${p.detail}`);
}

export function gatewayText(gateway: GatewayStatus): string {
  switch (gateway.state) {
    case 'running':
      return `running (pid ${gateway.pid})`;
    case 'not_running':
      return 'not running';
    case 'stale_pid_file':
      return 'not running (stale pid file)';
    case 'bad_pid_file':
      return `not running (unreadable pid file ${gateway.pid_file})`;
  }
}

export function formatStatus(report: StatusReport): string {
  const slots = [report.main, ...report.slots];
  const width = Math.max(GATEWAY_LABEL.length, ...slots.map((s) => s.name.length)) + 2;
  const lines: string[] = [];
  for (const slot of slots) {
    lines.push(`${slot.name.padEnd(width)}${routeText(slot)}`);
    if (slot.candidates) {
      slot.candidates.forEach((candidate, i) => lines.push(...candidateLines(candidate, i)));
      if (slot.candidates.length === 0) lines.push('  (no candidates)');
      lines.push('');
    }
  }
  if (!slots.some((s) => s.candidates)) lines.push('');
  lines.push('Credentials', ...providerLines(report.providers), '');
  lines.push(`${GATEWAY_LABEL.padEnd(width)}${gatewayText(report.gateway)}`);
  return `${lines.join('\n')}\n`;
}
