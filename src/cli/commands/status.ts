// `iris status [--deep] [--json]`: which model serves each slot, the credentials in use, and
// whether the gateway runs. Reads only: the config, the environment (.env included) and the
// gateway's pid file. Light on purpose (no model client, logger or HTTP stack is loaded).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildStatusReport, gatewayStatus, type GatewayStatus } from '../../routing/status-report.js';
import { printData, printJson, printWarning } from '../console.js';
import { openConfig, openEnv, openHome } from '../context.js';
import { CliFailure } from '../exit-codes.js';
import { formatStatus } from '../status-text.js';

export const GATEWAY_PID_FILE = 'gateway.pid';

/** Alive unless the kernel says there is no such process (EPERM: it exists, owned by another user). */
function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

async function readGateway(homeDir: string): Promise<GatewayStatus> {
  const pidFile = join(homeDir, GATEWAY_PID_FILE);
  let text: string | undefined;
  try {
    text = await readFile(pidFile, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') throw new CliFailure('io_error', `cannot read ${pidFile}: ${code ?? String(err)}`);
  }
  return gatewayStatus(pidFile, text, processIsAlive);
}

export async function status(options: { deep?: boolean; json?: boolean }): Promise<void> {
  const paths = await openHome();
  const env = await openEnv(paths);
  const { config } = await openConfig(paths);
  // The endpoint planner is loaded for --deep only.
  const deep = options.deep ? { planEndpoint: (await import('../../providers/endpoint.js')).planEndpoint } : undefined;
  const report = buildStatusReport({ config, env, gateway: await readGateway(paths.dir), ...(deep ? { deep } : {}) });
  for (const warning of report.warnings) printWarning(warning.message);
  if (options.json) printJson(report);
  else printData(formatStatus(report));
}
