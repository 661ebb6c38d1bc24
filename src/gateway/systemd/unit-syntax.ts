// Writing values into a systemd unit file so that systemd reads back exactly what we meant
// (systemd.syntax(7), systemd.service(5)). Each setting unquotes differently, so each kind of
// value has its own function:
// - every setting expands `%` specifiers, so a literal `%` is written `%%`;
// - ExecStart= also expands `$NAME`, so a literal `$` is written `$$`, and splits on whitespace,
//   so an argument with a space, a quote or a backslash is double-quoted with C escapes, and an
//   argument that is just `;` (the command separator) is quoted too;
// - Environment= and ReadWritePaths= split on whitespace and unquote with C escapes, but expand
//   no variables;
// - EnvironmentFile= takes the rest of the line as one path: no quoting at all.
// A line break cannot be written in a unit file: such a value is refused by the caller's checks
// (see `unitValueProblem`), never escaped into something systemd would read differently.

const SPECIFIER = /%/g;
const NEEDS_QUOTES = /[\s"'\\]/;

function escapeInQuotes(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

/** One word of a whitespace-split, unquoting setting (Environment=, ReadWritePaths=). */
export function quoteWord(value: string): string {
  const escaped = value.replace(SPECIFIER, '%%');
  return NEEDS_QUOTES.test(escaped) || escaped === '' ? `"${escapeInQuotes(escaped)}"` : escaped;
}

/** One argument of ExecStart=: as quoteWord, and `$` doubled because ExecStart= expands variables. */
export function quoteExecArg(value: string): string {
  const escaped = value.replace(SPECIFIER, '%%').replace(/\$/g, '$$$$');
  return NEEDS_QUOTES.test(escaped) || escaped === '' || escaped === ';' ? `"${escapeInQuotes(escaped)}"` : escaped;
}

/** A whole-line path (EnvironmentFile=): only the specifier character needs care. */
export function escapeLinePath(value: string): string {
  return value.replace(SPECIFIER, '%%');
}

/** Why `value` cannot be written into a unit file, or undefined when it can. */
export function unitValueProblem(value: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(value)) return 'it holds a line break or another control character, which a unit file cannot carry';
  return undefined;
}
