// The installed skills as data: what `iris skills list` prints and the dashboard's list shows, one
// reading of `$IRIS_HOME/skills/` for both. `withUsage` joins the store's load counts (pure).
import { join } from 'node:path';
import { listSkills, SKILL_FILE } from '../agent/tools/skills/skills.js';
import type { SkillUsage } from '../store/types.js';
import { readOrigin, type SkillOrigin } from './origin.js';

export type InstalledSkill = { readonly name: string; readonly description: string; readonly path: string };
export type InvalidSkillFolder = { readonly folder: string; readonly error: string };
export type InstalledListing = { readonly skills: readonly InstalledSkill[]; readonly invalid: readonly InvalidSkillFolder[] };

export async function listInstalledSkills(skillsDir: string): Promise<InstalledListing> {
  const entries = (await listSkills(skillsDir)) ?? [];
  return {
    skills: entries.flatMap((e) => (e.ok ? [{ name: e.skill.name, description: e.skill.description, path: join(skillsDir, e.folder, SKILL_FILE) }] : [])),
    invalid: entries.flatMap((e) => (e.ok ? [] : [{ folder: e.folder, error: e.error }])),
  };
}

export type SkillWithUsage = InstalledSkill & {
  /** The install's origin, or undefined for a skill put in place by hand. */
  readonly origin: SkillOrigin | undefined;
  readonly loads: number;
  /** Epoch milliseconds; null when never loaded (in the kept history). */
  readonly lastLoadAt: number | null;
};

/** Each skill with its loads from `usage` (the store's rows); a skill missing there has none. */
export function withUsage(
  skills: readonly InstalledSkill[],
  origins: ReadonlyMap<string, SkillOrigin>,
  usage: readonly SkillUsage[],
): SkillWithUsage[] {
  const byName = new Map(usage.map((row) => [row.skill, row]));
  return skills.map((skill) => ({
    ...skill,
    origin: origins.get(skill.name),
    loads: byName.get(skill.name)?.loads ?? 0,
    lastLoadAt: byName.get(skill.name)?.lastLoadAt ?? null,
  }));
}

/** The origins of the skills that have one. */
export async function readOrigins(skillsDir: string, skills: readonly InstalledSkill[]): Promise<Map<string, SkillOrigin>> {
  const found = await Promise.all(skills.map(async (skill) => [skill.name, await readOrigin(skillsDir, skill.name)] as const));
  return new Map(found.flatMap(([name, origin]) => (origin ? [[name, origin] as const] : [])));
}
