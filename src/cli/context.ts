// What most commands start with: the home (created on first use), the secrets from .env, and the
// config, with every warning printed once on stderr.
import { effectiveEnv, readEnvFile } from '../config/env-file.js';
import { prepareHome, resolveHomePaths, type Env, type HomePaths } from '../config/home.js';
import { loadConfig, type LoadedConfig } from '../config/store.js';
import { formatProblem, type ValidatedConfig } from '../config/validate.js';
import { createWarnOnce } from '../config/warn-once.js';
import { printWarning } from './console.js';
import { CliFailure } from './exit-codes.js';

const warnOnce = createWarnOnce();

export async function openHome(processEnv: Env = process.env): Promise<HomePaths> {
  const paths = resolveHomePaths(processEnv);
  const prepared = await prepareHome(paths);
  if (!prepared.ok) throw new CliFailure(prepared.error.code, prepared.error.message);
  for (const warning of prepared.warnings) printWarning(warning);
  return paths;
}

export async function openEnv(paths: HomePaths, processEnv: Env = process.env): Promise<Env> {
  const read = await readEnvFile(paths);
  if (!read.ok) throw new CliFailure(read.error.code, read.error.message);
  return effectiveEnv(read.values, processEnv);
}

export function reportConfigProblems(path: string, validated: ValidatedConfig): void {
  const { problems, unknownKeys } = validated;
  const lines = problems.map((p) => `  ${formatProblem(p)}${p.action === 'dropped' ? ' [ignored]' : ''}`);
  const fresh = warnOnce(lines);
  if (fresh.length > 0) {
    printWarning(
      `${path} has ${problems.length} invalid setting${problems.length === 1 ? '' : 's'}; ` +
        'each reads as its default ([ignored]: the entry is skipped):',
    );
    process.stderr.write(`${fresh.join('\n')}\n`);
  }
  const unknown = warnOnce(unknownKeys.map((k) => `unknown config key ${k}`));
  if (unknown.length > 0) {
    printWarning(
      `${path}: unknown key${unknown.length === 1 ? '' : 's'} ${unknown
        .map((u) => u.replace('unknown config key ', ''))
        .join(', ')} (kept as written, not used by this version)`,
    );
  }
}

export async function openConfig(paths: HomePaths): Promise<LoadedConfig> {
  const loaded = await loadConfig(paths);
  if (!loaded.ok) throw new CliFailure(loaded.error.code, loaded.error.message);
  reportConfigProblems(loaded.path, loaded);
  return loaded;
}
