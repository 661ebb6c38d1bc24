// What `iris setup` writes, decided in one place: the `model` mapping (provider, default,
// base_url, api_mode, context_length, and the auth mode for identity tokens) through the same
// set-main library as `iris model set` (so a provider switch clears base_url and drops a stale
// api_mode), keys to .env and never to config.yaml, and optionally the webhook platform.
import type { HomePaths } from '../config/home.js';
import { setEnvValue } from '../config/env-file.js';
import type { Result } from '../config/result.js';
import { updateConfig } from '../config/store.js';
import { setScalarIn, type ConfigDocument } from '../config/yaml-document.js';
import { setMainModel, type MainChange } from '../routing/assignments.js';
import type { ApiMode } from '../providers/wire/types.js';

export type SetupChoice = {
  readonly provider: string;
  readonly model: string;
  /** '' keeps the provider's default endpoint. */
  readonly baseUrl: string;
  readonly apiMode?: ApiMode;
  readonly authMode: 'api_key' | 'identity_token';
  /** A variable other than the provider's own that holds the key (model.key_env). */
  readonly keyEnv?: string;
  readonly contextLength: number;
  /** Written to .env. */
  readonly envValues: ReadonlyArray<{ readonly name: string; readonly value: string }>;
  readonly webhook?: { readonly port: number; readonly secret: string };
};

export type SetupWritten = { readonly change: MainChange; readonly envNames: readonly string[] };

function removeIn(doc: ConfigDocument, path: readonly string[]): void {
  if (doc.hasIn(path)) doc.deleteIn(path);
}

/** The edit of config.yaml, pure over the document. */
export function applySetupToDocument(doc: ConfigDocument, choice: SetupChoice): Result<MainChange> {
  const change = setMainModel(doc, choice.provider, choice.model);
  if (!change.ok) return change;
  const sets: Array<[readonly string[], string | number | boolean]> = [
    [['model', 'base_url'], choice.baseUrl],
    [['model', 'context_length'], choice.contextLength],
  ];
  if (choice.apiMode) sets.push([['model', 'api_mode'], choice.apiMode]);
  if (choice.authMode === 'identity_token') sets.push([['model', 'auth_mode'], 'identity_token']);
  if (choice.keyEnv) sets.push([['model', 'key_env'], choice.keyEnv]);
  if (choice.webhook) {
    sets.push([['platforms', 'webhook', 'enabled'], true], [['platforms', 'webhook', 'extra', 'port'], choice.webhook.port]);
    if (choice.webhook.secret) sets.push([['platforms', 'webhook', 'extra', 'secret'], choice.webhook.secret]);
  }
  for (const [path, value] of sets) {
    const set = setScalarIn(doc, [...path], value);
    if (!set.ok) return set;
  }
  // Choices not made this time must not linger from an earlier run on the same provider.
  if (!choice.apiMode) removeIn(doc, ['model', 'api_mode']);
  if (choice.authMode === 'api_key') removeIn(doc, ['model', 'auth_mode']);
  if (!choice.keyEnv) removeIn(doc, ['model', 'key_env']);
  return change;
}

export async function writeSetup(paths: HomePaths, choice: SetupChoice): Promise<Result<SetupWritten>> {
  // Keys first: a config that names a provider whose key is missing is worse than the reverse.
  for (const { name, value } of choice.envValues) {
    const written = await setEnvValue(paths, name, value);
    if (!written.ok) return written;
  }
  const updated = await updateConfig<MainChange>(paths, (doc) => applySetupToDocument(doc, choice));
  if (!updated.ok) return updated;
  return { ok: true, change: updated, envNames: choice.envValues.map((e) => e.name) };
}
