// `iris config show|get|set|schema`: the declarations only; a command's code loads when it runs.
import { Option, type Command } from 'commander';

export function registerConfig(program: Command): void {
  const config = program
    .command('config')
    .description('show and change config.yaml and the secrets in .env')
    .exitOverride();
  config
    .command('show')
    .description('print the effective config (defaults filled in, secrets masked)')
    .option('--changed', 'only what differs from the defaults')
    .option('--json', 'print as JSON')
    .action(async (options: { json?: boolean; changed?: boolean }) => {
      const { configShow } = await import('../commands/config.js');
      await configShow(options);
    });
  config
    .command('get')
    .description('print one value: a dotted config key, or an environment variable name (masked)')
    .argument('<key>', 'dotted key such as model.provider, or a name such as OPENROUTER_API_KEY')
    .option('--json', 'print as JSON')
    .action(async (key: string, options: { json?: boolean }) => {
      const { configGet } = await import('../commands/config.js');
      await configGet(key, options);
    });
  config
    .command('set')
    .description('set one scalar; keys naming secrets (*_API_KEY, *_TOKEN, *_SECRET) go to .env')
    .argument('<key>', 'dotted key such as model.provider, or a name such as OPENROUTER_API_KEY')
    .argument('<value>', 'true/false/yes/no/on/off become booleans, numbers become numbers')
    .addOption(new Option('--string', 'store the value as a string, without coercion'))
    .option('--force', 'write a key this version does not know, or a provider it does not know (extension keys)')
    .option('--json', 'print the result as JSON')
    .action(async (key: string, value: string, options: { json?: boolean; string?: boolean; force?: boolean }) => {
      const { configSet } = await import('../commands/config.js');
      await configSet(key, value, options);
    });
  config
    .command('schema')
    .description('print the JSON Schema of config.yaml, for editor completion and checks')
    // Always JSON; the flag is accepted so that `--json` works on every data command.
    .option('--json', 'print as JSON (the schema is JSON either way)')
    .action(async () => {
      const { configSchemaPrint } = await import('../commands/config.js');
      await configSchemaPrint();
    });

}
