// The bash completion script (`source <(iris completion bash)`), and zsh's, which is the same
// script under bashcompinit. The tables are bash associative arrays keyed by command path.
import type { CompletionNode, ValueSource } from './tree.js';
import { ROUTES_COMMAND } from './words.js';

/** A word list as one single-quoted bash word. */
const quoted = (words: readonly string[]) => `'${words.join(' ').replace(/'/g, `'\\''`)}'`;

function valueWords(value: ValueSource): string {
  return 'source' in value ? `@${value.source}` : value.words.join(' ');
}

export function bashScript(nodes: readonly CompletionNode[], fixed: Readonly<Record<string, readonly string[]>>): string {
  const table = (name: string, pick: (node: CompletionNode) => readonly string[]) =>
    [`declare -gA ${name}=(`, ...nodes.map((node) => `  [${quoted([node.path])}]=${quoted(pick(node))}`), ')'].join('\n');
  const values = [
    'declare -gA _iris_values=(',
    ...nodes.flatMap((node) => Object.entries(node.values).map(([at, value]) => `  [${quoted([`${node.path}|${at}`])}]=${quoted([valueWords(value)])}`)),
    ')',
  ].join('\n');
  const sources = Object.entries(fixed).map(([name, words]) => `    ${name}) printf '%s\\n' ${quoted(words)} ;;`);
  return `# iris completion for bash: source <(iris completion bash), or save it in
# ~/.local/share/bash-completion/completions/iris
${table('_iris_subcommands', (node) => node.subcommands)}
${table('_iris_flags', (node) => node.flags)}
${table('_iris_valued', (node) => node.valued)}
${values}

_iris_words() {
  local word
  for word in $1; do
    case "$word" in
      @routes) ${ROUTES_COMMAND} ;;
      @*) _iris_source "\${word#@}" ;;
      *) printf '%s\\n' "$word" ;;
    esac
  done
}

_iris_source() {
  case "$1" in
${sources.join('\n')}
  esac
}

_iris() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  local path="iris" nargs=0 i word
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    if [[ "$word" == -p || "$word" == --profile ]]; then ((i++)); continue; fi
    if [[ "$word" == -* ]]; then
      [[ " \${_iris_valued[$path]} " == *" $word "* ]] && ((i++))
      continue
    fi
    if [[ " \${_iris_subcommands[$path]} " == *" $word "* ]]; then path="$path $word"; else ((nargs++)); fi
  done
  local values=""
  if [[ "$prev" == -* ]]; then
    if [[ " \${_iris_valued[$path]} " == *" $prev "* ]]; then
      values="\${_iris_values[$path|$prev]}"
      [[ -z "$values" ]] && { COMPREPLY=(); return 0; }
    fi
  fi
  if [[ -z "$values" && "$cur" != -* ]]; then values="\${_iris_values[$path|#$nargs]}"; fi
  if [[ -n "$values" ]]; then
    COMPREPLY=($(compgen -W "$(_iris_words "$values")" -- "$cur"))
  elif [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "\${_iris_flags[$path]}" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "\${_iris_subcommands[$path]}" -- "$cur"))
  fi
  return 0
}
complete -F _iris iris
`;
}

export function zshScript(nodes: readonly CompletionNode[], fixed: Readonly<Record<string, readonly string[]>>): string {
  return `#compdef iris
# iris completion for zsh: source <(iris completion zsh), or save it as _iris in your $fpath
autoload -U +X bashcompinit && bashcompinit
${bashScript(nodes, fixed).split('\n').slice(2).join('\n')}`;
}
