// `iris skills search|install|list|show|remove` (docs/skills.md). Search and install read the hubs
// of `skills.hubs`; search asks the skills_hub slot, over the config's routes, to rank the matches.
import { join } from 'node:path';
import { loadOAuthView } from '../../auth/view.js';
import type { Env, HomePaths } from '../../config/home.js';
import type { Config } from '../../config/schema.js';
import type { AskSlot } from '../../routing/strict-answer.js';
import { callCounted } from '../../agent/slot-usage.js';
import { errorMessage } from '../../domain/error-message.js';
import { openStoreAt } from '../../store/open-store.js';
import type { UsageRecord } from '../../store/types.js';
import { listSkills, readSkill, SKILL_FILE, SKILL_FILE_MAX_BYTES, skillsDir } from '../../agent/tools/skills/skills.js';
import { rotationOf } from '../../log/rotation.js';
import { checkName, pathForName } from '../../security/names.js';
import { fetchGuardOf } from '../../agent/fetch-guard.js';
import { snapshotRoutes } from '../../routing/call-model.js';
import { createRoutingDeps } from '../../routing/runtime.js';
import { readHubs, type HubListing } from '../../skills/hubs.js';
import { checkSkillBytes, isSkillLocation, removeSkill, writeSkill } from '../../skills/install.js';
import { rankCandidates, type SearchHit } from '../../skills/search.js';
import { entryLocation, sourceReader, type ReadSource } from '../../skills/source.js';
import { printData, printError, printJson, printWarning } from '../console.js';
import { cliStoreTarget } from '../store-target.js';
import { openConfig, openEnv, openHome } from '../context.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { formatTable } from '../table.js';

type JsonOption = { json?: boolean };

const SKILL_TIMEOUT_MS = 30_000;

/** `read`: paths and URLs, the URLs through the fetch guard (hubs and their entries name them). */
type Context = { paths: HomePaths; env: Env; config: Readonly<Config>; read: ReadSource };

async function open(): Promise<Context> {
  const paths = await openHome();
  const env = await openEnv(paths);
  const { config } = await openConfig(paths);
  return { paths, env, config, read: sourceReader(fetchGuardOf(config, env)) };
}

const NO_HUBS = 'no skills hubs: list the URLs or paths of hub indexes under skills.hubs in config.yaml (docs/skills.md)';

async function hubListing(context: Context): Promise<HubListing> {
  const hubs = context.config.skills.hubs;
  if (hubs.length === 0) throw new CliFailure('not_found', NO_HUBS);
  const listing = await readHubs(hubs, context.read);
  for (const problem of listing.failed) printWarning(`skills hub ${problem.hub} failed: ${problem.error}`);
  for (const problem of listing.skipped) printWarning(`skills hub ${problem.hub}: ${problem.error} (entry skipped)`);
  return listing;
}

function slotAsk(context: Context, oauth: Awaited<ReturnType<typeof loadOAuthView>>['view']): AskSlot {
  const routes = snapshotRoutes(context.config, context.env, oauth);
  const routing = createRoutingDeps(context.paths, context.env, { rotation: rotationOf(context.config.logging) });
  return async (system, messages, maxOutputTokens) => {
    const result = await callCounted('skills_hub', { system, messages, maxOutputTokens }, routes, routing, (record) => recordUsage(context.paths, record));
    return result.ok ? { ok: true, text: result.text } : { ok: false, error: result.error.message };
  };
}

/** Counted in `iris usage`; a store that cannot take it costs a warning, not the search. */
async function recordUsage(paths: HomePaths, record: UsageRecord): Promise<void> {
  try {
    const store = await openStoreAt(await cliStoreTarget(paths));
    try {
      await store.recordUsage(record);
    } finally {
      await store.close();
    }
  } catch (err) {
    printWarning(`the skills_hub call's usage was not recorded: ${errorMessage(err)}`);
  }
}

const hitJson = (hit: SearchHit) => ({ name: hit.name, description: hit.description, source: hit.hub, url: entryLocation(hit.hub, hit.url) ?? hit.url, tags: hit.tags, reason: hit.reason ?? null });

/** Exit 0 when at least one hub answered (a failing hub is named on stderr), 1 when none did. */
export async function skillsSearch(query: string, options: JsonOption): Promise<number> {
  const context = await open();
  if (context.config.skills.hubs.length === 0) {
    // Nothing was searched: an error, as its exit code says (a warning never comes with exit 1).
    printError(NO_HUBS);
    if (options.json) printJson({ query, ranked: false, results: [], failed_hubs: [] });
    return EXIT.failure;
  }
  const listing = await hubListing(context);
  if (listing.failed.length === context.config.skills.hubs.length) {
    printError('no skills hub answered');
    if (options.json) printJson({ query, ranked: false, results: [], failed_hubs: listing.failed });
    return EXIT.failure;
  }
  const oauth = await loadOAuthView(context.paths);
  if (oauth.problem) printWarning(oauth.problem);
  const outcome = await rankCandidates(query, listing.entries, slotAsk(context, oauth.view));
  if (outcome.warning) printWarning(outcome.warning);
  if (options.json) {
    printJson({ query, ranked: outcome.ranked, results: outcome.hits.map(hitJson), failed_hubs: listing.failed });
    return EXIT.ok;
  }
  if (outcome.hits.length === 0) {
    printData(`no skill in the hubs matches "${query}"`);
    return EXIT.ok;
  }
  const blocks = outcome.hits.map((hit) =>
    [`${hit.name}: ${hit.description}`, `  source: ${hit.hub}`, ...(hit.reason ? [`  why: ${hit.reason}`] : [])].join('\n'),
  );
  printData(blocks.join('\n\n'));
  return EXIT.ok;
}

