// `iris auth [--json]`: a block per provider in use — endpoint, auth mode, the key's variable and
// where it was found (never its value), or the scope in identity mode. No live probe: `iris doctor`
// runs those.
import { buildAuthEntries, formatAuthText } from '../../doctor/auth-report.js';
import { findProvidersInUse } from '../../doctor/providers-in-use.js';
import { printData, printJson } from '../console.js';
import { openConfig, openEnv, openHome } from '../context.js';

export async function auth(options: { json?: boolean }): Promise<void> {
  const paths = await openHome();
  const env = await openEnv(paths);
  const { config } = await openConfig(paths);
  const uses = findProvidersInUse(config, env, process.env);
  if (options.json) printJson({ providers: buildAuthEntries(uses) });
  else printData(formatAuthText(uses));
}
