// Installing a skill: its SKILL.md (from a hub entry, a URL or a path) must be a valid skill file
// whose name is the one asked for; it is written byte for byte, private to the user, replacing an
// installed one only when told to.
import { lstat, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../config/atomic-write.js';
import { parseSkillFile, skillFileName, type Skill } from '../agent/tools/skills/skill-file.js';
import { checkName, pathForName } from '../security/names.js';
import { SKILL_FILE } from '../agent/tools/skills/skills.js';
import { isHttpUrl } from '../agent/tools/vision/download.js';
import { utf8Text } from './source.js';

/** A bare skill name is looked up in the hubs; anything that looks like a URL or a path is read. */
export function isSkillLocation(arg: string): boolean {
  return isHttpUrl(arg) || arg.includes('/') || arg.includes('\\') || arg.toLowerCase().endsWith('.md');
}

export type CheckedSkill = { readonly ok: true; readonly skill: Skill } | { readonly ok: false; readonly error: string };

/** The downloaded bytes as a skill, checked; `expected` is the name a hub listed it under. */
export function checkSkillBytes(bytes: Buffer, expected?: string): CheckedSkill {
  const text = utf8Text(bytes);
  if (text === undefined) return { ok: false, error: 'SKILL.md is not UTF-8 text' };
  const named = skillFileName(text);
  if (!named.ok) return named;
  const checked = checkName('skill', named.name);
  if (!checked.ok) return { ok: false, error: `SKILL.md front matter: ${checked.error}` };
  if (expected !== undefined && named.name !== expected) {
    return { ok: false, error: `SKILL.md names the skill "${named.name}", not "${expected}"` };
  }
  return parseSkillFile(named.name, text);
}

export type WriteSkill = { readonly ok: true; readonly path: string; readonly replaced: boolean } | { readonly ok: false; readonly code: 'exists'; readonly path: string };

const exists = (path: string) => lstat(path).then(() => true, (err: NodeJS.ErrnoException) => {
  if (err.code === 'ENOENT') return false;
  throw err;
});

export async function writeSkill(skillsDir: string, name: string, bytes: Buffer, force: boolean): Promise<WriteSkill> {
  const folder = pathForName(skillsDir, 'skill', name);
  const path = join(folder, SKILL_FILE);
  const replaced = await exists(path);
  if (replaced && !force) return { ok: false, code: 'exists', path };
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await writeFileAtomic(path, bytes, 0o600);
  return { ok: true, path, replaced };
}

/** Removes an installed skill's folder; false when there is none. */
export async function removeSkill(skillsDir: string, name: string): Promise<boolean> {
  const folder = pathForName(skillsDir, 'skill', name);
  if (!(await exists(folder))) return false;
  await rm(folder, { recursive: true, force: true });
  return true;
}
