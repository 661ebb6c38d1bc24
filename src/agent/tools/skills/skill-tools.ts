// list_skills and load_skill: the model sees what skills exist (name and description), and
// loads one's instructions when it needs them.
import { join } from 'node:path';
import * as z from 'zod/mini';
import { defineTool } from '../define-tool.js';
import type { ToolResult } from '../types.js';
import { checkName } from '../../../security/names.js';
import { listSkills, readSkill, SKILL_FILE, skillsDir } from './skills.js';

export const listSkillsTool = defineTool({
  name: 'list_skills',
  description: 'List the installed skills (name and description). Load one with load_skill before following it.',
  args: z.strictObject({}),
  readOnly: true,
  async run(_args, context): Promise<ToolResult> {
    const dir = skillsDir(context.home);
    const entries = await listSkills(dir);
    if (!entries || entries.length === 0) {
      return { ok: true, content: `no skills installed (a skill is a folder with a ${SKILL_FILE} under ${dir})` };
    }
    const valid = entries.flatMap((e) => (e.ok ? [`- ${e.skill.name}: ${e.skill.description}`] : []));
    const invalid = entries.flatMap((e) => (e.ok ? [] : [`- ${e.folder}: ${e.error}`]));
    const parts: string[] = [];
    parts.push(valid.length > 0 ? `skills (load one with load_skill):\n${valid.join('\n')}` : 'no valid skills');
    if (invalid.length > 0) parts.push(`invalid skill folders (cannot be loaded):\n${invalid.join('\n')}`);
    return { ok: true, content: parts.join('\n\n') };
  },
});

export const loadSkillTool = defineTool({
  name: 'load_skill',
  description: 'Load a skill by name: returns its instructions (the body of its SKILL.md) and its folder.',
  args: z.strictObject({
    // No pattern in the schema: providers refuse the rule's lookahead; run() answers with the rule.
    name: z.string().check(z.describe('The skill name, as list_skills shows it.')),
  }),
  readOnly: true,
  async run({ name }, context): Promise<ToolResult> {
    const checked = checkName('skill', name);
    if (!checked.ok) return { ok: false, content: checked.error };
    const dir = skillsDir(context.home);
    const entry = await readSkill(dir, name);
    if (!entry.ok) {
      return { ok: false, content: entry.missing ? `no skill named "${name}" (list_skills shows the installed ones)` : `skill "${name}" is invalid: ${entry.error}` };
    }
    await context.recordSkillLoad?.(name);
    const body = entry.skill.body === '' ? '(the skill has no instructions)' : entry.skill.body;
    return { ok: true, content: `skill "${name}" (folder: ${join(dir, name)})\n\n${body}` };
  },
});
