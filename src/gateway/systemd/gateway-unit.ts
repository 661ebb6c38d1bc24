// The text of iris-gateway.service, built from plain data so that every line can be checked
// exactly (gateway-unit.test.ts). `iris gateway install-service` gathers the inputs (paths, the
// home's owner) and writes the result; nothing here touches the disk.
import { escapeLinePath, quoteExecArg, quoteWord } from './unit-syntax.js';

export const GATEWAY_UNIT_NAME = 'iris-gateway.service';

export type UnitScope = 'user' | 'system';

export type GatewayUnitInput = {
  readonly scope: UnitScope;
  /** $IRIS_HOME, absolute. */
  readonly home: string;
  /** The Node.js binary, absolute: a service has no login shell, so no PATH lookup or nvm. */
  readonly node: string;
  /** bin/iris, absolute. */
  readonly irisBin: string;
  /** The EnvironmentFile= for secrets, absolute. */
  readonly envFile: string;
  /** More folders the gateway writes besides the home (the agent's workspace), absolute. */
  readonly extraWritablePaths: readonly string[];
  /** System units run as the home's owner, never as root by accident (numeric ids are valid User=/Group=). */
  readonly runAs?: { readonly uid: number; readonly gid: number };
  /** Seconds systemd waits after SIGTERM before SIGKILL. */
  readonly stopTimeoutSec: number;
};

/** The folders ProtectHome= hides (systemd.exec(5)). */
const HOME_ROOTS = ['/home', '/root', '/run/user'] as const;

function isUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(`${root}/`);
}

/**
 * ProtectHome=yes makes /home, /root and /run/user empty for the service. That is right when
 * nothing the gateway needs lives there; but a home in ~/.iris, or node from ~/.nvm, would vanish
 * and the service would not start. Then read-only is the strongest setting that still works:
 * everything under /home stays readable (node, bin/iris, gh's login in ~/.config/gh), and
 * ReadWritePaths= opens the Iris home (and the workspace) for writing again, which systemd allows
 * on top of a read-only mount but not on top of a hidden one.
 */
export function protectHomeFor(needed: readonly string[]): 'yes' | 'read-only' {
  return needed.some((path) => HOME_ROOTS.some((root) => isUnder(path, root))) ? 'read-only' : 'yes';
}

/**
 * PrivateTmp=yes gives the service its own empty /tmp and /var/tmp, which would hide a home kept
 * there (a trial install, a test). Such a home keeps the shared ones.
 */
export function privateTmpFor(needed: readonly string[]): boolean {
  return !needed.some((path) => isUnder(path, '/tmp') || isUnder(path, '/var/tmp'));
}

function serviceLines(input: GatewayUnitInput): string[] {
  const writable = [input.home, ...input.extraWritablePaths];
  const needed = [...writable, input.node, input.irisBin, input.envFile];
  const lines = [
    '[Service]',
    'Type=simple',
  ];
  if (input.runAs) lines.push(`User=${input.runAs.uid}`, `Group=${input.runAs.gid}`);
  lines.push(
    `Environment=${quoteWord(`IRIS_HOME=${input.home}`)}`,
    // Secrets (provider keys, GH_TOKEN) stay out of this world-readable unit. The file must
    // exist (no "-" prefix): a service that starts without its keys would fail every run later,
    // far from the cause; a missing file stops the start with a clear journal line instead.
    `EnvironmentFile=${escapeLinePath(input.envFile)}`,
    `ExecStart=${[input.node, input.irisBin, 'gateway', 'run'].map(quoteExecArg).join(' ')}`,
    'Restart=on-failure',
    'RestartSec=5',
    // Exit code 2 is a configuration problem (no route secret, no model): restarting cannot fix it.
    'RestartPreventExitStatus=2',
    // SIGTERM to the gateway only: it stops its runs at a safe point and puts the rest back in
    // the inbox; the runs' own children get SIGKILL only if that takes longer than the timeout.
    'KillMode=mixed',
    `TimeoutStopSec=${input.stopTimeoutSec}`,
    'UMask=0077',
    'NoNewPrivileges=yes',
  );
  if (input.scope === 'system') {
    // A user manager can only apply these through an unprivileged user namespace, which many
    // hosts disable; there the unit would not start at all, so user units keep to the options
    // above, which need no privilege.
    if (privateTmpFor(needed)) lines.push('PrivateTmp=yes');
    lines.push(
      'ProtectSystem=strict',
      `ProtectHome=${protectHomeFor(needed)}`,
      `ReadWritePaths=${writable.map(quoteWord).join(' ')}`,
      'ProtectKernelTunables=yes',
      'ProtectKernelModules=yes',
      'ProtectControlGroups=yes',
      'RestrictSUIDSGID=yes',
      'LockPersonality=yes',
    );
  }
  return lines;
}

/** The whole unit file, newline-terminated. */
export function buildGatewayUnit(input: GatewayUnitInput): string {
  const system = input.scope === 'system';
  const lines = [
    `# ${GATEWAY_UNIT_NAME}: the Iris webhook gateway for IRIS_HOME=${input.home}`,
    '# Written by `iris gateway install-service`. Run that again (with --force) to rewrite it, and keep',
    `# local changes in a drop-in (systemctl${system ? '' : ' --user'} edit ${GATEWAY_UNIT_NAME}), which a rewrite leaves alone.`,
    '[Unit]',
    'Description=Iris webhook gateway',
    // network-online.target exists only in the system manager; a user manager cannot wait for it.
    ...(system ? ['Wants=network-online.target', 'After=network-online.target'] : []),
    '',
    ...serviceLines(input),
    '',
    '[Install]',
    `WantedBy=${system ? 'multi-user.target' : 'default.target'}`,
  ];
  return `${lines.join('\n')}\n`;
}
