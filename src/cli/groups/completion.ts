// `iris completion`: the declaration only; the code loads when it runs.
import { Argument, type Command } from 'commander';

export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script: commands, flags, config keys, providers, slots, routes and platforms')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish']))
    .action(async (shell: 'bash' | 'zsh' | 'fish') => {
      const { completion } = await import('../commands/completion.js');
      completion(shell);
    });
}
