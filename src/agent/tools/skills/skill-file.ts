// What a SKILL.md says: YAML front matter with `name` and `description`, then the body the model
// loads. Pure, so every way a skill can be broken is tested without a folder.
import { parse } from 'yaml';
import { errorMessage } from '../../../domain/error-message.js';
import { checkName } from '../../../security/names.js';

export type Skill = {
  readonly name: string;
  readonly description: string;
  readonly body: string;
};

export type SkillParse = { readonly ok: true; readonly skill: Skill } | { readonly ok: false; readonly error: string };

/** The name a SKILL.md gives itself in its front matter (an installer learns the folder from it). */
export function skillFileName(text: string): { readonly ok: true; readonly name: string } | { readonly ok: false; readonly error: string } {
  const meta = readFrontMatter(text);
  if (!meta.ok) return meta;
  const { name } = meta.meta;
  if (typeof name !== 'string' || name.trim() === '') return { ok: false, error: 'SKILL.md front matter has no name' };
  return { ok: true, name: name.trim() };
}

type FrontMatter = { readonly ok: true; readonly meta: Record<string, unknown>; readonly bodyLines: readonly string[] } | { readonly ok: false; readonly error: string };

function readFrontMatter(text: string): FrontMatter {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trimEnd() !== '---') {
    return { ok: false, error: 'SKILL.md has no front matter (it must start with a --- line)' };
  }
  const end = lines.findIndex((line, i) => i > 0 && line.trimEnd() === '---');
  if (end === -1) return { ok: false, error: 'SKILL.md front matter is not closed by a --- line' };

  let meta: unknown;
  try {
    meta = parse(lines.slice(1, end).join('\n'));
  } catch (err) {
    const first = (errorMessage(err).split('\n')[0] ?? '').trim();
    return { ok: false, error: `SKILL.md front matter is not valid YAML: ${first}` };
  }
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) {
    return { ok: false, error: 'SKILL.md front matter must be a mapping with name and description' };
  }
  return { ok: true, meta: meta as Record<string, unknown>, bodyLines: lines.slice(end + 1) };
}

export function parseSkillFile(folderName: string, text: string): SkillParse {
  // A skill's name is its folder's name, so it keeps the name rule of src/security/names.ts.
  const checked = checkName('skill', folderName);
  if (!checked.ok) return { ok: false, error: checked.error };
  const front = readFrontMatter(text);
  if (!front.ok) return front;
  const { name, description } = front.meta;
  if (typeof name !== 'string' || name.trim() === '') return { ok: false, error: 'SKILL.md front matter has no name' };
  if (name.trim() !== folderName) {
    return { ok: false, error: `SKILL.md names the skill "${name.trim()}" but its folder is "${folderName}"` };
  }
  if (typeof description !== 'string' || description.trim() === '') {
    return { ok: false, error: 'SKILL.md front matter has no description' };
  }
  const body = front.bodyLines.join('\n').trim();
  return { ok: true, skill: { name: folderName, description: description.trim().replace(/\s+/g, ' '), body } };
}
