// The webhook platform, when enabled: the gateway runs (its pid file names a live process), or,
// when it does not, whether `extra.host:extra.port` can be bound by the next start. A port taken by
// another program is a warning: the gateway would refuse to start. Pure.
import type { GatewayStatus } from '../../routing/status-report.js';
import { ok, warn, type CheckResult } from '../types.js';

/** What trying to listen on the address said (it was closed again at once). */
export type BindResult = { readonly ok: true } | { readonly ok: false; readonly code: string; readonly message: string };

const ID = 'webhook';
const PORT_FIX = 'iris config set platforms.webhook.extra.port <a free port>';

function notRunning(gateway: GatewayStatus): string {
  switch (gateway.state) {
    case 'stale_pid_file':
      return `the gateway is not running (stale pid file ${gateway.pid_file})`;
    case 'bad_pid_file':
      return `the gateway is not running (unreadable pid file ${gateway.pid_file})`;
    default:
      return 'the gateway is not running';
  }
}

export function checkWebhook(gateway: GatewayStatus, host: string, port: number, bind: BindResult | undefined): CheckResult {
  if (gateway.state === 'running') return ok(ID, ID, `the gateway is running (pid ${gateway.pid})`);
  const head = notRunning(gateway);
  const address = `${host}:${port}`;
  if (port === 0 || !bind) return ok(ID, ID, `${head}; it listens on a free port picked at start (extra.port: 0)`);
  if (bind.ok) return ok(ID, ID, `${head}; ${address} is free (start it with iris gateway start)`);
  switch (bind.code) {
    case 'EADDRINUSE':
      return warn(ID, ID, `${head}, and ${address} is taken by another program`, `${PORT_FIX}, or stop the program on port ${port}`);
    case 'EACCES':
      return warn(ID, ID, `${head}, and listening on ${address} is not allowed (ports below 1024 need privileges)`, `${PORT_FIX} above 1023`);
    case 'EADDRNOTAVAIL':
      return warn(ID, ID, `${head}, and ${host} is not an address of this machine`, 'iris config set platforms.webhook.extra.host 0.0.0.0 (or 127.0.0.1)');
    default:
      return warn(ID, ID, `${head}, and ${address} cannot be bound: ${bind.message}`, `${PORT_FIX}, or iris config set platforms.webhook.extra.host <address>`);
  }
}
