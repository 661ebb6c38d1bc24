// `iris profile …`: thin: resolve the base home and the active profile, call src/profiles, print.
import { currentProfile } from '../../profiles/current.js';
import { createProfile, deleteProfile, listProfileNames, profileExists, storedDefault, storedDescription, strayProfileFolders, useProfile } from '../../profiles/manage.js';
import { profileHomeDir } from '../../profiles/names.js';
import { checkName } from '../../security/names.js';
import type { Result } from '../../config/result.js';
import type { DescribeFailure } from '../../profiles/describe.js';
import { printData, printJson, printWarning } from '../console.js';
import { CliFailure, type CliErrorCode } from '../exit-codes.js';
import { formatTable } from '../table.js';

type JsonOption = { json?: boolean };

const DESCRIBE_EXIT: Readonly<Record<DescribeFailure, CliErrorCode>> = {
  bad_name: 'usage',
  not_found: 'not_found',
  config: 'invalid_value',
  model_failed: 'io_error',
  malformed: 'io_error',
  io_error: 'io_error',
};

function unwrap<T extends object>(result: Result<T>): T {
  if (!result.ok) throw new CliFailure(result.error.code, result.error.message);
  return result;
}

/** A name given on the command line, checked before it becomes a path: a bad one is a usage error. */
function profileArgument(name: string): string {
  const checked = checkName('profile', name);
  if (!checked.ok) throw new CliFailure('usage', checked.error);
  return name;
}

type ProfileView = { name: string; active: boolean; home: string; description: string };

async function view(baseDir: string, name: string, active: string): Promise<ProfileView> {
  return { name, active: name === active, home: profileHomeDir(baseDir, name), description: await storedDescription(baseDir, name) };
}

export async function profileList(options: JsonOption): Promise<void> {
  const { baseDir, name: active } = currentProfile();
  const views = await Promise.all((await listProfileNames(baseDir)).map((n) => view(baseDir, n, active)));
  for (const stray of await strayProfileFolders(baseDir)) printWarning(`profiles/${stray.folder} is not a profile: ${stray.error}; rename the folder to use it`);
  if (options.json) return printJson(views);
  printData(formatTable(['', 'PROFILE', 'DESCRIPTION'], views.map((v) => [v.active ? '*' : '', v.name, v.description || '-'])));
}

export async function profileCreate(name: string, options: JsonOption & { clone?: string | boolean }): Promise<void> {
  const { baseDir, name: active } = currentProfile();
  const from = options.clone === true ? active : options.clone === undefined || options.clone === false ? undefined : options.clone;
  const created = unwrap(await createProfile(baseDir, name, from));
  if (options.json) return printJson({ name: created.name, home: created.home, cloned_from: from ?? null, cloned: created.cloned });
  const copied = from === undefined ? '' : created.cloned.length > 0 ? ` (copied ${created.cloned.join(' and ')} from ${from})` : ` (${from} has no config.yaml or .env to copy)`;
  printData(`created profile ${created.name} at ${created.home}${copied}\nuse it with: iris -p ${created.name} …  or  iris profile use ${created.name}`);
}

export async function profileShow(name: string | undefined, options: JsonOption): Promise<void> {
  const { baseDir, name: active } = currentProfile();
  const target = name === undefined ? active : profileArgument(name);
  if (!profileExists(baseDir, target)) throw new CliFailure('not_found', `no profile "${target}"; see iris profile list`);
  const v = await view(baseDir, target, active);
  if (options.json) return printJson({ ...v, stored_default: storedDefault(baseDir) });
  printData([`profile      ${v.name}${v.active ? ' (active)' : ''}`, `home         ${v.home}`, `description  ${v.description || '-'}`].join('\n'));
}

export async function profileDelete(name: string, options: JsonOption): Promise<void> {
  const { baseDir, name: active } = currentProfile();
  // The stored default counts as active too: deleting it would break every later command.
  const deleted = unwrap(await deleteProfile(baseDir, name, [active, storedDefault(baseDir)]));
  if (options.json) return printJson({ name: deleted.name, moved_to: deleted.movedTo });
  printData(`deleted profile ${deleted.name}: moved ${profileHomeDir(baseDir, name)} to ${deleted.movedTo}`);
}

export async function profileUse(name: string, options: JsonOption): Promise<void> {
  const { baseDir } = currentProfile();
  unwrap(await useProfile(baseDir, name));
  if (options.json) return printJson({ name, default: true });
  printData(`later commands use profile ${name} (-p and IRIS_PROFILE still win)`);
}

export async function profileDescribe(name: string | undefined, options: JsonOption & { auto?: boolean }): Promise<void> {
  const { baseDir, name: active } = currentProfile();
  const target = name === undefined ? active : profileArgument(name);
  if (!profileExists(baseDir, target)) throw new CliFailure('not_found', `no profile "${target}"; see iris profile list`);
  if (!options.auto) {
    const description = await storedDescription(baseDir, target);
    if (options.json) return printJson({ profile: target, description });
    printData(description || `profile ${target} has no description yet; write one with: iris profile describe ${target} --auto`);
    return;
  }
  // Routing (and its HTTP client) loads only when a model is asked.
  const { describeProfile } = await import('../../profiles/describe.js');
  const outcome = await describeProfile(baseDir, target, process.env, 'cli');
  if (!outcome.ok) throw new CliFailure(DESCRIBE_EXIT[outcome.code], outcome.message);
  if (options.json) return printJson({ ok: true, profile: outcome.profile, description: outcome.description, provider: outcome.provider, model: outcome.model });
  printData(outcome.description);
}
