// `iris profile describe --auto` and the dashboard's Auto-generate: gather a profile's facts from
// its own home, ask the profile_describer slot with that profile's config (its routes, its keys),
// and store the paragraph as the top-level `description` of its config.yaml (comments kept).
import { loadOAuthView } from '../auth/view.js';
import { effectiveEnv, readEnvFile } from '../config/env-file.js';
import { resolveHomePaths, type Env } from '../config/home.js';
import { loadConfig, updateConfig } from '../config/store.js';
import { setScalarIn } from '../config/yaml-document.js';
import { listSkills, skillsDir } from '../agent/tools/skills/skills.js';
import { rotationOf } from '../log/rotation.js';
import { callCounted } from '../agent/slot-usage.js';
import type { UsageSource } from '../domain/usage-ledger.js';
import { snapshotRoutes } from '../routing/call-model.js';
import { createRoutingDeps } from '../routing/runtime.js';
import { openStoreAt, storeTarget, type StoreTarget } from '../store/open-store.js';
import type { UsageRecord } from '../store/types.js';
import { isDirectory } from './current.js';
import { buildDescribePrompt, DESCRIBE_FIX, DESCRIBE_SYSTEM, parseDescription } from './describe-prompt.js';
import { profileExists } from './manage.js';
import { profileHomeDir } from './names.js';
import { checkName } from '../security/names.js';
import { stat } from 'node:fs/promises';

/** How many recent session titles the slot sees. */
const RECENT_TITLES = 20;
const MAX_OUTPUT_TOKENS = 400;


/** The top-level key beside `description` saying the profile_describer wrote it (a person's edit removes it). */
export const DESCRIPTION_GENERATED_KEY = 'description_generated';
export type DescribeFailure = 'bad_name' | 'not_found' | 'config' | 'model_failed' | 'malformed' | 'io_error';

export type DescribeOutcome =
  | { readonly ok: true; readonly profile: string; readonly description: string; readonly provider: string; readonly model: string }
  | { readonly ok: false; readonly code: DescribeFailure; readonly message: string };

async function recentTitles(target: StoreTarget): Promise<string[]> {
  if (target.backend === 'sqlite') {
    const exists = await stat(target.path).then(() => true, () => false);
    if (!exists) return [];
  }
  const store = await openStoreAt(target, { mustExist: target.backend === 'sqlite' });
  try {
    const sessions = await store.listSessions({ limit: RECENT_TITLES });
    return sessions.flatMap((s) => (s.title ? [s.title] : []));
  } finally {
    await store.close();
  }
}

/** `usageSource`: whose run asked (`cli` for iris profile describe, `dashboard` for its button). */
export async function describeProfile(baseDir: string, name: string, processEnv: Env, usageSource: UsageSource): Promise<DescribeOutcome> {
  // Before any path: this reads a home's .env and config.yaml, calls a model with its keys and
  // writes to it, so a name from a request (the dashboard) must not point at another folder.
  const checked = checkName('profile', name);
  if (!checked.ok) return { ok: false, code: 'bad_name', message: checked.error };
  if (!profileExists(baseDir, name) || !isDirectory(profileHomeDir(baseDir, name))) {
    return { ok: false, code: 'not_found', message: `no profile "${name}"; see iris profile list` };
  }
  const paths = resolveHomePaths({ IRIS_HOME: profileHomeDir(baseDir, name) });
  const envFile = await readEnvFile(paths);
  if (!envFile.ok) return { ok: false, code: 'config', message: envFile.error.message };
  // The profile's own .env, then the process's variables, minus which home/profile this process uses.
  const env = effectiveEnv(envFile.values, { ...processEnv, IRIS_HOME: paths.dir, IRIS_PROFILE: undefined });
  const loaded = await loadConfig(paths);
  if (!loaded.ok) return { ok: false, code: 'config', message: loaded.error.message };
  const listed = (await listSkills(skillsDir(paths))) ?? [];
  const skills = listed.flatMap((e) => (e.ok ? [{ name: e.skill.name, description: e.skill.description }] : []));
  const prompt = buildDescribePrompt({ name, config: loaded.config, skills, sessionTitles: await recentTitles(storeTarget(paths.statePath, env, loaded.config)) });

  const oauth = await loadOAuthView(paths);
  const routes = snapshotRoutes(loaded.config, env, oauth.view);
  const routing = createRoutingDeps(paths, env, { rotation: rotationOf(loaded.config.logging) });
  // Counted in that profile's own `iris usage`, as every model call is.
  const target = storeTarget(paths.statePath, env, loaded.config);
  const record = async (usage: UsageRecord) => {
    const store = await openStoreAt(target);
    try {
      await store.recordUsage(usage);
    } finally {
      await store.close();
    }
  };
  const messages: Array<{ role: 'user' | 'assistant'; content: string }> = [{ role: 'user', content: prompt }];
  // One retry: a blank answer is sent back once with a request to fix it.
  for (let attempt = 0; attempt < 2; attempt++) {
    const result = await callCounted('profile_describer', { system: DESCRIBE_SYSTEM, messages, maxOutputTokens: MAX_OUTPUT_TOKENS }, routes, routing, { source: usageSource, record });
    if (!result.ok) return { ok: false, code: 'model_failed', message: `profile_describer: ${result.error.message}` };
    const parsed = parseDescription(result.text);
    if (parsed.ok) {
      // Marked as the model's words until a person edits it (the dashboard's Profiles page shows it).
      const stored = await updateConfig(paths, (doc) => {
        const set = setScalarIn(doc, ['description'], parsed.description);
        return set.ok ? setScalarIn(doc, [DESCRIPTION_GENERATED_KEY], true) : set;
      });
      if (!stored.ok) return { ok: false, code: 'io_error', message: stored.error.message };
      const served = result.report.served;
      return { ok: true, profile: name, description: parsed.description, provider: served?.provider ?? '', model: served?.model ?? '' };
    }
    if (attempt === 1) return { ok: false, code: 'malformed', message: `${parsed.reason}; the description was not changed` };
    messages.push({ role: 'assistant', content: result.text }, { role: 'user', content: DESCRIBE_FIX });
  }
  return { ok: false, code: 'malformed', message: 'the profile_describer model gave no answer' };
}
