// `iris kanban add|list|show|move|specify|decompose`: the declarations only; the code loads when a command runs.
import type { Command } from 'commander';
import type { SetExitCode } from '../command-group.js';

export function registerKanban(program: Command, setExit: SetExitCode): void {
  const kanban = program.command('kanban').description('the task board: triage one-liners, specify and decompose them with their slots').exitOverride();
  kanban
    .command('add')
    .description('add a one-line task to triage')
    .argument('<title>', 'the one-liner')
    .option('--json', 'print the task as JSON')
    .action(async (title: string, options: { json?: boolean }) => {
      const { kanbanAdd } = await import('../commands/kanban.js');
      await kanbanAdd(title, options);
    });
  kanban
    .command('list')
    .description('the tasks, oldest first')
    .option('--status <status>', 'only this status: triage, todo, doing, done or blocked')
    .option('--json', 'print as JSON')
    .action(async (options: { status?: string; json?: boolean }) => {
      const { kanbanList } = await import('../commands/kanban.js');
      await kanbanList(options);
    });
  kanban
    .command('show')
    .description('one task with its body')
    .argument('<id>', 'the task id')
    .option('--json', 'print as JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      const { kanbanShow } = await import('../commands/kanban.js');
      await kanbanShow(id, options);
    });
  kanban
    .command('move')
    .description('set a task status: triage, todo, doing, done or blocked')
    .argument('<id>', 'the task id')
    .argument('<status>', 'the new status')
    .option('--json', 'print the task as JSON')
    .action(async (id: string, status: string, options: { json?: boolean }) => {
      const { kanbanMove } = await import('../commands/kanban.js');
      await kanbanMove(id, status, options);
    });
  kanban
    .command('specify')
    .description('the triage_specifier slot expands the one-liner into a spec (goal, context, acceptance criteria); the task moves to todo')
    .argument('<id>', 'the task id')
    .option('--json', 'print the task as JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      const { kanbanSpecify } = await import('../commands/kanban.js');
      setExit(await kanbanSpecify(id, options));
    });
  kanban
    .command('decompose')
    .description('the kanban_decomposer slot splits a task into 2 to 8 child tasks, created in todo')
    .argument('<id>', 'the task id')
    .option('--json', 'print the parent and its new children as JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      const { kanbanDecompose } = await import('../commands/kanban.js');
      setExit(await kanbanDecompose(id, options));
    });
}
