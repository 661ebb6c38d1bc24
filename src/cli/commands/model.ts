// `iris model set`, `iris model aux set`, `iris model aux reset`: the non-interactive assignment
// commands. The edits are the routing library's (the dashboard calls the same functions); this
// module applies them under the config lock and says what changed.
import type { ConfigDocument } from '../../config/yaml-document.js';
import type { Env, HomePaths } from '../../config/home.js';
import type { Result } from '../../config/result.js';
import type { Config } from '../../config/schema.js';
import type { ValidatedConfig } from '../../config/validate.js';
import { assignmentText, auxTargetToWire, type Assignment, type AuxTarget } from '../../domain/assignment.js';
import { setAuxModel, setMainModel, type EndpointSettings, type MainChange, type StaleAux } from '../../routing/assignments.js';
import { mainRoute, resolveCandidates, type SlotId } from '../../routing/resolve.js';
import { AUX_TASK_IDS, type AuxTaskId } from '../../domain/slots.js';
import { groupWarnings } from '../../routing/status-report.js';
import { loadOAuthView } from '../../auth/view.js';
import { updateConfig } from '../../config/store.js';
import { printData, printJson, printWarning } from '../console.js';
import { openEnv, openHome, reportConfigProblems } from '../context.js';
import { CliFailure } from '../exit-codes.js';

type JsonOption = { json?: boolean };
/** `--base-url` and `--key-env`: the endpoint of a custom (or self-hosted) provider. */
type EndpointOptions = { baseUrl?: string; keyEnv?: string };

function endpointOf(options: EndpointOptions): EndpointSettings {
  return { ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl.trim() } : {}), ...(options.keyEnv !== undefined ? { keyEnv: options.keyEnv.trim() } : {}) };
}


export const APPLIES_TO_NEW_SESSIONS = 'Changes apply to new sessions; running sessions keep their model.';

/** `all` names every aux slot (the library's empty task). */
export const ALL_TASKS = 'all';


function mainText(previous: Assignment): string {
  return previous.provider === '' && previous.model === '' ? 'not configured' : assignmentText(previous);
}

function sameAssignment(a: Assignment, b: Assignment): boolean {
  return assignmentText(a) === assignmentText(b);
}

/** Each aux slot's provider and model as written (absent keys read as `auto` / `''`). */
function auxAssignments(doc: ConfigDocument): Record<AuxTaskId, Assignment> {
  const data = doc.toJS() as { auxiliary?: Record<string, { provider?: unknown; model?: unknown } | null> } | null;
  const text = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);
  return Object.fromEntries(
    AUX_TASK_IDS.map((task) => {
      const slot = data?.auxiliary?.[task];
      return [task, { provider: text(slot?.provider, 'auto'), model: text(slot?.model, '') }];
    }),
  ) as Record<AuxTaskId, Assignment>;
}

/** The resolution warnings of the slots an edit touched (a missing key means the aggregator serves). */
async function warnAbout(paths: HomePaths, config: Readonly<Config>, env: Env, slots: readonly SlotId[]): Promise<void> {
  // A provider signed in with `iris auth login` has a credential too.
  const { view } = await loadOAuthView(paths);
  const resolutions = slots.map((slot) => resolveCandidates(config, env, slot, view));
  for (const warning of groupWarnings(resolutions)) printWarning(warning.message);
}

/** An edit's outcome, or the failure that ends the command (the library's message, exit 2). */
function applied<T>(paths: HomePaths, updated: Result<T & { validated: ValidatedConfig }>): T & { validated: ValidatedConfig } {
  if (!updated.ok) throw new CliFailure(updated.error.code, updated.error.message);
  reportConfigProblems(paths.configPath, updated.validated);
  return updated;
}

/** A pinned slot that the switch leaves with no endpoint or credential: it can no longer run. */
function unusableAfter(config: Readonly<Config>, env: Env, stale: StaleAux): string | undefined {
  if (stale.provider === 'auto') return undefined;
  const own = resolveCandidates(config, env, stale.task).candidates[0];
  return own?.reason === 'task' ? own.unusable?.message : undefined;
}

