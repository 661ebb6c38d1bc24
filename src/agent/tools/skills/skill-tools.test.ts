import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeContext, makeTempDirs, type TempDirs } from '../test-support.js';
import { listSkillsTool, loadSkillTool } from './skill-tools.js';
import { readSkill } from './skills.js';

let dirs: TempDirs;
let skills: string;
beforeEach(async () => {
  dirs = await makeTempDirs();
  skills = join(dirs.home, 'skills');
});
afterEach(() => dirs.cleanup());

async function addSkill(folder: string, text?: string): Promise<void> {
  await mkdir(join(skills, folder), { recursive: true });
  if (text !== undefined) await writeFile(join(skills, folder, 'SKILL.md'), text);
}

const RULE = 'must match ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64) and cannot contain ".."';

const skill = (name: string, description: string, body = 'Steps.') => `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

describe('list_skills', () => {
  it('says when no skills are installed', async () => {
    const expected = { ok: true, content: `no skills installed (a skill is a folder with a SKILL.md under ${skills})` };
    expect(await listSkillsTool.run({}, makeContext(dirs))).toEqual(expected);
    await mkdir(skills);
    expect(await listSkillsTool.run({}, makeContext(dirs))).toEqual(expected);
  });

  it('lists valid skills and says which folders are invalid and why', async () => {
    await addSkill('review', skill('review', 'Reviews a pull request.'));
    await addSkill('deploy', skill('deploy', 'Deploys to staging.'));
    await addSkill('no-file');
    await addSkill('no-front', '# Title only\n');
    await addSkill('bad name', skill('bad name', 'x'));
    await addSkill('Deploy', skill('Deploy', 'Uppercase: the folder is the name, so it keeps the name rule.'));
    await addSkill('.git');
    await writeFile(join(skills, 'README.md'), 'not a skill');
    expect(await listSkillsTool.run({}, makeContext(dirs))).toEqual({
      ok: true,
      content: [
        'skills (load one with load_skill):',
        '- deploy: Deploys to staging.',
        '- review: Reviews a pull request.',
        '',
        'invalid skill folders (cannot be loaded):',
        `- Deploy: skill name "Deploy" ${RULE}`,
        `- bad name: skill name "bad name" ${RULE}`,
        '- no-file: SKILL.md is missing',
        '- no-front: SKILL.md has no front matter (it must start with a --- line)',
      ].join('\n'),
    });
  });

  it('follows a symlinked skill folder and a symlinked SKILL.md', async () => {
    const dotfiles = join(dirs.base, 'dotfiles');
    await mkdir(join(dotfiles, 'linked'), { recursive: true });
    await writeFile(join(dotfiles, 'linked', 'SKILL.md'), skill('linked', 'A linked folder.'));
    await writeFile(join(dotfiles, 'file.md'), skill('file-linked', 'A linked file.'));
    await mkdir(skills);
    await symlink(join(dotfiles, 'linked'), join(skills, 'linked'));
    await addSkill('file-linked');
    await symlink(join(dotfiles, 'file.md'), join(skills, 'file-linked', 'SKILL.md'));
    expect(await listSkillsTool.run({}, makeContext(dirs))).toEqual({
      ok: true,
      content: 'skills (load one with load_skill):\n- file-linked: A linked file.\n- linked: A linked folder.',
    });
  });
});

describe('load_skill', () => {
  it('returns the body and the folder', async () => {
    await addSkill('deploy', skill('deploy', 'Deploys.', '# Deploy\n\n1. Build.\n2. Ship.'));
    expect(await loadSkillTool.run({ name: 'deploy' }, makeContext(dirs))).toEqual({
      ok: true,
      content: `skill "deploy" (folder: ${join(skills, 'deploy')})\n\n# Deploy\n\n1. Build.\n2. Ship.`,
    });
  });

  it('explains a missing or invalid skill', async () => {
    await addSkill('broken', '---\nname: broken\n---\n');
    expect(await loadSkillTool.run({ name: 'nope' }, makeContext(dirs))).toEqual({
      ok: false,
      content: 'no skill named "nope" (list_skills shows the installed ones)',
    });
    expect(await loadSkillTool.run({ name: 'broken' }, makeContext(dirs))).toEqual({
      ok: false,
      content: 'skill "broken" is invalid: SKILL.md front matter has no description',
    });
  });

  it('answers a tool error naming the rule for names that are not skill names, such as paths', async () => {
    // A valid skill beside the skills folder: only a name that climbs out could reach it.
    await mkdir(join(dirs.home, 'outside'), { recursive: true });
    await writeFile(join(dirs.home, 'outside', 'SKILL.md'), skill('outside', 'Not in the skills folder.'));
    await addSkill('deploy', skill('deploy', 'Deploys.'));
    for (const name of ['../outside', '../../etc', '/etc', 'deploy/../deploy', '.hidden', 'Deploy', '']) {
      expect(await loadSkillTool.run({ name }, makeContext(dirs))).toEqual({ ok: false, content: `skill name ${JSON.stringify(name)} ${RULE}` });
    }
  });

  it('readSkill refuses a bad folder name itself, before any path is built', async () => {
    await mkdir(join(dirs.home, 'outside'), { recursive: true });
    await writeFile(join(dirs.home, 'outside', 'SKILL.md'), skill('outside', 'Not in the skills folder.'));
    expect(await readSkill(skills, '../outside')).toEqual({ ok: false, folder: '../outside', missing: false, error: `skill name "../outside" ${RULE}` });
  });

  it('records each successful load, and only those, through the session', async () => {
    await addSkill('deploy', skill('deploy', 'Deploys.'));
    const loads: string[] = [];
    const context = { ...makeContext(dirs), recordSkillLoad: async (name: string) => void loads.push(name) };
    await loadSkillTool.run({ name: 'deploy' }, context);
    await loadSkillTool.run({ name: 'nope' }, context);
    await loadSkillTool.run({ name: 'deploy' }, context);
    expect(loads).toEqual(['deploy', 'deploy']);
  });

  it('is read-only', () => {
    expect(loadSkillTool.readOnly).toBe(true);
    expect(listSkillsTool.readOnly).toBe(true);
  });
});
