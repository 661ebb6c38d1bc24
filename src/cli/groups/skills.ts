// `iris skills search|install|list|show|remove`: the declarations only; a command's code loads when it runs.
import type { Command } from 'commander';
import type { SetExitCode } from '../command-group.js';

export function registerSkills(program: Command, setExit: SetExitCode): void {
  const skills = program.command('skills').description('skills: search the hubs of skills.hubs, install, list, show and remove').exitOverride();
  skills
    .command('search')
    .description('search the skills hubs; the skills_hub slot ranks the matches and says why')
    .argument('<query...>', 'what the skill should do')
    .option('--json', 'print as JSON')
    .action(async (query: string[], options: { json?: boolean }) => {
      const { skillsSearch } = await import('../commands/skills.js');
      setExit(await skillsSearch(query.join(' '), options));
    });
  skills
    .command('install')
    .description('install a skill by its hub name, or from the URL or path of its SKILL.md')
    .argument('<name-or-url>', 'a name from the hubs, an http(s) URL or a path')
    .option('--force', 'replace an installed skill of the same name')
    .option('--json', 'print the result as JSON')
    .action(async (target: string, options: { json?: boolean; force?: boolean }) => {
      const { skillsInstall } = await import('../commands/skills.js');
      await skillsInstall(target, options);
    });
  skills
    .command('list')
    .description('the installed skills (and the folders that are not valid skills)')
    .option('--json', 'print as JSON')
    .action(async (options: { json?: boolean }) => {
      const { skillsList } = await import('../commands/skills.js');
      await skillsList(options);
    });
  skills
    .command('show')
    .description("an installed skill's name, description, folder and instructions")
    .argument('<name>', 'the skill')
    .option('--json', 'print as JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      const { skillsShow } = await import('../commands/skills.js');
      await skillsShow(name, options);
    });
  skills
    .command('remove')
    .description("remove an installed skill's folder (no question asked)")
    .argument('<name>', 'the skill')
    .option('--json', 'print the result as JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      const { skillsRemove } = await import('../commands/skills.js');
      await skillsRemove(name, options);
    });
}
