// The Profiles card's API: the list of profiles with their descriptions, and Auto-generate
// (POST /api/profile/describe {"profile": "<name>"}), which runs `iris profile describe --auto`.
import * as z from 'zod/mini';
import type { Env } from '../config/home.js';
import { describeProfile, type DescribeFailure } from '../profiles/describe.js';
import { listProfileNames, storedDescription } from '../profiles/manage.js';
import { checkName } from '../security/names.js';

export type ProfilesAnswer = { readonly profiles: ReadonlyArray<{ name: string; active: boolean; description: string }> };

export async function profilesJson(baseDir: string, active: string): Promise<ProfilesAnswer> {
  const names = await listProfileNames(baseDir);
  return { profiles: await Promise.all(names.map(async (name) => ({ name, active: name === active, description: await storedDescription(baseDir, name) }))) };
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

export type ApiOutcome = { readonly ok: true; readonly body: unknown } | { readonly ok: false; readonly status: number; readonly error: string };

export async function describeFromRequest(data: unknown, baseDir: string, processEnv: Env): Promise<ApiOutcome> {
  const parsed = DescribeRequestSchema.safeParse(data);
  if (!parsed.success) return { ok: false, status: 422, error: 'send {"profile": "<name>"}' };
  // Checked here, before the library is asked: a name is a path (DECISIONS: a bad name is a 400).
  const checked = checkName('profile', parsed.data.profile);
  if (!checked.ok) return { ok: false, status: 400, error: checked.error };
  const outcome = await describeProfile(baseDir, parsed.data.profile, processEnv);
  if (!outcome.ok) return { ok: false, status: STATUS_BY_FAILURE[outcome.code], error: outcome.message };
  return { ok: true, body: { ok: true, profile: outcome.profile, description: outcome.description } };
}
