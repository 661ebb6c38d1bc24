// YAML text for the plain data the CLI prints (`iris config show`, `config get` of a section):
// maps, lists, strings, numbers, booleans and null, written exactly as the `yaml` package's
// `stringify(value, { lineWidth: 0 })` writes them. The package's stringify costs ~9 ms of the
// command's start; this covers the shapes config values have and answers `undefined` for anything
// else (a string that needs quotes other than "", a list in a list, a number in exponent form, a
// map met twice…), so the caller falls back to the package and the output never differs.
// plain-yaml.test.ts holds the two side by side.

const INDENT = '  ';

// What a YAML 1.2 core-schema reader would take for something other than a string (null, true,
// a number, .inf…), what starts with an indicator, and what holds `: `, ` #` or ends in `:`: these
// need quotes, and which quotes the package picks is its own business, so they fall back.
const STARTS_UNSAFE = /^[-?:,[\]{}#&*!|>'"%@`\s~]|^\.\.\./;
const UNSAFE_ANYWHERE = /: |\s#|:$|\s$/;
const RESERVED = /^(?:null|true|false)$/i;
const NUMBER_LIKE = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$|^0o[0-7]+$|^0x[0-9a-fA-F]+$|^[-+]?\.(?:inf|nan)$/i;
// Control characters, lone surrogates, BOM, line and paragraph separators: the package escapes them.
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\ud800-\udfff\ufeff\u2028\u2029]/;

function plainString(text: string): string | undefined {
  if (text === '') return '""';
  if (STARTS_UNSAFE.test(text) || UNSAFE_ANYWHERE.test(text) || RESERVED.test(text) || NUMBER_LIKE.test(text) || UNPRINTABLE.test(text)) return undefined;
  return text;
}

function scalar(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (Object.is(value, -0) || !Number.isFinite(value)) return undefined;
    const text = String(value);
    return /e/i.test(text) ? undefined : text;
  }
  if (typeof value === 'string') return plainString(value);
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Longer keys are written as explicit keys (`? key`) by the package. */
const MAX_PLAIN_KEY = 1024;

/**
 * Lines of a non-empty map or list at `indent`, or undefined when some part falls back. `seen`
 * holds the maps and lists met so far: one met twice is written by the package as an anchor and
 * an alias (and a cycle would never end here).
 */
function block(value: unknown, indent: string, seen: Set<object>): string[] | undefined {
  if (seen.has(value as object)) return undefined;
  seen.add(value as object);
  const lines: string[] = [];
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) {
      if (Array.isArray(item)) return undefined;
      if (isPlainObject(item) && Object.keys(item).length > 0) {
        // The first key shares the dash's line; the rest line up under it.
        const inner = block(item, indent + INDENT, seen);
        if (!inner) return undefined;
        lines.push(`${indent}- ${inner[0]!.slice(indent.length + INDENT.length)}`, ...inner.slice(1));
        continue;
      }
      const text = inline(item, seen);
      if (text === undefined) return undefined;
      lines.push(`${indent}- ${text}`);
    }
    return lines;
  }
  if (!isPlainObject(value)) return undefined;
  for (const [key, child] of Object.entries(value)) {
    const name = plainString(key);
    if (name === undefined || name === '""' || name.length > MAX_PLAIN_KEY || child === undefined) return undefined;
    const text = inline(child, seen);
    if (text !== undefined) {
      lines.push(`${indent}${name}: ${text}`);
      continue;
    }
    if (!isPlainObject(child) && !Array.isArray(child)) return undefined;
    // A list under a key is indented one step, as the package writes it.
    const inner = block(child, indent + INDENT, seen);
    if (!inner) return undefined;
    lines.push(`${indent}${name}:`, ...inner);
  }
  return lines;
}

/** A value that fits after `key: ` or `- `: a scalar, `{}` or `[]`. */
function inline(value: unknown, seen: Set<object>): string | undefined {
  if (Array.isArray(value) || isPlainObject(value)) {
    const empty = Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0;
    if (!empty || seen.has(value)) return undefined;
    seen.add(value);
    return Array.isArray(value) ? '[]' : '{}';
  }
  return scalar(value);
}

/**
 * The YAML text of a map or a list (the package's output, byte for byte), or undefined when the
 * value has a part this does not write: the caller then uses the `yaml` package.
 */
export function plainYaml(value: unknown): string | undefined {
  if (!isPlainObject(value) && !Array.isArray(value)) return undefined;
  const seen = new Set<object>();
  const empty = inline(value, seen);
  if (empty !== undefined) return `${empty}\n`;
  const lines = block(value, '', seen);
  return lines ? `${lines.join('\n')}\n` : undefined;
}
