// `iris skills install <name>|<url>|<path>` and the dashboard's Install, one path for both: find
// the SKILL.md (a bare name is looked up in the hubs), read it (URLs through the fetch guard),
// check it, write it with its origin. Nothing of the skill is run. Failures are values whose
// `code` the CLI maps to an exit code and the dashboard to an HTTP status.
import { SKILL_FILE_MAX_BYTES } from '../agent/tools/skills/skills.js';
import { checkName } from '../security/names.js';
import { readHubs, type HubListing } from './hubs.js';
import { NO_HUBS } from './hub-search.js';
import { checkSkillBytes, isSkillLocation, writeSkill } from './install.js';
import { writeOrigin } from './origin.js';
import { entryLocation, type ReadSource } from './source.js';

export const SKILL_TIMEOUT_MS = 30_000;

export type InstallDeps = {
  readonly skillsDir: string;
  readonly hubs: readonly string[];
  readonly read: ReadSource;
  /** Told about the hubs' listing when a name is looked up (its failed hubs are worth a warning). */
  readonly onListing?: (listing: HubListing) => void;
  readonly now: () => number;
};

export type InstallFailureCode = 'bad_name' | 'not_found' | 'invalid_skill' | 'io_error' | 'exists';

export type InstallResult =
  | {
      readonly ok: true;
      readonly name: string;
      readonly description: string;
      readonly path: string;
      /** The SKILL.md read: a URL or a path. */
      readonly from: string;
      /** The hub that listed it, or `from` when given directly. */
      readonly source: string;
      readonly replaced: boolean;
    }
  | { readonly ok: false; readonly code: InstallFailureCode; readonly error: string };

type Located = { readonly ok: true; readonly location: string; readonly expected?: string; readonly source: string } | Extract<InstallResult, { ok: false }>;

/** Where to read the SKILL.md from, and the name it must have (when a hub listed it). */
async function locate(target: string, deps: InstallDeps): Promise<Located> {
  // A URL or a path is read, and its front matter's name is checked (checkSkillBytes).
  if (isSkillLocation(target)) return { ok: true, location: target, source: target };
  const checked = checkName('skill', target);
  if (!checked.ok) return { ok: false, code: 'bad_name', error: checked.error };
  if (deps.hubs.length === 0) return { ok: false, code: 'not_found', error: NO_HUBS };
  const listing = await readHubs(deps.hubs, deps.read);
  deps.onListing?.(listing);
  const entry = listing.entries.find((e) => e.name === target);
  if (!entry) return { ok: false, code: 'not_found', error: `no skill named "${target}" in the skills hubs (iris skills search finds them)` };
  const location = entryLocation(entry.hub, entry.url);
  if (location === undefined) return { ok: false, code: 'invalid_skill', error: `skills hub ${entry.hub} lists "${target}" at ${entry.url}, which is not an http(s) URL` };
  return { ok: true, location, expected: target, source: entry.hub };
}

export async function installSkill(target: string, force: boolean, deps: InstallDeps): Promise<InstallResult> {
  const located = await locate(target, deps);
  if (!located.ok) return located;
  const { location, expected, source } = located;
  const read = await deps.read(location, { timeoutMs: SKILL_TIMEOUT_MS, maxBytes: SKILL_FILE_MAX_BYTES });
  if (!read.ok) return { ok: false, code: 'io_error', error: read.error };
  const checked = checkSkillBytes(read.bytes, expected);
  if (!checked.ok) return { ok: false, code: 'invalid_skill', error: `${location}: ${checked.error}` };
  const { name, description } = checked.skill;
  const written = await writeSkill(deps.skillsDir, name, read.bytes, force);
  if (!written.ok) return { ok: false, code: 'exists', error: `skill "${name}" is already installed (${written.path}); --force replaces it` };
  await writeOrigin(deps.skillsDir, name, { source, from: location, installedAt: deps.now() });
  return { ok: true, name, description, path: written.path, from: location, source, replaced: written.replaced };
}
