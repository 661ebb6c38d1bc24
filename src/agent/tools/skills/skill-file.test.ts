import { describe, expect, it } from 'vitest';
import { parseSkillFile } from './skill-file.js';

const file = (front: string, body = '\n# Deploy\n\nRun the deploy script.\n') => `---\n${front}\n---\n${body}`;

describe('parseSkillFile', () => {
  it('reads name, description and body', () => {
    expect(parseSkillFile('deploy', file('name: deploy\ndescription: Deploys the app to staging.'))).toEqual({
      ok: true,
      skill: { name: 'deploy', description: 'Deploys the app to staging.', body: '# Deploy\n\nRun the deploy script.' },
    });
  });

  it('accepts CRLF line ends, a BOM, folded descriptions and extra keys', () => {
    const text = '\uFEFF---\r\nname: my_skill-2\r\ndescription: >\r\n  Spans\r\n  two lines.\r\nversion: 3\r\n---\r\nBody\r\n';
    expect(parseSkillFile('my_skill-2', text)).toEqual({
      ok: true,
      skill: { name: 'my_skill-2', description: 'Spans two lines.', body: 'Body' },
    });
  });

  it('allows an empty body', () => {
    expect(parseSkillFile('x', '---\nname: x\ndescription: d\n---\n')).toEqual({ ok: true, skill: { name: 'x', description: 'd', body: '' } });
  });

  it.each([
    ['no front matter', '# Just markdown\n', 'SKILL.md has no front matter (it must start with a --- line)'],
    ['an empty file', '', 'SKILL.md has no front matter (it must start with a --- line)'],
    ['unclosed front matter', '---\nname: deploy\n', 'SKILL.md front matter is not closed by a --- line'],
    ['a list as front matter', file('- a\n- b'), 'SKILL.md front matter must be a mapping with name and description'],
    ['empty front matter', '---\n---\nbody', 'SKILL.md front matter must be a mapping with name and description'],
    ['no name', file('description: d'), 'SKILL.md front matter has no name'],
    ['a numeric name', file('name: 5\ndescription: d'), 'SKILL.md front matter has no name'],
    ['no description', file('name: deploy'), 'SKILL.md front matter has no description'],
    ['a blank description', file('name: deploy\ndescription: "  "'), 'SKILL.md front matter has no description'],
    ['another name', file('name: release\ndescription: d'), 'SKILL.md names the skill "release" but its folder is "deploy"'],
  ])('rejects %s', (_what, text, error) => {
    expect(parseSkillFile('deploy', text)).toEqual({ ok: false, error });
  });

  it('rejects invalid YAML with the parser\'s first line', () => {
    const result = parseSkillFile('deploy', file('name: [unclosed\ndescription: d'));
    expect(result.ok).toBe(false);
    expect(result).toHaveProperty('error', expect.stringMatching(/^SKILL\.md front matter is not valid YAML: \S/));
  });

  it('rejects a folder whose name breaks the name rule (uppercase included: the folder is the name)', () => {
    for (const folder of ['my skill', 'Deploy', '_deploy', '..']) {
      expect(parseSkillFile(folder, file(`name: ${folder}\ndescription: d`))).toEqual({
        ok: false,
        error: `skill name ${JSON.stringify(folder)} must match ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64) and cannot contain ".."`,
      });
    }
  });
});