/** A skill name given on the command line, checked before it becomes a path: a bad one is a usage error. */
function skillArgument(name: string): string {
  const checked = checkName('skill', name);
  if (!checked.ok) throw new CliFailure('usage', checked.error);
  return name;
}

/** Where to read the SKILL.md from, and the name it must have (when a hub listed it). */
async function locate(target: string, context: Context): Promise<{ location: string; expected?: string; source: string }> {
  // A URL or a path is read, and its front matter's name is checked (checkSkillBytes).
  if (isSkillLocation(target)) return { location: target, source: target };
  skillArgument(target);
  const listing = await hubListing(context);
  const entry = listing.entries.find((e) => e.name === target);
  if (!entry) throw new CliFailure('not_found', `no skill named "${target}" in the skills hubs (iris skills search finds them)`);
  const location = entryLocation(entry.hub, entry.url);
  if (location === undefined) throw new CliFailure('invalid_skill', `skills hub ${entry.hub} lists "${target}" at ${entry.url}, which is not an http(s) URL`);
  return { location, expected: target, source: entry.hub };
}

export async function skillsInstall(target: string, options: JsonOption & { force?: boolean }): Promise<void> {
  const context = await open();
  const { location, expected, source } = await locate(target, context);
  const read = await context.read(location, { timeoutMs: SKILL_TIMEOUT_MS, maxBytes: SKILL_FILE_MAX_BYTES });
  if (!read.ok) throw new CliFailure('io_error', read.error);
  const checked = checkSkillBytes(read.bytes, expected);
  if (!checked.ok) throw new CliFailure('invalid_skill', `${location}: ${checked.error}`);
  const { name, description } = checked.skill;
  const written = await writeSkill(skillsDir(context.paths), name, read.bytes, options.force === true);
  if (!written.ok) throw new CliFailure('exists', `skill "${name}" is already installed (${written.path}); --force replaces it`);
  if (options.json) printJson({ installed: name, description, path: written.path, from: location, source, replaced: written.replaced });
  else printData(`${written.replaced ? 'replaced' : 'installed'} skill ${name} (${written.path}) from ${location}`);
}

export async function skillsList(options: JsonOption): Promise<void> {
  const paths = await openHome();
  const dir = skillsDir(paths);
  const entries = (await listSkills(dir)) ?? [];
  const valid = entries.flatMap((e) => (e.ok ? [{ name: e.skill.name, description: e.skill.description, path: join(dir, e.folder, SKILL_FILE) }] : []));
  const invalid = entries.flatMap((e) => (e.ok ? [] : [{ folder: e.folder, error: e.error }]));
  if (options.json) {
    printJson({ skills: valid, invalid });
    return;
  }
  for (const problem of invalid) printWarning(`skills/${problem.folder} is not a valid skill: ${problem.error}`);
  if (valid.length === 0) printData(`no skills installed (iris skills install <name>|<url> adds one under ${dir})`);
  else printData(formatTable(['skill', 'description'], valid.map((s) => [s.name, s.description])));
}

async function installedSkill(name: string) {
  skillArgument(name);
  const paths = await openHome();
  const dir = skillsDir(paths);
  return { dir, entry: await readSkill(dir, name) };
}

export async function skillsShow(name: string, options: JsonOption): Promise<void> {
  const { dir, entry } = await installedSkill(name);
  if (!entry.ok && entry.missing) throw new CliFailure('not_found', `no skill named "${name}" (iris skills list shows the installed ones)`);
  if (!entry.ok) throw new CliFailure('invalid_skill', `skill "${name}" is invalid: ${entry.error}`);
  const path = join(pathForName(dir, 'skill', name), SKILL_FILE);
  if (options.json) printJson({ name, description: entry.skill.description, path, body: entry.skill.body });
  else printData(`${name}: ${entry.skill.description}\nfile: ${path}\n\n${entry.skill.body}`);
}

export async function skillsRemove(name: string, options: JsonOption): Promise<void> {
  skillArgument(name);
  const paths = await openHome();
  const folder = pathForName(skillsDir(paths), 'skill', name);
  if (!(await removeSkill(skillsDir(paths), name))) throw new CliFailure('not_found', `no skill named "${name}" (iris skills list shows the installed ones)`);
  if (options.json) printJson({ removed: name, path: folder });
  else printData(`removed skill ${name} (${folder})`);
}
