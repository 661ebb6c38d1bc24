// The fish completion script (`iris completion fish > ~/.config/fish/completions/iris.fish`):
// one `complete` line per subcommand, flag and value source, each guarded by the command path the
// line so far names (__iris_path).
import type { CompletionNode, ValueSource } from './tree.js';
import { ROUTES_COMMAND } from './words.js';

const quoted = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function wordsOf(value: ValueSource, fixed: Readonly<Record<string, readonly string[]>>): string {
  if ('words' in value) return quoted(value.words.join(' '));
  if (value.source === 'routes') return quoted(`(${ROUTES_COMMAND})`);
  return quoted((fixed[value.source] ?? []).join(' '));
}

export function fishScript(nodes: readonly CompletionNode[], fixed: Readonly<Record<string, readonly string[]>>): string {
  const lines: string[] = [];
  for (const node of nodes) {
    const at = `-n ${quoted(`__iris_path_is ${quoted(node.path)}`)}`;
    if (node.subcommands.length) lines.push(`complete -c iris -f ${at} -a ${quoted(node.subcommands.join(' '))}`);
    for (const flag of node.flags) {
      const spec = flag.startsWith('--') ? `-l ${flag.slice(2)}` : `-s ${flag.slice(1)}`;
      const value = node.values[flag];
      lines.push(`complete -c iris ${at} ${spec}${node.valued.includes(flag) ? ' -r' : ''}${value ? ` -f -a ${wordsOf(value, fixed)}` : ''}`);
    }
    for (const [key, value] of Object.entries(node.values)) {
      if (key.startsWith('#')) lines.push(`complete -c iris -f ${at} -a ${wordsOf(value, fixed)}`);
    }
  }
  return `# iris completion for fish: iris completion fish > ~/.config/fish/completions/iris.fish
complete -c iris -e
function __iris_path_is
  set -l path iris
  set -l tokens (commandline -opc)
  set -e tokens[1]
  set -l skip 0
  for token in $tokens
    if test $skip = 1
      set skip 0
      continue
    end
    switch $token
      case -p --profile
        set skip 1
        continue
      case '-*'
        continue
    end
    if contains -- "$path $token" $__iris_paths
      set path "$path $token"
    end
  end
  test "$path" = "$argv[1]"
end
set -g __iris_paths ${nodes.map((node) => quoted(node.path)).join(' ')}
${lines.join('\n')}
`;
}