export async function modelSet(provider: string, model: string, options: JsonOption & EndpointOptions): Promise<void> {
  const paths = await openHome();
  const env = await openEnv(paths);
  const updated = applied(paths, await updateConfig<MainChange>(paths, (doc) => setMainModel(doc, provider, model, endpointOf(options))));
  const { previous, dropped, cleared } = updated;
  const staleAux = updated.staleAux.map((s) => {
    const unusable = unusableAfter(updated.validated.config, env, s);
    return unusable ? { ...s, unusable } : s;
  });
  const next = { provider: updated.provider, model: updated.model };
  const changed = !sameAssignment(previous, next) || dropped.length > 0 || cleared.length > 0;
  const route = mainRoute(updated.validated.config);
  const aliasOf = route && (route.provider !== next.provider || route.model !== next.model) ? route : undefined;

  if (options.json) {
    printJson({
      scope: 'main',
      previous,
      provider: next.provider,
      model: next.model,
      ...(aliasOf ? { resolves_to: { provider: aliasOf.provider, model: aliasOf.model } } : {}),
      dropped,
      cleared,
      stale_aux: staleAux,
      file: paths.configPath,
    });
  } else {
    const lines = [
      sameAssignment(previous, next) ? `main: ${assignmentText(next)} (unchanged)` : `main: ${mainText(previous)} → ${assignmentText(next)}`,
      ...(aliasOf ? [`note: ${next.model} is an alias: the main model resolves to ${aliasOf.provider} · ${aliasOf.model}`] : []),
      ...(dropped.length > 0 ? [`dropped: ${dropped.join(', ')}`] : []),
      ...(cleared.length > 0 ? [`cleared: ${cleared.join(', ')} (it belonged to ${previous.provider})`] : []),
      ...staleAux.map((s) =>
        s.provider === 'auto'
          ? `note: ${s.task} is auto with its own model ${s.model}: it now runs on ${next.provider}`
          : 'unusable' in s
            ? `warning: ${s.task} becomes unusable: ${s.provider} has ${s.unusable}; give it its own endpoint (iris model aux set ${s.task} ${s.provider} ${s.model || "''"} --base-url <url>) or put it back on auto (iris model aux set ${s.task} auto '')`
            : `note: ${s.task} stays on ${assignmentText(s)} (pinned)`,
      ),
      ...(changed ? [APPLIES_TO_NEW_SESSIONS] : []),
    ];
    printData(lines.join('\n'));
  }
  await warnAbout(paths, updated.validated.config, env, ['main']);
}

type AuxTaskChange = Assignment & { readonly task: AuxTaskId; readonly previous: Assignment; readonly cleared: readonly string[] };
type AuxOutcome = { readonly reset: boolean; readonly changes: readonly AuxTaskChange[] };

/** One line per slot that changed, then the slots already on the target, then the reminder. */
function auxChangeLines(changes: readonly AuxTaskChange[]): string[] {
  const changed = changes.filter((c) => !sameAssignment(c.previous, c));
  const unchanged = changes.filter((c) => sameAssignment(c.previous, c)).map((c) => c.task);
  const target = changes[0] ? assignmentText(changes[0]) : 'auto';
  if (changed.length === 0) {
    const which = unchanged.length === AUX_TASK_IDS.length ? `all ${AUX_TASK_IDS.length} auxiliary slots are` : `${unchanged.join(', ')} ${unchanged.length === 1 ? 'is' : 'are'}`;
    return [`no change: ${which} already on ${target}`];
  }
  return [
    ...changed.flatMap((c) => [
      `${c.task}: ${assignmentText(c.previous)} → ${assignmentText(c)}`,
      ...(c.cleared.length > 0
        ? [`  cleared: ${c.cleared.map((k) => `auxiliary.${c.task}.${k}`).join(', ')} (set for ${c.previous.provider})`]
        : []),
    ]),
    ...(unchanged.length > 0 ? [`unchanged: ${unchanged.join(', ')} (already on ${target})`] : []),
    APPLIES_TO_NEW_SESSIONS,
  ];
}

async function applyAux(target: AuxTarget, provider: string, model: string, options: JsonOption & EndpointOptions): Promise<void> {
  const paths = await openHome();
  const env = await openEnv(paths);
  const updated = applied(paths, await updateConfig<AuxOutcome>(paths, (doc) => {
    const before = auxAssignments(doc);
    const change = setAuxModel(doc, target, provider, model, endpointOf(options));
    if (!change.ok) return change;
    const changes = change.tasks.map((id) => ({
      task: id,
      previous: before[id],
      provider: change.provider,
      model: change.model,
      cleared: change.cleared[id] ?? [],
    }));
    return { ok: true, reset: change.reset, changes };
  }));
  const { changes, reset } = updated;
  // The JSON names the target as the dashboard's REST body does ('' all, '__reset__' reset).
  if (options.json) printJson({ scope: 'auxiliary', task: auxTargetToWire(target), reset, changes, file: paths.configPath });
  else printData(auxChangeLines(changes).join('\n'));
  await warnAbout(paths, updated.validated.config, env, changes.map((c) => c.task));
}

export async function modelAuxSet(task: string, provider: string, model: string, options: JsonOption & EndpointOptions): Promise<void> {
  await applyAux(task === ALL_TASKS ? { kind: 'all' } : { kind: 'one', task }, provider, model, options);
}

export async function modelAuxReset(options: JsonOption): Promise<void> {
  await applyAux({ kind: 'reset' }, '', '', options);
}
