// How `iris gateway status` shows the systemd service: one text line and one JSON object.
import { GATEWAY_UNIT_NAME, type UnitScope } from './gateway-unit.js';
import { describeServiceState, type ServiceState } from './systemctl-show.js';

export type ServiceReport =
  | { readonly known: true; readonly scope: UnitScope; readonly unitPath: string; readonly state: ServiceState }
  | { readonly known: false; readonly scope: UnitScope; readonly unitPath: string; readonly reason: string };

export function serviceLine(report: ServiceReport): string {
  return report.known
    ? `service: ${describeServiceState(GATEWAY_UNIT_NAME, report.state)}`
    : `service: ${GATEWAY_UNIT_NAME}, systemd: unknown (${report.reason})`;
}

export function serviceJson(report: ServiceReport): Record<string, unknown> {
  const base = { unit: GATEWAY_UNIT_NAME, scope: report.scope, unit_path: report.unitPath };
  if (!report.known) return { ...base, systemd: 'unknown', reason: report.reason };
  const { state } = report;
  return {
    ...base,
    systemd: 'known',
    active_state: state.activeState,
    sub_state: state.subState,
    unit_file_state: state.unitFileState,
    main_pid: state.mainPid === 0 ? null : state.mainPid,
  };
}
