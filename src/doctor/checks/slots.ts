// The 11 auxiliary slots, each as routing resolves it: a slot pinned to a provider with no model
// (and no default to fall back on) cannot run at all, and is a failure; the rest are summarised
// in one line. Credentials and endpoints of pinned providers are checked per provider
// (providers.ts); an unknown provider there names the slot to fix. Pure.
import type { Config } from '../../config/schema.js';
import { resolveCandidates, type Resolution } from '../../routing/resolve.js';
import { AUX_TASK_IDS, type AuxTaskId } from '../../domain/slots.js';
import type { Env } from '../../config/home.js';
import type { OAuthView } from '../../auth/view.js';
import { fail, ok, type CheckResult } from '../types.js';

export function checkAuxSlots(resolve: (task: AuxTaskId) => Resolution): CheckResult[] {
  const failures: CheckResult[] = [];
  const pinned: string[] = [];
  let auto = 0;
  for (const task of AUX_TASK_IDS) {
    const resolution = resolve(task);
    const noModel = resolution.warnings.find((w) => w.code === 'no_model');
    const own = resolution.candidates[0];
    if (noModel) {
      failures.push(
        fail(`slot:${task}`, `auxiliary.${task}`, noModel.message.replace(`${task}: `, ''), `iris model aux set ${task} <provider> <model> (or auto '' to follow the main model)`),
      );
    } else if (own?.reason === 'task') pinned.push(`${task} → ${own.provider} · ${own.model}`);
    else auto += 1;
  }
  if (failures.length > 0) return failures;
  const summary = pinned.length === 0 ? `all 11 follow the main model (auto)` : `${auto} on auto; ${pinned.join(', ')}`;
  return [ok('slots', 'auxiliary slots', summary)];
}

export function resolveAuxSlots(config: Readonly<Config>, env: Env, oauth: OAuthView): (task: AuxTaskId) => Resolution {
  return (task) => resolveCandidates(config, env, task, oauth);
}
