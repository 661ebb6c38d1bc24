import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { formatUsageError, routeUsageErrors } from './usage-error.js';

describe('formatUsageError', () => {
  it('keeps the suggestion and names the command whose help to read', () => {
    expect(formatUsageError("error: unknown command 'sho'\n(Did you mean show?)\n", 'iris config')).toBe(
      "iris: error: unknown command 'sho' (Did you mean show?) (see iris config --help)\n",
    );
  });
  it('is one line without a suggestion too', () => {
    expect(formatUsageError("error: missing required argument 'key'\n", 'iris config get')).toBe("iris: error: missing required argument 'key' (see iris config get --help)\n");
    expect(formatUsageError('', 'iris')).toBe('iris: error (see iris --help)\n');
  });
});

describe('routeUsageErrors', () => {
  it('gives every command, however deep, its own path', () => {
    const written: string[] = [];
    const root = new Command('iris').exitOverride();
    const model = root.command('model').exitOverride();
    model.command('aux').exitOverride().command('set').argument('<task>').exitOverride().action(() => undefined);
    routeUsageErrors(root);
    // commander writes through the configured output before throwing.
    for (const command of [root, model, ...model.commands, ...model.commands.flatMap((c) => c.commands)]) {
      command.configureOutput({ ...command.configureOutput(), writeErr: (text) => written.push(text) });
    }
    expect(() => root.parse(['model', 'aux', 'set'], { from: 'user' })).toThrow();
    expect(written).toEqual(["iris: error: missing required argument 'task' (see iris model aux set --help)\n"]);
  });
});
