// Reading `systemctl show <unit> --property=ActiveState,SubState,UnitFileState,MainPID` (lines of
// `Name=value`), and the one line `iris gateway status` prints about it.

export const SHOWN_PROPERTIES = ['ActiveState', 'SubState', 'UnitFileState', 'MainPID'] as const;

export type ServiceState = {
  /** `active`, `inactive`, `failed`, `activating`… */
  readonly activeState: string;
  /** `running`, `dead`, `auto-restart`… */
  readonly subState: string;
  /** `enabled`, `disabled`, `linked`…; '' when systemd has not loaded the file (no daemon-reload yet). */
  readonly unitFileState: string;
  /** 0 when nothing runs. */
  readonly mainPid: number;
};

export type ParsedShow = { readonly ok: true; readonly state: ServiceState } | { readonly ok: false; readonly reason: string };

export function parseSystemctlShow(stdout: string): ParsedShow {
  const values = new Map<string, string>();
  for (const line of stdout.split(/\r?\n/)) {
    const at = line.indexOf('=');
    if (at > 0) values.set(line.slice(0, at), line.slice(at + 1).trim());
  }
  const activeState = values.get('ActiveState');
  if (!activeState) return { ok: false, reason: 'systemctl show printed no ActiveState' };
  const pid = Number(values.get('MainPID') ?? '0');
  return {
    ok: true,
    state: {
      activeState,
      subState: values.get('SubState') ?? '',
      unitFileState: values.get('UnitFileState') ?? '',
      mainPid: Number.isSafeInteger(pid) && pid > 0 ? pid : 0,
    },
  };
}

/** `iris-gateway.service active (running), enabled` */
export function describeServiceState(unit: string, state: ServiceState): string {
  const active = state.subState ? `${state.activeState} (${state.subState})` : state.activeState;
  return state.unitFileState ? `${unit} ${active}, ${state.unitFileState}` : `${unit} ${active}`;
}
