// `iris gateway install-service [--user] [--print] [--force] [--json]`: writes the systemd unit
// that runs `iris gateway run` (the text comes from gateway/systemd/gateway-unit.ts, a pure
// function) and the environment file for its secrets, then names the commands that start it.
// Nothing here runs systemctl: enabling a service is the owner's step to take.
import { chmod, mkdir, open, readFile, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { writeFileAtomic } from '../../config/atomic-write.js';
import type { HomePaths } from '../../config/home.js';
import { STOP_GRACE_MS } from '../../gateway/gateway.js';
import { GATEWAY_ENV_FILE, gatewayEnvTemplate } from '../../gateway/systemd/env-file-template.js';
import { buildGatewayUnit, GATEWAY_UNIT_NAME, type GatewayUnitInput, type UnitScope } from '../../gateway/systemd/gateway-unit.js';
import { scopeFlag, unitDir } from '../../gateway/systemd/unit-dirs.js';
import { unitValueProblem } from '../../gateway/systemd/unit-syntax.js';
import { printData, printError, printJson, printWarning, writeStdout } from '../console.js';
import { openConfig, openHome } from '../context.js';
import { EXIT } from '../exit-codes.js';

export type InstallServiceOptions = { user?: boolean; print?: boolean; force?: boolean; json?: boolean };

/** A unit file holds no secret and systemd wants to read it: the usual 0644. */
const UNIT_FILE_MODE = 0o644;
const ENV_FILE_MODE = 0o600;

async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

async function unitInput(paths: HomePaths, scope: UnitScope): Promise<GatewayUnitInput> {
  const { config } = await openConfig(paths);
  // The service has no useful current directory, so only a configured, absolute workspace is
  // known here; it must stay writable under ProtectSystem=strict.
  const workspace = config.agent.workspace.trim();
  const owner = scope === 'system' ? await stat(paths.dir) : undefined;
  return {
    scope,
    home: paths.dir,
    node: process.execPath,
    // Resolved, so that an `npm link` shim or a relative argv[1] cannot point elsewhere later.
    irisBin: await realpath(process.argv[1]!),
    envFile: join(paths.dir, GATEWAY_ENV_FILE),
    extraWritablePaths: isAbsolute(workspace) && workspace !== paths.dir ? [workspace] : [],
    ...(owner ? { runAs: { uid: owner.uid, gid: owner.gid } } : {}),
    stopTimeoutSec: STOP_GRACE_MS / 1000 + 15,
  };
}

function unwritableHint(scope: UnitScope, dir: string, home: string, errno: string | undefined): string {
  const why = errno === 'EACCES' || errno === 'EPERM' ? 'permission denied' : errno === 'EROFS' ? 'read-only file system' : (errno ?? 'error');
  if (scope === 'user') return `cannot write the unit in ${dir} (${why})`;
  return `cannot write the unit in ${dir} (${why}): a system service needs root; run \`sudo env IRIS_HOME=${JSON.stringify(home)} iris gateway install-service\` (sudo drops IRIS_HOME otherwise), or install a user service with --user`;
}

/** Creates the environment file once (0600, comments only); an existing one is kept as it is, narrowed to 0600. */
async function ensureEnvFile(path: string, home: string): Promise<'created' | 'kept'> {
  try {
    const file = await open(path, 'wx', ENV_FILE_MODE);
    try {
      await file.writeFile(gatewayEnvTemplate(home), 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
    await chmod(path, ENV_FILE_MODE); // the umask may have narrowed it further; keep it exact
    return 'created';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const mode = (await stat(path)).mode & 0o777;
  if ((mode & ~ENV_FILE_MODE) !== 0) {
    await chmod(path, ENV_FILE_MODE);
    printWarning(`narrowed the permissions of ${path} from 0${mode.toString(8)} to 0600`);
  }
  return 'kept';
}

function nextCommands(scope: UnitScope): string[] {
  const flag = scopeFlag(scope).map((f) => ` ${f}`).join('');
  const commands = [`systemctl${flag} daemon-reload`, `systemctl${flag} enable --now ${GATEWAY_UNIT_NAME}`, `journalctl${flag} -u iris-gateway -f`];
  // A user manager stops with the owner's last session unless lingering is on.
  if (scope === 'user') commands.push('loginctl enable-linger "$USER"');
  return commands;
}

export async function gatewayInstallService(options: InstallServiceOptions = {}): Promise<number> {
  const scope: UnitScope = options.user ? 'user' : 'system';
  const paths = await openHome();
  const input = await unitInput(paths, scope);
  const values: Array<[string, string]> = [['IRIS_HOME', input.home], ['the node path', input.node], ['the iris path', input.irisBin], ...input.extraWritablePaths.map((path): [string, string] => ['agent.workspace', path])];
  for (const [what, value] of values) {
    const problem = unitValueProblem(value);
    if (problem) {
      printError(`cannot write a unit for ${what} ${JSON.stringify(value)}: ${problem}`);
      return EXIT.usage;
    }
  }
  const unit = buildGatewayUnit(input);
  if (options.print) {
    writeStdout(unit);
    return EXIT.ok;
  }

  const dir = unitDir(scope, process.env, homedir());
  const unitPath = join(dir, GATEWAY_UNIT_NAME);
  const existing = await readIfPresent(unitPath);
  if (existing !== undefined && existing !== unit && !options.force) {
    printError(`${unitPath} exists and differs from the unit this command writes; see the new one with --print, and replace it with --force`);
    return EXIT.failure;
  }
  const written = existing === undefined ? 'created' : existing === unit ? 'unchanged' : 'replaced';
  if (written !== 'unchanged') {
    try {
      await mkdir(dir, { recursive: true });
      await writeFileAtomic(unitPath, unit, UNIT_FILE_MODE);
    } catch (err) {
      printError(unwritableHint(scope, dir, input.home, (err as NodeJS.ErrnoException).code));
      return EXIT.failure;
    }
  }
  const envFile = await ensureEnvFile(input.envFile, input.home);

  const next = nextCommands(scope);
  if (options.json) {
    printJson({ unit: GATEWAY_UNIT_NAME, scope, unit_path: unitPath, unit_file: written, env_file: input.envFile, env_file_state: envFile, next });
    return EXIT.ok;
  }
  const lines = [
    `${written === 'unchanged' ? 'unchanged' : written === 'created' ? 'wrote' : 'replaced'} ${unitPath} (${scope} unit)`,
    `secrets: ${input.envFile} (${envFile === 'created' ? 'created, 0600, comments only: add provider keys and GH_TOKEN there' : 'kept as it was'})`,
    'next:',
    ...next.map((command) => `  ${command}`),
  ];
  printData(lines.join('\n'));
  return EXIT.ok;
}
