// config.yaml and .env as the doctor sees them: every invalid setting as the same line
// `iris config show` warns with, unknown keys as a warning, a file that cannot be read as a
// failure; and whether a main model is set. Pure.
import { mainRoute } from '../../routing/resolve.js';
import type { Config } from '../../config/schema.js';
import { formatProblem, type ConfigProblem } from '../../config/validate.js';
import { fail, ok, plural, shellWord, warn, type CheckResult } from '../types.js';

export type ConfigFacts =
  | {
      readonly ok: true;
      readonly path: string;
      readonly exists: boolean;
      readonly problems: readonly ConfigProblem[];
      readonly unknownKeys: readonly string[];
    }
  /** Not readable or not YAML: the message names the file (and the line). */
  | { readonly ok: false; readonly path: string; readonly message: string };

const NAME = 'config';

/** The line `iris config show` prints for a problem. */
export function problemLine(problem: ConfigProblem): string {
  return `${formatProblem(problem)}${problem.action === 'dropped' ? ' [ignored]' : ''}`;
}

function problemFix(problem: ConfigProblem, path: string): string {
  // A list entry or a map key cannot be set with `config set`; a scalar can.
  return problem.action === 'dropped' || problem.path === '(top level)'
    ? `edit ${shellWord(path)}`
    : `iris config set ${problem.path} <value>, or edit ${shellWord(path)}`;
}

export function checkConfig(facts: ConfigFacts): CheckResult[] {
  if (!facts.ok) {
    return [fail(NAME, NAME, `${facts.message}; the checks that need the config were skipped`, `edit ${shellWord(facts.path)}`)];
  }
  const checks = facts.problems.map((problem) =>
    fail(`config:${problem.path}`, NAME, problemLine(problem), problemFix(problem, facts.path)),
  );
  if (facts.unknownKeys.length > 0) {
    const keys = facts.unknownKeys;
    checks.push(
      warn(
        'config:unknown_keys',
        NAME,
        `unknown ${plural(keys.length, 'key')} ${keys.join(', ')} (kept as written, not used by this version)`,
        `check the spelling, or remove ${plural(keys.length, 'it', 'them')} from ${shellWord(facts.path)}`,
      ),
    );
  }
  if (facts.problems.length === 0) {
    checks.unshift(ok(NAME, NAME, facts.exists ? `${facts.path} is valid` : `no ${facts.path} yet: every setting is at its default`));
  }
  return checks;
}

/** The .env file could not be read (it exists, but not for us). */
export function checkEnvFile(message: string, path: string): CheckResult {
  return fail('env_file', '.env', message, `make it readable by you only: chmod 600 ${shellWord(path)}`);
}

export function checkMainModel(config: Readonly<Config>): CheckResult {
  const id = 'main_model';
  const name = 'main model';
  const route = mainRoute(config);
  if (route) return ok(id, name, `${route.provider} · ${route.model}`);
  const fix = 'iris setup (or iris model set <provider> <model>, e.g. iris model set openrouter anthropic/claude-sonnet-4.5)';
  return config.model === ''
    ? fail(id, name, "not configured (model: '')", fix)
    : fail(id, name, 'not configured: model.provider and model.default must both be set', fix);
}
