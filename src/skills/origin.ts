// Where an installed skill came from: `install` writes `<skill>/.origin.json` beside its SKILL.md
// (the hub that listed it, or the URL or path it was read from), so the list can say so later.
// A skill put in place by hand has none; its origin is unknown, not an error.
import { join } from 'node:path';
import * as z from 'zod/mini';
import { writeFileAtomic } from '../config/atomic-write.js';
import { parseJsonAs, readTextIfPresent } from '../config/read-optional.js';
import { pathForName } from '../security/names.js';

export const ORIGIN_FILE = '.origin.json';

export type SkillOrigin = {
  /** The hub that listed it, or the URL or path it was installed from. */
  readonly source: string;
  /** What was read: the SKILL.md's URL or path. */
  readonly from: string;
  /** Epoch milliseconds. */
  readonly installedAt: number;
};

const originSchema = z.object({ source: z.string(), from: z.string(), installed_at: z.int() });

export async function writeOrigin(skillsDir: string, name: string, origin: SkillOrigin): Promise<void> {
  const text = `${JSON.stringify({ source: origin.source, from: origin.from, installed_at: origin.installedAt })}\n`;
  await writeFileAtomic(join(pathForName(skillsDir, 'skill', name), ORIGIN_FILE), text, 0o600);
}

/** The origin, or undefined for a skill without one (or with one that is not ours to read). */
export async function readOrigin(skillsDir: string, name: string): Promise<SkillOrigin | undefined> {
  const text = await readTextIfPresent(join(pathForName(skillsDir, 'skill', name), ORIGIN_FILE)).catch(() => undefined);
  const parsed = parseJsonAs(originSchema, text);
  return parsed ? { source: parsed.source, from: parsed.from, installedAt: parsed.installed_at } : undefined;
}
