// `iris status` as text: one aligned line per slot, the credentials in use, the gateway; with
// `--deep`, each slot's candidates in the order they are tried, where the slots that simply follow
// the main model share one line instead of repeating its chain. Pure: a report (and a style) in,
// text out; problems are coloured and reasons dim when the style says so.
import { followsMain, type CandidateStatus, type GatewayStatus, type ProviderStatus, type SlotStatus, type StatusReport } from '../routing/status-report.js';
import { PLAIN, type Style } from './style.js';

const GATEWAY_LABEL = 'Gateway';

export function routeText(slot: Pick<SlotStatus, 'provider' | 'model' | 'auto' | 'unusable'>, style: Style = PLAIN): string {
  if (slot.provider === null) return 'not configured';
  const label = `${slot.provider} · ${slot.model ?? ''}`;
  const route = slot.auto ? `auto → ${label}` : label;
  return slot.unusable ? `${route}  ${style.tone('warn', `[${slot.unusable}]`)}` : route;
}

function candidateLines(candidate: CandidateStatus, index: number, style: Style): string[] {
  const head = `  ${index + 1}. ${candidate.provider} · ${candidate.model} ${style.dim(`— ${candidate.why}`)}`;
  const indent = ' '.repeat(`  ${index + 1}. `.length);
  if (!candidate.usable) return [head, `${indent}${style.tone('warn', `unusable: ${candidate.unusable ?? ''}`)}`];
  if (candidate.endpoint_error) return [head, `${indent}${style.tone('warn', `cannot be called: ${candidate.endpoint_error}`)}`];
  const mode =
    candidate.api_mode !== candidate.configured_api_mode
      ? `${candidate.api_mode} (configured ${candidate.configured_api_mode})`
      : `${candidate.api_mode}`;
  return [
    head,
    `${indent}${style.dim(`api mode ${mode}, base URL ${candidate.base_url}`)}`,
    ...(candidate.notes ?? []).map((note) => `${indent}${style.dim(`note: ${note}`)}`),
  ];
}

function providerLines(providers: readonly ProviderStatus[], style: Style): string[] {
  if (providers.length === 0) return ['  none in use'];
  const width = Math.max(...providers.map((p) => p.provider.length)) + 2;
  return providers.map((p) => `  ${p.provider.padEnd(width)}${p.usable ? p.detail : style.tone('fail', p.detail)}`);
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

/** `8 slots follow Main (auto, same chain): Web Extract, Skills Hub, …` */
export function followersLine(main: SlotStatus, followers: readonly SlotStatus[], style: Style = PLAIN): string {
  const count = `${followers.length} ${followers.length === 1 ? 'slot follows' : 'slots follow'} ${main.name}`;
  return `${count} ${style.dim('(auto, same chain)')}: ${followers.map((s) => s.name).join(', ')}`;
}

function slotBlock(slot: SlotStatus, width: number, style: Style): string[] {
  const lines = [`${slot.name.padEnd(width)}${routeText(slot, style)}`];
  if (!slot.candidates) return lines;
  slot.candidates.forEach((candidate, i) => lines.push(...candidateLines(candidate, i, style)));
  if (slot.candidates.length === 0) lines.push('  (no candidates)');
  lines.push('');
  return lines;
}

export function formatStatus(report: StatusReport, style: Style = PLAIN): string {
  const slots = [report.main, ...report.slots];
  const width = Math.max(GATEWAY_LABEL.length, ...slots.map((s) => s.name.length)) + 2;
  const followers = report.slots.filter((slot) => followsMain(report.main, slot));
  const lines = slotBlock(report.main, width, style);
  if (followers.length > 0) lines.push(followersLine(report.main, followers, style), '');
  for (const slot of report.slots) if (!followers.includes(slot)) lines.push(...slotBlock(slot, width, style));
  if (!slots.some((s) => s.candidates)) lines.push('');
  lines.push('Credentials', ...providerLines(report.providers, style), '');
  lines.push(`${GATEWAY_LABEL.padEnd(width)}${gatewayText(report.gateway)}`);
  return `${lines.join('\n')}\n`;
}
