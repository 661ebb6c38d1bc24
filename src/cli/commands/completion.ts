// `iris completion bash|zsh|fish`: a completion script for the shell, built from every group's
// declarations (commands, flags, choices) and the fixed word lists (config keys, providers,
// slots, platforms); routes are asked of `iris webhook list` when completed.
import { Command } from 'commander';
import { writeStdout } from '../console.js';
import { GROUPS } from '../groups/all.js';
import { bashScript, zshScript } from '../completion/bash.js';
import { fishScript } from '../completion/fish.js';
import { completionTree } from '../completion/tree.js';
import { fixedWords } from '../completion/words.js';

const SCRIPTS = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;

/** The whole command tree, declared as `iris --help` declares it (no command runs). */
function declaredProgram(): Command {
  const program = new Command('iris').option('-p, --profile <name>', 'the profile').option('-V, --version', 'the version');
  for (const [, register] of GROUPS) register(program, () => undefined);
  return program;
}

export function completion(shell: keyof typeof SCRIPTS): void {
  writeStdout(SCRIPTS[shell](completionTree(declaredProgram()), fixedWords()));
}
