// `iris model [set|aux set|aux reset]` (plain `iris model` is the picker): the declarations only; a command's code loads when it runs.
import type { Command } from 'commander';
import type { SetExitCode } from '../command-group.js';

export function registerModel(program: Command, setExit: SetExitCode): void {
  const model = program
    .command('model')
    .description('assign models: plain `iris model` is the interactive picker; set / aux set / aux reset for scripts')
    .addHelpText(
      'after',
      '\nPlain `iris model` (on a terminal) walks through provider, authentication and model.\n' +
        'Changes apply to new sessions.',
    )
    .action(async () => {
      const { modelPicker } = await import('../commands/setup.js');
      setExit(await modelPicker());
    })
    .exitOverride();
  model
    .command('set')
    .description('set the main model (model.provider and model.default)')
    .argument('<provider>', 'a provider id: openrouter, openai, anthropic, cloud-hosted, custom')
    .argument('<model>', 'a model id (for cloud-hosted: the deployment name)')
    .option('--base-url <url>', 'the endpoint (model.base_url), e.g. for custom: http://localhost:8000/v1')
    .option('--key-env <name>', 'the variable that holds the key (model.key_env)')
    .option('--json', 'print the change as JSON')
    .action(async (provider: string, modelId: string, options: { json?: boolean; baseUrl?: string; keyEnv?: string }) => {
      const { modelSet } = await import('../commands/model.js');
      await modelSet(provider, modelId, options);
    });
  const aux = model
    .command('aux')
    .description('assign the auxiliary slots (vision, compression, title_generation, …)')
    .exitOverride();
  aux
    .command('set')
    .description('point one auxiliary slot, or all 11, at a provider and model')
    .argument('<task>', 'a task id such as vision or title_generation, or all')
    .argument('<provider>', 'a provider id, or auto (the main model\'s provider)')
    .argument('<model>', "a model id; '' for the provider's default model")
    .option('--base-url <url>', "the slot's own endpoint (auxiliary.<task>.base_url), e.g. for custom")
    .option('--key-env <name>', "the variable that holds the slot's key (auxiliary.<task>.key_env)")
    .option('--json', 'print the change as JSON')
    .action(async (task: string, provider: string, modelId: string, options: { json?: boolean; baseUrl?: string; keyEnv?: string }) => {
      const { modelAuxSet } = await import('../commands/model.js');
      await modelAuxSet(task, provider, modelId, options);
    });
  aux
    .command('reset')
    .description('put all 11 auxiliary slots back on auto (timeouts and other settings are kept)')
    .option('--json', 'print the change as JSON')
    .action(async (options: { json?: boolean }) => {
      const { modelAuxReset } = await import('../commands/model.js');
      await modelAuxReset(options);
    });
}
