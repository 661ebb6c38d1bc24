// `iris status [--deep] [--json]`: which model serves each slot, the credentials in use, and
// whether the gateway runs. Reads only: the config, the environment (.env included), the OAuth
// sign-ins of auth.json and the gateway's pid file. Light on purpose (no model client, logger or HTTP stack is loaded).
import { loadOAuthView } from '../../auth/view.js';
import { readGatewayStatus } from '../../gateway/pid-file.js';
import { buildStatusReport } from '../../routing/status-report.js';
import { printData, printJson, printWarning } from '../console.js';
import { openConfig, openEnv, openHome } from '../context.js';
import { CliFailure } from '../exit-codes.js';
import { formatStatus } from '../status-text.js';
import { stdoutStyle } from '../style.js';

export async function status(options: { deep?: boolean; json?: boolean }): Promise<void> {
  const paths = await openHome();
  const env = await openEnv(paths);
  const { config } = await openConfig(paths);
  const oauth = await loadOAuthView(paths);
  if (oauth.problem) printWarning(oauth.problem);
  // The endpoint planner is loaded for --deep only.
  const deep = options.deep ? { planEndpoint: (await import('../../providers/endpoint.js')).planEndpoint } : undefined;
  const gateway = await readGatewayStatus(paths).catch((err: NodeJS.ErrnoException) => {
    throw new CliFailure('io_error', `cannot read the gateway's pid file: ${err.code ?? String(err)}`);
  });
  const report = buildStatusReport({ config, env, oauth: oauth.view, gateway, ...(deep ? { deep } : {}) });
  for (const warning of report.warnings) printWarning(warning.message);
  if (options.json) printJson(report);
  else printData(formatStatus(report, stdoutStyle()));
}
