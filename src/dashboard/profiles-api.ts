// The Profiles page's API, one function per request: the list, create (optionally cloned), a
// person's description edit, Auto-generate, delete and switch. Each takes the parsed JSON (or the
// name from the path) and answers an outcome the route turns into a status; names pass the one
// name rule (src/security/names.ts) before anything touches a folder. The profile library
// (src/profiles/manage.ts) does the work, as it does for `iris profile …`.
import * as z from 'zod/mini';
import type { Env } from '../config/home.js';
import { describeProfile, type DescribeFailure } from '../profiles/describe.js';
import { createProfile, deleteProfile, listProfileNames, profileExists, storedDefault } from '../profiles/manage.js';
import { DEFAULT_PROFILE } from '../profiles/names.js';
import { checkName } from '../security/names.js';
import { MAX_DESCRIPTION_CHARS, normalizeDescription, readDescription, writeDescription } from './profile-description.js';

export type ProfileRow = { readonly name: string; readonly description: string; readonly generated: boolean; readonly active: boolean };

export type ProfilesAnswer = {
  /** The profile this dashboard serves (its config, keys and store are what every page shows). */
  readonly served: string;
  /** What `iris profile use` stored: the profile later `iris` commands use. */
  readonly stored_default: string;
  readonly profiles: readonly ProfileRow[];
};

export async function profilesJson(baseDir: string, served: string): Promise<ProfilesAnswer> {
  const names = await listProfileNames(baseDir);
  const profiles = await Promise.all(names.map(async (name) => ({ name, ...(await readDescription(baseDir, name)), active: name === served })));
  return { served, stored_default: storedDefault(baseDir), profiles };
}

export type ApiOutcome = { readonly ok: true; readonly status?: number; readonly body: unknown } | { readonly ok: false; readonly status: number; readonly error: string };

type Refused = Extract<ApiOutcome, { ok: false }>;

const refuse = (status: number, error: string): Refused => ({ ok: false, status, error });

/** A name from a request: 400 with the rule, or 404 when it names no profile. */
function existingProfile(baseDir: string, name: string): Refused | undefined {
  const checked = checkName('profile', name);
  if (!checked.ok) return refuse(400, checked.error);
  if (!profileExists(baseDir, name)) return refuse(404, `no profile "${name}"; see iris profile list`);
  return undefined;
}

const CreateSchema = z.object({ name: z.string(), clone_from: z.optional(z.string()) });

export async function createFromRequest(data: unknown, baseDir: string): Promise<ApiOutcome> {
  const parsed = CreateSchema.safeParse(data);
  if (!parsed.success) return refuse(400, 'send {"name": "<new profile>", "clone_from"?: "<profile to copy config.yaml and .env from>"}');
  const { name, clone_from: cloneFrom } = parsed.data;
  const checked = checkName('profile', name);
  if (!checked.ok) return refuse(400, checked.error);
  if (cloneFrom !== undefined) {
    const source = existingProfile(baseDir, cloneFrom);
    if (source) return source;
  }
  if (profileExists(baseDir, name)) return refuse(409, `profile "${name}" already exists`);
  const created = await createProfile(baseDir, name, cloneFrom);
  if (!created.ok) return refuse(created.error.code === 'io_error' ? 500 : 400, created.error.message);
  return { ok: true, status: 201, body: { ok: true, name, cloned_from: cloneFrom ?? null, cloned: created.cloned } };
}

const EditSchema = z.object({ description: z.string() });

export async function editFromRequest(name: string, data: unknown, baseDir: string): Promise<ApiOutcome> {
  const missing = existingProfile(baseDir, name);
  if (missing) return missing;
  const parsed = EditSchema.safeParse(data);
  if (!parsed.success) return refuse(400, 'send {"description": "<one paragraph>"} ("" removes it)');
  const description = normalizeDescription(parsed.data.description);
  if (description.length > MAX_DESCRIPTION_CHARS) return refuse(400, `the description has ${description.length} characters; at most ${MAX_DESCRIPTION_CHARS}`);
  const written = await writeDescription(baseDir, name, description);
  if (!written.ok) return refuse(written.error.code === 'io_error' || written.error.code === 'lock_timeout' ? 500 : 400, written.error.message);
  return { ok: true, body: { ok: true, name, description, generated: false } };
}

const DescribeRequestSchema = z.object({ profile: z.string() });

const STATUS_BY_FAILURE: Readonly<Record<DescribeFailure, number>> = {
  bad_name: 400,
  not_found: 404,
  config: 400,
  model_failed: 502,
  malformed: 502,
  io_error: 500,
};

export async function describeFromRequest(data: unknown, baseDir: string, processEnv: Env): Promise<ApiOutcome> {
  const parsed = DescribeRequestSchema.safeParse(data);
  if (!parsed.success) return refuse(400, 'send {"profile": "<name>"}');
  // Checked here, before the library is asked: a name is a path (DECISIONS: a bad name is a 400).
  const checked = checkName('profile', parsed.data.profile);
  if (!checked.ok) return refuse(400, checked.error);
  const outcome = await describeProfile(baseDir, parsed.data.profile, processEnv, 'dashboard');
  if (!outcome.ok) return refuse(STATUS_BY_FAILURE[outcome.code], outcome.message);
  // describeProfile stored the mark with it; a person's edit (PATCH /api/profiles/:name) clears it.
  return { ok: true, body: { ok: true, profile: outcome.profile, description: outcome.description, generated: true } };
}

export type DeleteFacts = { readonly exists: boolean; readonly served: string; readonly storedDefault: string };

/** Why a profile may not be deleted, as a status and a message; undefined when it may. Pure. */
export function deleteRefusal(name: string, facts: DeleteFacts): { readonly status: number; readonly error: string } | undefined {
  const checked = checkName('profile', name);
  if (!checked.ok) return { status: 400, error: checked.error };
  if (name === DEFAULT_PROFILE) return { status: 400, error: 'the default profile is the home itself and cannot be deleted' };
  if (!facts.exists) return { status: 404, error: `no profile "${name}"; see iris profile list` };
  if (name === facts.served) return { status: 409, error: `profile "${name}" is the one this dashboard serves; switch to another first` };
  if (name === facts.storedDefault) return { status: 409, error: `profile "${name}" is the default for iris commands; change it first (iris profile use default)` };
  return undefined;
}

export async function deleteFromRequest(name: string, baseDir: string, served: string): Promise<ApiOutcome> {
  const exists = checkName('profile', name).ok && profileExists(baseDir, name);
  const refusal = deleteRefusal(name, { exists, served, storedDefault: storedDefault(baseDir) });
  if (refusal) return refuse(refusal.status, refusal.error);
  const deleted = await deleteProfile(baseDir, name, [served, storedDefault(baseDir)]);
  if (!deleted.ok) return refuse(deleted.error.code === 'io_error' ? 500 : 400, deleted.error.message);
  return { ok: true, body: { ok: true, name, moved_to: deleted.movedTo } };
}

const SwitchSchema = z.object({ name: z.string() });

/** The profile to serve, checked; the route does the switch. */
export function switchTarget(data: unknown, baseDir: string): { readonly ok: true; readonly name: string } | Refused {
  const parsed = SwitchSchema.safeParse(data);
  if (!parsed.success) return refuse(400, 'send {"name": "<profile to serve>"}');
  return existingProfile(baseDir, parsed.data.name) ?? { ok: true, name: parsed.data.name };
}
