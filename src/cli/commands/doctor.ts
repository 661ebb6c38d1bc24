// `iris doctor [--offline] [--identity-timeout <s>] [--json]`: checks the home, the config, every provider in use (with live
// probes unless --offline), gh, the webhook platform, each enabled chat platform (settings, access,
// a live check) and the store, and says how to fix each
// problem. Reads only. Exit code 0 when healthy (warnings allowed), 1 when a check failed.
import { resolveIdentityTimeout } from '../../doctor/checks/identity.js';
import { formatDoctorText } from '../../doctor/format.js';
import { runDoctor } from '../../doctor/run.js';
import type { DoctorReport } from '../../doctor/types.js';
import { redactStrings } from '../../log/redact.js';
import { printData, printJson } from '../console.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { startSpinner, waitingText, type Spinner } from '../spinner.js';
import { stdoutStyle } from '../style.js';

export async function doctor(options: { offline?: boolean; json?: boolean; identityTimeout?: string }): Promise<number> {
  const offline = options.offline === true;
  const identityTimeout = resolveIdentityTimeout(options.identityTimeout);
  if (!identityTimeout.ok) throw new CliFailure('usage', identityTimeout.message);
  // Findings quote outside text (SDK and CLI messages): credential-shaped parts are cut out again here.
  let spinner: Spinner | undefined;
  const onProbing = (what: readonly string[]) => {
    spinner = startSpinner(process.stderr, (ms) => waitingText(`checking ${what.join('; ')}`, ms));
  };
  let found: DoctorReport;
  try {
    found = await runDoctor({ offline, processEnv: process.env, onProbing, identityTimeoutMs: identityTimeout.ms });
  } finally {
    spinner?.stop();
  }
  const report = redactStrings(found);
  if (options.json) printJson(report);
  else printData(formatDoctorText(report, offline, stdoutStyle()));
  return report.healthy ? EXIT.ok : EXIT.failure;
}
