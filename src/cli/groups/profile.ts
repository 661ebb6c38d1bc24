// `iris profile list|create|show|delete|use|describe`: the declarations only; a command's code loads when it runs.
import type { Command } from 'commander';

export function registerProfile(program: Command): void {
  const profile = program
    .command('profile')
    .description('separate homes for separate jobs: list, create, show, delete, use and describe profiles')
    .exitOverride();
  profile
    .command('list')
    .description('the profiles, the active one marked, with their descriptions')
    .option('--json', 'print as JSON')
    .action(async (options: { json?: boolean }) => {
      const { profileList } = await import('../commands/profile.js');
      await profileList(options);
    });
  profile
    .command('create')
    .description('create an empty profile (a new home under $IRIS_HOME/profiles/)')
    .argument('<name>', 'lowercase letters, digits, ., _ and -, starting with a letter or digit (at most 64)')
    .option('--clone [from]', "copy config.yaml and .env of a profile (default: the active one); not its state or logs")
    .option('--json', 'print the result as JSON')
    .action(async (name: string, options: { clone?: string | boolean; json?: boolean }) => {
      const { profileCreate } = await import('../commands/profile.js');
      await profileCreate(name, options);
    });
  profile
    .command('show')
    .description("a profile's home, whether it is active, and its description")
    .argument('[name]', 'the profile (default: the active one)')
    .option('--json', 'print as JSON')
    .action(async (name: string | undefined, options: { json?: boolean }) => {
      const { profileShow } = await import('../commands/profile.js');
      await profileShow(name, options);
    });
  profile
    .command('delete')
    .description('move a profile to $IRIS_HOME/profiles/.trash/ (never the default or the active one)')
    .argument('<name>', 'the profile')
    .option('--json', 'print the result as JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      const { profileDelete } = await import('../commands/profile.js');
      await profileDelete(name, options);
    });
  profile
    .command('use')
    .description('make a profile the default for later commands (-p and IRIS_PROFILE still win)')
    .argument('<name>', 'the profile; default goes back to the home itself')
    .option('--json', 'print the result as JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      const { profileUse } = await import('../commands/profile.js');
      await profileUse(name, options);
    });
  profile
    .command('describe')
    .description("print a profile's description; with --auto, have the profile_describer slot write it")
    .argument('[name]', 'the profile (default: the active one)')
    .option('--auto', "write it from the profile's config, skills and recent session titles, and store it")
    .option('--json', 'print as JSON')
    .action(async (name: string | undefined, options: { auto?: boolean; json?: boolean }) => {
      const { profileDescribe } = await import('../commands/profile.js');
      await profileDescribe(name, options);
    });
}
