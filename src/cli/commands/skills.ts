// `iris skills search|install|list|show|remove` (docs/skills.md). Search and install read the hubs
// of `skills.hubs`; search asks the skills_hub slot, over the config's routes, to rank the matches.
import { join } from 'node:path';
import type { Env, HomePaths } from '../../config/home.js';
import type { Config } from '../../config/schema.js';
import { errorMessage } from '../../domain/error-message.js';
import { openStoreAt } from '../../store/open-store.js';
import type { UsageRecord } from '../../store/types.js';
import { readSkill, SKILL_FILE, skillsDir } from '../../agent/tools/skills/skills.js';
import { checkName, pathForName } from '../../security/names.js';
import { fetchGuardOf } from '../../agent/fetch-guard.js';
import type { HubListing } from '../../skills/hubs.js';
import { hitJson, hubWarnings, searchHubs } from '../../skills/hub-search.js';
import { installSkill, type InstallFailureCode } from '../../skills/install-skill.js';
import { listInstalledSkills } from '../../skills/installed.js';
import { removeSkill } from '../../skills/install.js';
import { sourceReader, type ReadSource } from '../../skills/source.js';
import { printData, printError, printJson, printWarning } from '../console.js';
import { cliStoreTarget } from '../store-target.js';
import { openConfig, openEnv, openHome } from '../context.js';
import { CliFailure, EXIT, type CliErrorCode } from '../exit-codes.js';
import { formatTable } from '../table.js';

type JsonOption = { json?: boolean };

/** `read`: paths and URLs, the URLs through the fetch guard (hubs and their entries name them). */
type Context = { paths: HomePaths; env: Env; config: Readonly<Config>; read: ReadSource };

async function open(): Promise<Context> {
  const paths = await openHome();
  const env = await openEnv(paths);
  const { config } = await openConfig(paths);
  return { paths, env, config, read: sourceReader(fetchGuardOf(config, env)) };
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

const warnAboutHubs = (listing: HubListing) => hubWarnings(listing).forEach(printWarning);

/** Exit 0 when at least one hub answered (a failing hub is named on stderr), 1 when none did. */
export async function skillsSearch(query: string, options: JsonOption): Promise<number> {
  const context = await open();
  const searched = await searchHubs(query, { ...context, usageSource: 'cli', recordUsage: (record) => recordUsage(context.paths, record) });
  if (!searched.ok) {
    // Nothing was searched: an error, as its exit code says (a warning never comes with exit 1).
    if (searched.code === 'no_hub_answered') warnAboutHubs(searched.listing);
    printError(searched.error);
    if (options.json) printJson({ query, ranked: false, results: [], failed_hubs: searched.code === 'no_hubs' ? [] : searched.listing.failed });
    return EXIT.failure;
  }
  const { listing, outcome } = searched;
  warnAboutHubs(listing);
  if (searched.oauthProblem) printWarning(searched.oauthProblem);
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

/** How each refusal of an install exits (the messages are the library's). */
const INSTALL_EXIT: Readonly<Record<InstallFailureCode, CliErrorCode>> = {
  bad_name: 'usage',
  not_found: 'not_found',
  invalid_skill: 'invalid_skill',
  io_error: 'io_error',
  exists: 'exists',
};

export async function skillsInstall(target: string, options: JsonOption & { force?: boolean }): Promise<void> {
  const context = await open();
  const installed = await installSkill(target, options.force === true, {
    skillsDir: skillsDir(context.paths),
    hubs: context.config.skills.hubs,
    read: context.read,
    onListing: warnAboutHubs,
    now: Date.now,
  });
  if (!installed.ok) throw new CliFailure(INSTALL_EXIT[installed.code], installed.error);
  const { name, description, path, from, source, replaced } = installed;
  if (options.json) printJson({ installed: name, description, path, from, source, replaced });
  else printData(`${replaced ? 'replaced' : 'installed'} skill ${name} (${path}) from ${from}`);
}

export async function skillsList(options: JsonOption): Promise<void> {
  const paths = await openHome();
  const dir = skillsDir(paths);
  const { skills: valid, invalid } = await listInstalledSkills(dir);
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
