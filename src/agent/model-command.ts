// `/model <name-or-alias> [--provider <p>] [--global]`: parsing and deciding, without I/O.
import { resolveModelRef } from '../config/model-ref.js';
import type { Config } from '../config/schema.js';
import { providerSpec } from '../providers/catalog.js';
import { isProviderId } from '../domain/provider-ids.js';
import { BUILTIN_SHORT_NAMES } from '../domain/short-names.js';

export type ModelCommand = { readonly name: string; readonly provider?: string; readonly global: boolean };

export type ParsedModelCommand = { ok: true; command: ModelCommand } | { ok: false; message: string };

export const MODEL_USAGE = 'usage: /model <name-or-alias> [--provider <provider>] [--global]';

export function parseModelCommand(line: string): ParsedModelCommand {
  const words = line.trim().split(/\s+/).slice(1);
  let name: string | undefined;
  let provider: string | undefined;
  let global = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (word === '--global') global = true;
    else if (word === '--provider') {
      provider = words[++i];
      if (!provider) return { ok: false, message: `--provider needs a value; ${MODEL_USAGE}` };
    } else if (word.startsWith('--')) return { ok: false, message: `unknown option ${word}; ${MODEL_USAGE}` };
    else if (name === undefined) name = word;
    else return { ok: false, message: `one model name only; ${MODEL_USAGE}` };
  }
  if (!name) return { ok: false, message: MODEL_USAGE };
  return { ok: true, command: { name, ...(provider ? { provider } : {}), global } };
}

export type ModelTarget = { ok: true; provider: string; model: string; baseUrl?: string } | { ok: false; message: string };

/** Which provider and model a /model command means, given the session's current provider. */
export function resolveModelTarget(
  command: ModelCommand,
  config: Pick<Readonly<Config>, 'model' | 'model_aliases'>,
  currentProvider: string,
): ModelTarget {
  const ref = resolveModelRef(command.name, config);
  const provider = command.provider ?? ref.provider ?? currentProvider;
  if (!isProviderId(provider)) return { ok: false, message: `unknown provider "${provider}"` };
  if (!ref.model.trim()) return { ok: false, message: MODEL_USAGE };
  return { ok: true, provider, model: ref.model, ...(ref.base_url ? { baseUrl: ref.base_url } : {}) };
}

/** What `/model` alone answers: the session's model, then what it can switch to. */
export function modelChoicesText(
  current: { readonly provider: string; readonly model: string },
  config: Pick<Readonly<Config>, 'model' | 'model_aliases'>,
): string {
  const curated = providerSpec(current.provider)?.models.map((m) => m.id) ?? [];
  const userAliases: Record<string, string> = {};
  if (config.model !== '') for (const [name, ref] of Object.entries(config.model.aliases ?? {})) userAliases[name] = ref;
  for (const [name, entry] of Object.entries(config.model_aliases)) userAliases[name] = `${entry.provider}/${entry.model}`;
  const builtin = Object.entries(BUILTIN_SHORT_NAMES)
    .filter(([name]) => !(name in userAliases))
    .map(([name, ref]) => `${name} → ${ref.provider}/${ref.model}`);
  const lines = [`this session: ${current.provider} · ${current.model}`];
  if (curated.length > 0) lines.push(`${current.provider} models: ${curated.join(', ')}`);
  const aliases = [...Object.entries(userAliases).map(([name, ref]) => `${name} → ${ref}`), ...builtin];
  lines.push(`aliases: ${aliases.join(', ')}`);
  lines.push(`switch with ${MODEL_USAGE.replace('usage: ', '')} (any model id works, not only these)`);
  return lines.join('\n');
}
